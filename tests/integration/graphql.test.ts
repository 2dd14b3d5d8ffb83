import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getIntrospectionQuery } from 'graphql';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loginMessage } from '../../src/shared/api/auth';
import type { GraphqlQueryName } from '../../src/shared/api/graphql';
import { STATISTIC_NUMERIC_FIELDS } from '../../src/shared/api/statistics';
import { DEFAULT_SERVICE_NAME } from '../../src/shared/profile';
import { createApiKey } from '../../src/service/auth/api-keys';
import { knownProtocols } from '../../src/service/market/catalogue';
import { planSearch, type SearchArgs } from '../../src/service/graphql/resolvers';
import { compileSearch } from '../../src/service/graphql/search';
import { postJson, startTestService, type RunningService } from '../support/service';
import {
  ALICE,
  BOB,
  CAROL,
  HOUR,
  ORDER_SELECTION,
  POSITION_SELECTION,
  STATISTIC_SELECTION,
  T0,
  insertPositions,
  insertStatistics,
  iso,
  orderRow,
  positionRow,
  searchQuery,
  statisticNumbers,
  type StatisticFixture,
} from '../support/graphql-fixtures';

let svc: RunningService;
let apiKey: string;
beforeAll(async () => {
  svc = await startTestService();
  apiKey = createApiKey(svc.service.db, svc.clock.now(), 'graphql tests');
  seed();
});
afterAll(() => svc.close());

// Six positions on three protocols: four OPEN (p1, p2, p4, p6) and two closed (p3, p5).
const positions = [
  positionRow({
    id: 'p1',
    account: ALICE,
    open_block_number: 1010,
    open_time_ms: T0 + HOUR,
    collateral_token: '0x00000000000000000000000000000000000000c0',
    size: 10_000,
    size_in_token: 0.2,
    collateral: 1000,
    realised_pnl: 500,
    pnl: 480,
    roi: 48,
    realised_roi: 50,
    fee: 20,
    funding: -0.5,
    order_count: 2,
    order_increase_count: 1,
    tx_hashes: '["0xaa","0xbb"]',
    created_at_ms: T0 + HOUR,
    updated_at_ms: T0 + 1.5 * HOUR,
  }),
  positionRow({
    id: 'p2',
    account: BOB,
    pair: 'ETH-USD',
    is_long: 0,
    open_time_ms: T0 + 2 * HOUR,
    realised_pnl: -50,
    leverage: 5,
  }),
  positionRow({
    id: 'p3',
    status: 'CLOSE',
    close_block_number: 1300,
    close_time_ms: T0 + 3 * HOUR,
    realised_pnl: 1200,
    is_win: 1,
    duration_s: 10_800,
    leverage: 20,
  }),
  positionRow({
    id: 'p4',
    protocol: 'ORBIT_BASE',
    account: CAROL,
    pair: 'SOL-USD',
    open_time_ms: T0 + 4 * HOUR,
    realised_pnl: 100,
    leverage: 3,
  }),
  positionRow({
    id: 'p5',
    protocol: 'HELIX_OP',
    account: BOB,
    is_long: 0,
    status: 'CLOSE',
    open_time_ms: T0 - 24 * HOUR,
    close_block_number: 1500,
    close_time_ms: T0 + 5 * HOUR,
    realised_pnl: -300,
    is_win: 0,
    is_liquidate: 1,
    duration_s: 29 * 3600,
    leverage: 50,
  }),
  positionRow({
    id: 'p6',
    protocol: 'ORBIT_BASE',
    pair: 'ETH-USD',
    open_time_ms: T0 + HOUR / 2,
    realised_pnl: 900,
  }),
];

const orders = [
  orderRow({ id: 'o1', position_id: 'p1', block_time_ms: T0 + HOUR }),
  orderRow({ id: 'o2', position_id: 'p1', type: 'INCREASE', block_time_ms: T0 + 1.25 * HOUR }),
  orderRow({
    id: 'o3',
    position_id: 'p3',
    type: 'CLOSE',
    key: 'k-o3',
    collateral_token: '0x00000000000000000000000000000000000000c0',
    size_delta: -1000,
    size: 0,
    size_delta_in_token: -0.02,
    size_in_token: 0,
    collateral_delta: -100,
    collateral: 0,
    price: 51_000,
    average_price: 50_000,
    realised_pnl: 1200,
    fee: 2,
    funding: 0.25,
    leverage: null,
    log_id: 9,
    block_number: 1300,
    block_time_ms: T0 + 3 * HOUR,
    created_at_ms: T0 + 3 * HOUR + 5,
  }),
  orderRow({
    id: 'o4',
    position_id: 'p4',
    protocol: 'ORBIT_BASE',
    account: CAROL,
    block_time_ms: T0 + 4 * HOUR,
  }),
  orderRow({
    id: 'o5',
    position_id: 'p5',
    protocol: 'HELIX_OP',
    type: 'CLOSE',
    block_time_ms: T0 + 5 * HOUR,
  }),
  orderRow({ id: 'o6', position_id: 'p6', protocol: 'ORBIT_BASE', block_time_ms: T0 + HOUR / 2 }),
];

const aliceD30: StatisticFixture = {
  id: 'st-alice',
  account: ALICE,
  protocol: 'NOVA_ARB',
  type: 'D30',
  numbers: { pnl: 900, totalTrade: 12, winRate: 75, realisedMaxDrawdown: null, unrealisedPnl: -3.5 },
  indexTokens: ['0x00000000000000000000000000000000000000b7'],
  pairs: ['BTC-USD', 'ETH-USD'],
  isOpenPosition: true,
  lastTradeAtMs: T0 + 3 * HOUR,
};
const statistics: StatisticFixture[] = [
  aliceD30,
  // An older generation of the same record: never answered.
  { ...aliceD30, genFrom: 0, genTo: 1, numbers: { pnl: 5, totalTrade: 99 } },
  { id: 'st-bob', account: BOB, protocol: 'NOVA_ARB', type: 'D30', numbers: { pnl: -100, totalTrade: 3 } },
  {
    id: 'st-carol',
    account: CAROL,
    protocol: 'ORBIT_BASE',
    type: 'D30',
    numbers: { pnl: 400, totalTrade: 20 },
  },
  {
    id: 'st-alice',
    account: ALICE,
    protocol: 'NOVA_ARB',
    type: 'FULL',
    numbers: { pnl: 2000, totalTrade: 40 },
  },
];

function seed() {
  insertPositions(svc.service.db, positions, orders);
  insertStatistics(svc.service.db, statistics);
}

type Answer = { status: number; body: Record<string, unknown> };
type GraphqlError = { message: string; path?: (string | number)[]; extensions: { code: string } };

/** POSTs a GraphQL request with the API key (unless other headers are given). */
function post(body: unknown, headers: Record<string, string> = { 'x-api-key': apiKey }): Promise<Answer> {
  return postJson(`${svc.url}/graphql`, body, headers);
}

/** Runs one of the four queries with `variables` and returns its page, failing on any error. */
async function search(name: GraphqlQueryName, variables: Record<string, unknown>, selection = 'id') {
  const res = await post({ operationName: 'Search', query: searchQuery(name, selection), variables });
  expect(res.status).toBe(200);
  expect(res.body.errors).toBeUndefined();
  return (res.body.data as Record<string, { data: Record<string, unknown>[]; meta: unknown }>)[name]!;
}

const LOCAL = {
  positions: 'local.positions',
  orders: 'local.orders',
  statistics: 'local.position_statistics',
};

/** Ids of the positions livePosition answers for `and` (every protocol), in the order answered. */
async function liveIds(and: unknown[], sorts: unknown = { field: 'id', direction: 'asc' }) {
  const page = await search('livePosition', { index: LOCAL.positions, body: { filter: { and }, sorts } });
  return page.data.map((p) => p.id);
}

/** The errors of an answer that must be a 200 with GraphQL errors. */
function graphqlErrors(res: Answer): GraphqlError[] {
  expect(res.status).toBe(200);
  const errors = res.body.errors as GraphqlError[];
  expect(Array.isArray(errors) && errors.length > 0).toBe(true);
  return errors;
}

/** Asserts a single GraphQL error with `code` whose message matches `mentions`. */
function expectGraphqlError(res: Answer, mentions: RegExp, code = 'VALIDATION_FAILED'): GraphqlError {
  const [error, ...rest] = graphqlErrors(res);
  expect(rest).toEqual([]);
  expect(error!.extensions.code).toBe(code);
  expect(error!.message).toMatch(mentions);
  return error!;
}

/** Asserts the decided non-2xx body (docs/api.md, Errors). */
function expectHttpError(res: Answer, status: number, code: string, mentions: RegExp) {
  expect(res.status).toBe(status);
  expect(Object.keys(res.body).sort()).toEqual(['code', 'error', 'message', 'statusCode']);
  expect(res.body).toMatchObject({ statusCode: status, code });
  expect(res.body.message).toMatch(mentions);
}

describe('searchTopOpeningPosition', () => {
  it('answers OPEN positions of the protocols with every field, nested under the query name', async () => {
    const res = await post({
      operationName: 'Search',
      query: searchQuery('searchTopOpeningPosition', POSITION_SELECTION),
      variables: {
        index: LOCAL.positions,
        protocols: ['NOVA_ARB'],
        body: { sorts: [{ field: 'realisedPnl', direction: 'desc' }], paging: { size: 10, from: 0 } },
      },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    const page = (res.body.data as Record<string, { data: unknown[]; meta: unknown }>)
      .searchTopOpeningPosition!;
    expect(page.meta).toEqual({ total: 2, limit: 10, offset: 0, totalPages: 1 });
    expect(page.data.map((p) => (p as { id: string }).id)).toEqual(['p1', 'p2']);
    expect(page.data[0]).toEqual({
      id: 'p1',
      account: ALICE,
      protocol: 'NOVA_ARB',
      key: 'key-p1',
      logId: 7,
      openBlockNumber: 1010,
      closeBlockNumber: null,
      openBlockTime: '2026-03-01T01:00:00.000Z',
      closeBlockTime: null,
      indexToken: '0x00000000000000000000000000000000000000b7',
      pair: 'BTC-USD',
      size: 10_000,
      collateral: 1000,
      averagePrice: 50_000,
      fee: 20,
      funding: -0.5,
      pnl: 480,
      realisedPnl: 500,
      roi: 48,
      realisedRoi: 50,
      isLong: true,
      isWin: null,
      isLiquidate: false,
      leverage: 10,
      orderCount: 2,
      orderIncreaseCount: 1,
      orderDecreaseCount: 0,
      durationInSecond: null,
      status: 'OPEN',
      createdAt: '2026-03-01T01:00:00.000Z',
      synthetixPositionId: null,
      smartAccount: null,
      collateralToken: '0x00000000000000000000000000000000000000c0',
      reverseIndex: null,
      collateralInToken: null,
      lastCollateral: 1000,
      lastSizeNumber: 10_000,
      lastSize: 10_000,
      lastSizeInToken: 0.2,
      sizeInToken: 0.2,
      feeInToken: null,
      lastFunding: -0.5,
      fundingInToken: null,
      txHashes: ['0xaa', '0xbb'],
      orderIds: null,
      realisedPnlInToken: null,
      updatedAt: '2026-03-01T01:30:00.000Z',
      __typename: 'Position',
    });
  });

  it('honours protocols: none or empty means all, several mean any of them', async () => {
    const ids = async (protocols?: string[]) => {
      const variables = {
        index: LOCAL.positions,
        protocols,
        body: { sorts: { field: 'id', direction: 'asc' } },
      };
      return (await search('searchTopOpeningPosition', variables)).data.map((p) => p.id);
    };
    expect(await ids()).toEqual(['p1', 'p2', 'p4', 'p6']);
    expect(await ids([])).toEqual(['p1', 'p2', 'p4', 'p6']);
    expect(await ids(['ORBIT_BASE'])).toEqual(['p4', 'p6']);
    expect(await ids(['ORBIT_BASE', 'HELIX_OP'])).toEqual(['p4', 'p6']);
    expect(await ids(['HELIX_OP'])).toEqual([]);
  });

  it('keeps OPEN implied even when the client asks for CLOSE', async () => {
    const page = await search('searchTopOpeningPosition', {
      index: LOCAL.positions,
      body: { filter: { and: [{ field: 'status', match: 'CLOSE' }] } },
    });
    expect(page).toEqual({ data: [], meta: { total: 0, limit: 20, offset: 0, totalPages: 0 } });
  });

  it('filters an openBlockTime range sorted by realisedPnl across protocols (the upstream example)', async () => {
    const page = await search('searchTopOpeningPosition', {
      index: LOCAL.positions,
      body: {
        filter: { and: [{ field: 'openBlockTime', gte: iso(T0), lte: iso(T0 + 5 * HOUR) }] },
        sorts: [{ field: 'realisedPnl', direction: 'desc' }],
      },
    });
    expect(page.data.map((p) => p.id)).toEqual(['p6', 'p1', 'p4', 'p2']);
  });
});

describe('livePosition', () => {
  it('answers open and closed positions within the filter, of the protocols', async () => {
    const window = { gte: iso(T0 + 2 * HOUR), lte: iso(T0 + 6 * HOUR) };
    const page = await search(
      'livePosition',
      {
        index: LOCAL.positions,
        protocols: ['NOVA_ARB', 'HELIX_OP'],
        body: {
          filter: {
            and: [
              {
                or: [
                  { field: 'openBlockTime', ...window },
                  { field: 'closeBlockTime', ...window },
                ],
              },
            ],
          },
          sorts: { field: 'openBlockTime', direction: 'asc' },
        },
      },
      'id status protocol closeBlockTime isWin isLiquidate durationInSecond __typename',
    );
    expect(page).toEqual({
      data: [
        {
          id: 'p5',
          status: 'CLOSE',
          protocol: 'HELIX_OP',
          closeBlockTime: '2026-03-01T05:00:00.000Z',
          isWin: false,
          isLiquidate: true,
          durationInSecond: 104_400,
          __typename: 'Position',
        },
        {
          id: 'p3',
          status: 'CLOSE',
          protocol: 'NOVA_ARB',
          closeBlockTime: '2026-03-01T03:00:00.000Z',
          isWin: true,
          isLiquidate: false,
          durationInSecond: 10_800,
          __typename: 'Position',
        },
        {
          id: 'p2',
          status: 'OPEN',
          protocol: 'NOVA_ARB',
          closeBlockTime: null,
          isWin: null,
          isLiquidate: false,
          durationInSecond: null,
          __typename: 'Position',
        },
      ],
      meta: { total: 3, limit: 20, offset: 0, totalPages: 1 },
    });
  });

  it('honours protocols', async () => {
    const ids = async (protocols?: string[]) =>
      (
        await search('livePosition', {
          index: LOCAL.positions,
          protocols,
          body: { sorts: { field: 'id', direction: 'asc' } },
        })
      ).data.map((p) => p.id);
    expect(await ids()).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6']);
    expect(await ids(['HELIX_OP'])).toEqual(['p5']);
    expect(await ids(['NOVA_ARB', 'HELIX_OP'])).toEqual(['p1', 'p2', 'p3', 'p5']);
  });
});

describe('searchOrders', () => {
  it('answers orders by protocol in and blockTime range, with every field', async () => {
    const page = await search(
      'searchOrders',
      {
        index: LOCAL.orders,
        body: {
          filter: {
            and: [
              { field: 'protocol', in: ['NOVA_ARB', 'ORBIT_BASE'] },
              { field: 'blockTime', gte: iso(T0 + HOUR), lte: iso(T0 + 4 * HOUR) },
            ],
          },
          sorts: [{ field: 'blockTime', direction: 'asc' }],
        },
      },
      ORDER_SELECTION,
    );
    expect(page.meta).toEqual({ total: 4, limit: 20, offset: 0, totalPages: 1 });
    expect(page.data.map((o) => o.id)).toEqual(['o1', 'o2', 'o3', 'o4']);
    expect(page.data[2]).toEqual({
      id: 'o3',
      account: ALICE,
      key: 'k-o3',
      protocol: 'NOVA_ARB',
      txHash: '0xtx-o3',
      indexToken: '0x00000000000000000000000000000000000000b7',
      collateralToken: '0x00000000000000000000000000000000000000c0',
      pair: 'BTC-USD',
      sizeDeltaNumber: -1000,
      sizeNumber: 0,
      collateralDeltaNumber: -100,
      collateralNumber: 0,
      collateralDeltaInTokenNumber: null,
      sizeDeltaInTokenNumber: -0.02,
      realisedPnlNumber: 1200,
      priceNumber: 51_000,
      sizeTokenNumber: 0,
      averagePriceNumber: 50_000,
      feeNumber: 2,
      fundingNumber: 0.25,
      fundingRateNumber: null,
      realisedPnl: 1200,
      leverage: null,
      isLong: true,
      isOpen: false,
      isClose: true,
      type: 'CLOSE',
      logId: 9,
      blockNumber: 1300,
      blockTime: '2026-03-01T03:00:00.000Z',
      createdAt: '2026-03-01T03:00:00.005Z',
      __typename: 'Order',
    });
    expect(page.data[0]).toMatchObject({ id: 'o1', type: 'OPEN', isOpen: true, isClose: false, key: null });
  });

  it('takes no protocols argument: filtering by protocol is a condition', async () => {
    const res = await post({
      query: '{ searchOrders(index: "local.orders", protocols: ["NOVA_ARB"]) { data { id } } }',
      variables: {},
    });
    expectGraphqlError(res, /Unknown argument "protocols" on field "Query.searchOrders"/);
  });
});

describe('searchPositionStatistic', () => {
  it('answers current records only, with every field and the GraphQL extras', async () => {
    const page = await search(
      'searchPositionStatistic',
      {
        index: LOCAL.statistics,
        body: {
          filter: {
            and: [
              { field: 'protocol', match: 'NOVA_ARB' },
              { field: 'type', match: 'D30' },
              { field: 'totalTrade', gte: '5' },
            ],
          },
        },
      },
      STATISTIC_SELECTION,
    );
    expect(page.meta).toEqual({ total: 1, limit: 20, offset: 0, totalPages: 1 });
    const numbers = statisticNumbers(aliceD30);
    expect(page.data).toEqual([
      {
        id: 'st-alice',
        account: ALICE,
        type: 'D30',
        protocol: 'NOVA_ARB',
        ...Object.fromEntries(STATISTIC_NUMERIC_FIELDS.map((f) => [f, numbers[f]])),
        lastTradeAt: '2026-03-01T03:00:00.000Z',
        statisticAt: '2026-03-01T00:00:00.001Z',
        createdAt: '2026-03-01T00:00:00.002Z',
        updatedAt: '2026-03-01T00:00:00.003Z',
        indexTokens: ['0x00000000000000000000000000000000000000b7'],
        pairs: ['BTC-USD', 'ETH-USD'],
        isOpenPosition: true,
        unrealisedPnl: -3.5,
        __typename: 'PositionStatistic',
      },
    ]);
    expect(page.data[0]).toMatchObject({ pnl: 900, totalTrade: 12, winRate: 75, realisedMaxDrawdown: null });
  });

  it('filters protocol and type with a numeric range, sorted by pnl by default', async () => {
    const page = await search(
      'searchPositionStatistic',
      {
        index: LOCAL.statistics,
        body: {
          filter: {
            and: [
              { field: 'type', match: 'D30' },
              { field: 'pnl', gte: -100, lt: '900' },
            ],
          },
        },
      },
      'account pnl totalGain',
    );
    expect(page.data).toEqual([
      { account: CAROL, pnl: 400, totalGain: statisticNumbers(aliceD30).totalGain },
      { account: BOB, pnl: -100, totalGain: statisticNumbers(aliceD30).totalGain },
    ]);
  });
});

describe('conditions', () => {
  it.each([
    ['match on text', [{ field: 'pair', match: 'ETH-USD' }], ['p2', 'p6']],
    ['match on numeric text', [{ field: 'orderCount', match: '2' }], ['p1']],
    ['match on a boolean', [{ field: 'isLong', match: true }], ['p1', 'p3', 'p4', 'p6']],
    ['match on "false"', [{ field: 'isLong', match: 'false' }], ['p2', 'p5']],
    ['match on "true"', [{ field: 'isLiquidate', match: 'true' }], ['p5']],
    ['in', [{ field: 'account', in: [BOB, CAROL] }], ['p2', 'p4', 'p5']],
    ['in with an empty list', [{ field: 'account', in: [] }], []],
    ['nin', [{ field: 'protocol', nin: ['NOVA_ARB'] }], ['p4', 'p5', 'p6']],
    ['in with numeric text', [{ field: 'leverage', in: ['5', 50] }], ['p2', 'p5']],
    ['gte', [{ field: 'realisedPnl', gte: 500 }], ['p1', 'p3', 'p6']],
    ['gt on numeric text', [{ field: 'realisedPnl', gt: '500' }], ['p3', 'p6']],
    ['lte', [{ field: 'realisedPnl', lte: -50 }], ['p2', 'p5']],
    ['lt', [{ field: 'realisedPnl', lt: -50 }], ['p5']],
    ['gte and lt together', [{ field: 'leverage', gte: 5, lt: 20 }], ['p1', 'p2', 'p6']],
    ['gt and lte together', [{ field: 'leverage', gt: '5', lte: '20' }], ['p1', 'p3', 'p6']],
    [
      'ISO timestamps',
      [{ field: 'openBlockTime', gte: iso(T0 + HOUR), lte: iso(T0 + 4 * HOUR) }],
      ['p1', 'p2', 'p4'],
    ],
    ['epoch milliseconds', [{ field: 'closeBlockTime', lt: T0 + 4 * HOUR }], ['p3']],
    ['numeric text durations', [{ field: 'durationInSecond', gte: '10800' }], ['p3', 'p5']],
    ['exists true', [{ field: 'closeBlockNumber', exists: true }], ['p3', 'p5']],
    ['exists false', [{ field: 'closeBlockTime', exists: false }], ['p1', 'p2', 'p4', 'p6']],
    [
      'several conditions (and)',
      [
        { field: 'status', match: 'OPEN' },
        { field: 'isLong', match: true },
      ],
      ['p1', 'p4', 'p6'],
    ],
    [
      'or nested inside and, with an or inside the or',
      [
        { field: 'protocol', in: ['NOVA_ARB', 'HELIX_OP'] },
        {
          or: [
            { field: 'realisedPnl', gt: 1000 },
            {
              or: [
                { field: 'isLiquidate', match: 'true' },
                { field: 'pair', match: 'ETH-USD' },
              ],
            },
          ],
        },
      ],
      ['p2', 'p3', 'p5'],
    ],
  ])('%s', async (_name, and, expected) => {
    expect(await liveIds(and)).toEqual(expected);
  });

  it.each([
    [{ field: 'realisedPnl', gt: 'lots' }, /^body\.filter\.and\[0\]\.gt must be a number or numeric text$/],
    [{ field: 'isLong', match: 'yes' }, /^body\.filter\.and\[0\]\.match must be true or false$/],
    [{ field: 'openBlockTime', gte: 'yesterday' }, /^body\.filter\.and\[0\]\.gte must be an ISO 8601 time/],
    [{ field: 'colour', match: 'red' }, /^body\.filter\.and\[0\]\.field names an unknown field "colour"$/],
    [
      {
        or: [
          { field: 'pnl', gt: 0 },
          { field: 'blockTime', gt: 0 },
        ],
      },
      /^body\.filter\.and\[0\]\.or\[1\]\.field names an unknown field "blockTime"$/,
    ],
    [{ field: 'pnl', in: 5 }, /^body\.filter\.and\[0\]\.in must be an array$/],
    [{ field: 'pnl' }, /^body\.filter\.and\[0\] must have one of match, in/],
  ])('refuses %j naming the field', async (condition, mentions) => {
    const res = await post({
      query: searchQuery('livePosition'),
      variables: { index: LOCAL.positions, body: { filter: { and: [condition] } } },
    });
    const error = expectGraphqlError(res, mentions);
    expect(error.path).toEqual(['livePosition']);
    expect(res.body.data).toEqual({ livePosition: null });
  });

  it('refuses more conditions than the service compiles', async () => {
    const and = Array.from({ length: 101 }, () => ({ field: 'pnl', gt: 0 }));
    const res = await post({
      query: searchQuery('livePosition'),
      variables: { index: LOCAL.positions, body: { filter: { and } } },
    });
    expectGraphqlError(res, /^body\.filter\.and must hold at most 100 conditions/);
  });
});

describe('sorts', () => {
  it('takes a single object', async () => {
    expect(await liveIds([], { field: 'realisedPnl', direction: 'asc' })).toEqual([
      'p5',
      'p2',
      'p4',
      'p1',
      'p6',
      'p3',
    ]);
  });

  it('takes an array, applied in order', async () => {
    const sorts = [
      { field: 'pair', direction: 'asc' },
      { field: 'realisedPnl', direction: 'desc' },
    ];
    expect(await liveIds([], sorts)).toEqual(['p3', 'p1', 'p5', 'p6', 'p2', 'p4']);
  });

  it('defaults to openBlockTime, newest first', async () => {
    expect(await liveIds([], [])).toEqual(['p4', 'p2', 'p1', 'p6', 'p3', 'p5']);
  });

  it('refuses an unknown sort field or direction naming it', async () => {
    const run = (sorts: unknown) =>
      post({ query: searchQuery('livePosition'), variables: { index: LOCAL.positions, body: { sorts } } });
    expectGraphqlError(
      await run({ field: 'colour', direction: 'asc' }),
      /^body\.sorts\[0\]\.field names an unknown field "colour"$/,
    );
    expectGraphqlError(
      await run([{ field: 'pnl', direction: 'up' }]),
      /^body\.sorts\[0\]\.direction must be one of asc, desc$/,
    );
  });
});

describe('paging', () => {
  const page = (paging: unknown, and: unknown[] = []) =>
    search('livePosition', {
      index: LOCAL.positions,
      body: { filter: { and }, sorts: { field: 'id', direction: 'asc' }, paging },
    });

  it('answers a first page, the last page, and past the end', async () => {
    expect(await page({ size: 4, from: 0 })).toEqual({
      data: ['p1', 'p2', 'p3', 'p4'].map((id) => ({ id })),
      meta: { total: 6, limit: 4, offset: 0, totalPages: 2 },
    });
    expect(await page({ size: 4, from: 4 })).toEqual({
      data: [{ id: 'p5' }, { id: 'p6' }],
      meta: { total: 6, limit: 4, offset: 4, totalPages: 2 },
    });
    expect(await page({ size: 4, from: 6 })).toEqual({
      data: [],
      meta: { total: 6, limit: 4, offset: 6, totalPages: 2 },
    });
    expect(await page({ size: 1, from: 100 })).toEqual({
      data: [],
      meta: { total: 6, limit: 1, offset: 100, totalPages: 6 },
    });
  });

  it('answers an empty page when nothing matches', async () => {
    expect(await page({ size: 1000 }, [{ field: 'account', match: '0x' + '9'.repeat(40) }])).toEqual({
      data: [],
      meta: { total: 0, limit: 1000, offset: 0, totalPages: 0 },
    });
  });

  it.each([
    [{ size: 0 }, /^body\.paging\.size must be at least 1$/],
    [{ size: 1001 }, /^body\.paging\.size must be at most 1000$/],
    [{ size: 1.5 }, /^body\.paging\.size must be an integer$/],
    [{ from: -1 }, /^body\.paging\.from must be at least 0$/],
    [{ from: 2 ** 31 }, /^body\.paging\.from must be at most 2147483647$/],
  ])('refuses paging %j naming the rule', async (paging, mentions) => {
    const res = await post({
      query: searchQuery('livePosition'),
      variables: { index: LOCAL.positions, body: { paging } },
    });
    expectGraphqlError(res, mentions);
  });
});

describe('indexes, queries and fields', () => {
  it.each([
    ['searchTopOpeningPosition', 'local.trades', /index "local\.trades" names an unknown kind "trades"/],
    [
      'searchTopOpeningPosition',
      'prod.positions',
      /index "prod\.positions" names an unknown namespace "prod"/,
    ],
    ['searchTopOpeningPosition', 'positions', /index "positions" is not <namespace>\.<kind>/],
    ['searchTopOpeningPosition', 'local.orders', /index "local\.orders" holds orders, not positions/],
    ['searchOrders', 'local.positions', /index "local\.positions" holds positions, not orders/],
    ['searchPositionStatistic', 'local.orders', /searchPositionStatistic reads "local\.position_statistics"/],
  ] as const)('%s refuses index %s naming it', async (name, index, mentions) => {
    const res = await post({ query: searchQuery(name), variables: { index } });
    const error = expectGraphqlError(res, mentions);
    expect(error.path).toEqual([name]);
  });

  it('serves the configured namespace only', async () => {
    const other = await startTestService({ graphqlNamespace: 'desk' });
    try {
      const key = createApiKey(other.service.db, other.clock.now());
      const url = `${other.url}/graphql`;
      const query = searchQuery('searchOrders');
      const ok = await postJson(url, { query, variables: { index: 'desk.orders' } }, { 'x-api-key': key });
      expect(ok.body).toEqual({
        data: { searchOrders: { data: [], meta: { total: 0, limit: 20, offset: 0, totalPages: 0 } } },
      });
      const local = await postJson(
        url,
        { query, variables: { index: 'local.orders' } },
        { 'x-api-key': key },
      );
      expectGraphqlError(local, /unknown namespace "local"; searchOrders reads "desk\.orders"/);
    } finally {
      await other.close();
    }
  });

  it('refuses an unknown protocol naming it', async () => {
    const res = await post({
      query: searchQuery('livePosition'),
      variables: { index: LOCAL.positions, protocols: ['NOVA_ARB', 'NOPE_ARB'] },
    });
    expectGraphqlError(res, /^protocols\[1\] "NOPE_ARB" is not a known protocol/);
    expect(knownProtocols()).not.toContain('NOPE_ARB');
  });

  it('refuses an unknown selected field naming it (graphql-js validation, HTTP 200)', async () => {
    const res = await post({
      query: searchQuery('livePosition', 'id colour'),
      variables: { index: LOCAL.positions },
    });
    const error = expectGraphqlError(res, /^Cannot query field "colour" on type "Position"\.$/);
    expect(error).toMatchObject({ locations: [expect.objectContaining({ line: expect.any(Number) })] });
    expect(res.body).not.toHaveProperty('data');
  });

  it('refuses an unknown query naming it', async () => {
    const res = await post({
      query: '{ searchTrades(index: "local.positions") { data { id } } }',
      variables: {},
    });
    expectGraphqlError(res, /^Cannot query field "searchTrades" on type "Query"\./);
  });

  it('refuses a syntax error, a mutation and an unknown operation name as GraphQL errors', async () => {
    expectGraphqlError(await post({ query: '{ livePosition(', variables: {} }), /^Syntax Error/);
    expectGraphqlError(
      await post({ query: 'mutation { x }', variables: {} }),
      /does not support mutations|not configured to execute mutation/i,
    );
    const res = await post({
      operationName: 'Other',
      query: searchQuery('livePosition'),
      variables: { index: LOCAL.positions },
    });
    expectGraphqlError(res, /Unknown operation named "Other"/);
  });

  it('refuses a missing index as a GraphQL variable error', async () => {
    const res = await post({ query: searchQuery('livePosition'), variables: {} });
    expectGraphqlError(res, /Variable "\$index" of required type "String!" was not provided/);
  });

  it('takes the query text upstream clients send, with non-null variable types', async () => {
    const res = await post({
      operationName: 'Search',
      query: `query Search($index: String!, $protocols: [String!]!, $body: SearchPayload!) {
        searchTopOpeningPosition(index: $index, protocols: $protocols, body: $body) {
          data { id realisedPnl } meta { total limit offset totalPages } } }`,
      variables: {
        index: LOCAL.positions,
        protocols: ['NOVA_ARB', 'ORBIT_BASE'],
        body: {
          filter: { and: [{ field: 'status', match: 'OPEN' }] },
          sorts: [{ field: 'realisedPnl', direction: 'desc' }],
          paging: { size: 2, from: 0 },
        },
      },
    });
    expect(res.body).toEqual({
      data: {
        searchTopOpeningPosition: {
          data: [
            { id: 'p6', realisedPnl: 900 },
            { id: 'p1', realisedPnl: 500 },
          ],
          meta: { total: 4, limit: 2, offset: 0, totalPages: 2 },
        },
      },
    });
  });

  it('refuses a body that is not an object, and a protocol that is not a string', async () => {
    const query = searchQuery('livePosition');
    const notObject = await post({ query, variables: { index: LOCAL.positions, body: 'everything' } });
    expectGraphqlError(notObject, /^body must be an object$/);
    const notString = await post({ query, variables: { index: LOCAL.positions, protocols: [5] } });
    expectGraphqlError(notString, /^Variable "\$protocols" got invalid value 5 at "protocols\[0\]"/);
  });

  it('takes arguments written inline in the query', async () => {
    const res = await post({
      query: `{ top: searchTopOpeningPosition(index: "local.positions", protocols: ["NOVA_ARB"],
        body: {sorts: {field: "realisedPnl", direction: "asc"}, paging: {size: 1}}) { data { id } meta { total } } }`,
      variables: {},
    });
    expect(res.body).toEqual({ data: { top: { data: [{ id: 'p2' }], meta: { total: 2 } } } });
  });

  it('answers __typename on the root, the page, the meta and the items', async () => {
    const res = await post({
      query: `query Search($index: String!) { __typename
        livePosition(index: $index, body: {paging: {size: 1}, sorts: {field: "id", direction: "asc"}}) {
          __typename data { __typename id } meta { __typename total } } }`,
      variables: { index: LOCAL.positions },
    });
    expect(res.body).toEqual({
      data: {
        __typename: 'Query',
        livePosition: {
          __typename: 'PositionPage',
          data: [{ __typename: 'Position', id: 'p1' }],
          meta: { __typename: 'PageMeta', total: 6 },
        },
      },
    });
  });

  it('runs two searches in one request', async () => {
    const res = await post({
      query: `query Two($index: String!) {
        a: searchOrders(index: $index, body: {paging: {size: 1}, sorts: {field: "id", direction: "asc"}}) { data { id } }
        b: searchOrders(index: $index, body: {paging: {size: 1}, sorts: {field: "id", direction: "desc"}}) { data { id } } }`,
      variables: { index: LOCAL.orders },
    });
    expect(res.body).toEqual({ data: { a: { data: [{ id: 'o1' }] }, b: { data: [{ id: 'o6' }] } } });
  });
});

describe('the HTTP envelope', () => {
  it.each([
    [{ variables: { index: LOCAL.positions } }, /^query is required$/],
    [{ query: '', variables: {} }, /^query must not be empty$/],
    [{ query: '{ x }' }, /^variables is required$/],
    [
      { query: '{ x }', variables: { index: LOCAL.positions, size: 3 } },
      /^variables must not contain unknown field "size"$/,
    ],
    [{ query: '{ x }', variables: {}, extensions: {} }, /unknown field "extensions"/],
    [{ query: '{ x }', variables: {}, operationName: 5 }, /^operationName must be a string$/],
    [[{ query: '{ x }', variables: {} }], /must be an object/],
  ])('answers 400 with the decided body for %j', async (body, mentions) => {
    expectHttpError(await post(body), 400, 'VALIDATION_FAILED', mentions);
  });

  it('answers 400 for a body that is not JSON', async () => {
    expectHttpError(await post('{"query":'), 400, 'VALIDATION_FAILED', /JSON/);
  });
});

describe('credentials', () => {
  const request = { query: searchQuery('searchOrders'), variables: { index: LOCAL.orders } };

  it('answers 401 with the decided body without credentials, before looking at the query', async () => {
    expectHttpError(await post(request, {}), 401, 'UNAUTHORIZED', /needs credentials/);
    expectHttpError(await post({ nonsense: true }, {}), 401, 'UNAUTHORIZED', /needs credentials/);
  });

  it('answers 401 for an unknown API key or an invalid token', async () => {
    expectHttpError(await post(request, { 'x-api-key': 'cdk_nope' }), 401, 'UNAUTHORIZED', /unknown API key/);
    expectHttpError(
      await post(request, { authorization: 'Bearer not.a.jwt' }),
      401,
      'UNAUTHORIZED',
      /invalid or expired/,
    );
  });

  it('accepts an API key', async () => {
    const res = await post(request, { 'x-api-key': apiKey });
    expect(res.status).toBe(200);
    expect((res.body.data as { searchOrders: { meta: { total: number } } }).searchOrders.meta.total).toBe(6);
  });

  it('accepts the JWT of a logged-in user, bare or as Bearer', async () => {
    const token = await logIn();
    for (const authorization of [token, `Bearer ${token}`]) {
      const res = await post(request, { authorization });
      expect(res.status).toBe(200);
      expect((res.body.data as { searchOrders: { meta: { total: number } } }).searchOrders.meta.total).toBe(
        6,
      );
    }
  });
});

async function logIn(): Promise<string> {
  const account = privateKeyToAccount(generatePrivateKey());
  const login = await postJson(`${svc.url}/auth/web3/login`, { address: account.address });
  const time = svc.clock.now().toISOString();
  const message = loginMessage(DEFAULT_SERVICE_NAME, time, login.body.verifyCode as string);
  const sign = await account.signMessage({ message });
  const verified = await postJson(`${svc.url}/auth/web3/verify-login`, {
    address: account.address,
    sign,
    time,
  });
  expect(verified.status).toBe(200);
  return verified.body.access_token as string;
}

describe('limits', () => {
  it('answers the standard introspection query', async () => {
    const res = await post({ query: getIntrospectionQuery(), variables: {} });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const types = (res.body.data as { __schema: { types: { name: string }[] } }).__schema.types.map(
      (t) => t.name,
    );
    expect(types).toEqual(
      expect.arrayContaining(['Position', 'Order', 'PositionStatistic', 'SearchPayload']),
    );
  });

  it('refuses more than four searches in one request', async () => {
    const fields = Array.from(
      { length: 5 },
      (_, i) => `s${i}: searchOrders(index: $index) { meta { total } }`,
    );
    const res = await post({
      query: `query Many($index: String!) { ${fields.join(' ')} }`,
      variables: { index: LOCAL.orders },
    });
    expectGraphqlError(res, /^the query runs 5 searches; at most 4 are allowed$/);
  });

  it('refuses fragments that multiply into too many fields', async () => {
    const fragments = Array.from(
      { length: 30 },
      (_, i) => `fragment F${i + 1} on Position { ...F${i} ...F${i} }`,
    ).join('\n');
    const query = `query Bomb($index: String!) { livePosition(index: $index) { data { ...F30 } } }
      fragment F0 on Position { id }
      ${fragments}`;
    // Without the limit this document would expand to 2^30 selections and never answer; the
    // refusal itself is what is checked (speed belongs to benchmarks, not tests).
    const res = await post({ query, variables: { index: LOCAL.positions } });
    expectGraphqlError(res, /^the query selects more than 1500 fields and fragments/);
  });

  it('refuses a query nested too deep', async () => {
    const nest = (depth: number): string => (depth === 0 ? 'name' : `ofType { ${nest(depth - 1)} }`);
    const res = await post({
      query: `{ __type(name: "Position") { fields { type { ${nest(12)} } } } }`,
      variables: {},
    });
    expectGraphqlError(res, /^the query nests fields more than 15 deep$/);
  });

  it('refuses a query text of too many tokens', async () => {
    const res = await post({ query: `{ ${'__typename '.repeat(3001)} }`, variables: {} });
    expectGraphqlError(res, /^Syntax Error: Document contains more th.. 3000 tokens/);
  });
});

describe('SQL', () => {
  const context = { namespace: 'local', knownProtocols: new Set(knownProtocols()) };

  /** The plan SQLite picks for the statements a search runs. */
  function plans(query: GraphqlQueryName, args: SearchArgs) {
    const { set, request } = planSearch(query, args, context);
    const sql = compileSearch(set, request);
    return [sql.count, sql.page].map((statement) => {
      const rows = svc.service.db.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`).all(...statement.params) as {
        detail: string;
      }[];
      return rows.map((r) => r.detail).join('\n');
    });
  }

  it('binds every value as a parameter', () => {
    const { set, request } = planSearch(
      'livePosition',
      {
        index: LOCAL.positions,
        protocols: ['NOVA_ARB'],
        body: {
          filter: {
            and: [
              { field: 'account', match: "x' OR 1=1 --" },
              { field: 'pnl', in: [1, '2'] },
            ],
          },
        },
      },
      context,
    );
    const { page } = compileSearch(set, request);
    expect(page.sql).not.toMatch(/OR 1=1|NOVA_ARB/);
    expect(page.params).toEqual(['NOVA_ARB', "x' OR 1=1 --", 1, 2, 20, 0]);
  });

  it('uses an index for OPEN positions by protocol sorted by realisedPnl', () => {
    const args = {
      index: LOCAL.positions,
      protocols: ['NOVA_ARB'],
      body: { sorts: { field: 'realisedPnl', direction: 'desc' } },
    };
    for (const plan of plans('searchTopOpeningPosition', args)) {
      expect(plan).toMatch(
        /SEARCH positions USING (COVERING )?INDEX positions_\w+ \(protocol=\? AND status=\?/,
      );
    }
  });

  it('uses an index for orders by protocol in and a blockTime range', () => {
    const args = {
      index: LOCAL.orders,
      body: {
        filter: {
          and: [
            { field: 'protocol', in: ['NOVA_ARB', 'ORBIT_BASE'] },
            { field: 'blockTime', gte: iso(T0), lte: iso(T0 + HOUR) },
          ],
        },
        sorts: { field: 'blockTime', direction: 'desc' },
      },
    };
    for (const plan of plans('searchOrders', args)) {
      expect(plan).toMatch(
        /SEARCH orders USING (COVERING )?INDEX orders_time \(protocol=\? AND block_time_ms>\? AND block_time_ms<\?\)/,
      );
    }
  });

  it('uses an index for statistics by protocol and type with a numeric range', () => {
    const args = {
      index: LOCAL.statistics,
      body: {
        filter: {
          and: [
            { field: 'protocol', match: 'NOVA_ARB' },
            { field: 'type', match: 'D30' },
            { field: 'winRate', gte: '50', lte: 100 },
          ],
        },
        sorts: { field: 'pnl', direction: 'desc' },
      },
    };
    for (const plan of plans('searchPositionStatistic', args)) {
      expect(plan).toMatch(
        // The table is clustered by (protocol, type, id, gen_from): its primary key is an index.
        /SEARCH statistics USING (PRIMARY KEY|(COVERING )?INDEX statistics_\w+) \(protocol=\? AND type=\?/,
      );
    }
  });
});
