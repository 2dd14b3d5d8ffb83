// The statistics real clients ask for (docs/statistics.md, "Long and short, streaks, risk-adjusted
// return") as a trader's positions close one at a time: each close goes through the service's live
// (incremental) statistics, and REST and GraphQL answer the new figures at once, equal to the
// docs' formulas worked by hand over the positions the service lists.
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexTokenAddress } from '../../src/service/market/catalogue';
import { ADDED_STATISTIC_FIELDS } from '../../src/shared/api/statistics';
import { apiKeyFor } from '../support/credentials';
import { postJson, startTestService, type RunningService } from '../support/service';

const ADMIN = 'sandbox-admin-key-0123456789';
const TRADER = getAddress('0x' + 'cd'.repeat(20));
const P = 'NOVA_ARB';
const ETH = indexTokenAddress(P, 'ETH');
const DAY = 86_400_000;
let svc: RunningService;
let key: string;

beforeAll(async () => {
  svc = await startTestService({ adminKey: ADMIN });
  key = apiKeyFor(svc);
});
afterAll(() => svc.close());

let n = 0;
/** One position: 10,000 USD of ETH at 2,000 with 1,000 collateral, closed at `closePrice`. */
async function tradeAndClose(isLong: boolean, closePrice: number, closedDaysAgo: number) {
  const order = (type: string, priceNumber: number, at: number, collateralDeltaNumber: number) => ({
    id: `o-${(n += 1)}`,
    account: TRADER,
    protocol: P,
    indexToken: ETH,
    isLong,
    type,
    sizeDeltaNumber: 10_000,
    collateralDeltaNumber,
    priceNumber,
    blockTime: new Date(at).toISOString(),
    txHash: `0x${String(n).padStart(64, '0')}`,
  });
  const closedAt = svc.clock.ms - closedDaysAgo * DAY;
  const { status } = await postJson(
    `${svc.url}/sandbox/orders`,
    {
      orders: [
        order('OPEN', 2_000, closedAt - 3_600_000, 1_000),
        order('CLOSE', closePrice, closedAt, 1_000),
      ],
    },
    { 'x-admin-key': ADMIN },
  );
  expect(status).toBe(200);
}

interface Added {
  longPnl: number;
  shortPnl: number;
  realisedLongPnl: number;
  realisedShortPnl: number;
  totalLongVolume: number;
  totalShortVolume: number;
  winStreak: number;
  loseStreak: number;
  maxWinStreak: number;
  maxLoseStreak: number;
  sharpeRatio: number | null;
  realisedSharpeRatio: number | null;
  sortinoRatio: number | null;
  realisedSortinoRatio: number | null;
}
const ADDED_FIELDS = ADDED_STATISTIC_FIELDS;

async function rest(window: string): Promise<Added> {
  const res = await fetch(`${svc.url}/public/${P}/position/statistic/trader/${TRADER}`, {
    headers: { 'x-api-key': key },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as Record<string, Added>)[window]!;
}

async function graphql(window: string): Promise<Added> {
  const query = `query Search($index: String!, $body: SearchPayload!) {
    searchPositionStatistic(index: $index, body: $body) { __typename data { __typename ${ADDED_FIELDS.join(' ')} } } }`;
  const body = {
    filter: {
      and: [
        { field: 'account', match: TRADER },
        { field: 'protocol', match: P },
        { field: 'type', match: window },
      ],
    },
    paging: { size: 1, from: 0 },
  };
  const res = await postJson(
    `${svc.url}/graphql`,
    { query, variables: { index: 'local.position_statistics', body } },
    { 'x-api-key': key },
  );
  expect(res.status).toBe(200);
  const page = (
    res.body as { data: { searchPositionStatistic: { data: (Added & { __typename: string })[] } } }
  ).data.searchPositionStatistic;
  expect(page.data).toHaveLength(1);
  const { __typename, ...record } = page.data[0]!;
  expect(__typename).toBe('PositionStatistic');
  return record;
}

interface Closed {
  isLong: boolean;
  size: number;
  pnl: number;
  realisedPnl: number;
  roi: number;
  realisedRoi: number;
  isWin: boolean;
}

/** The trader's closed positions as the service lists them, oldest close first. */
async function closedPositions(): Promise<Closed[]> {
  const res = await postJson(
    `${svc.url}/${P}/position/filter/${TRADER}`,
    {
      queries: [{ fieldName: 'status', value: 'CLOSE' }],
      sortBy: 'closeBlockTime',
      sortType: 'asc',
      pagination: { limit: 100 },
    },
    { 'x-api-key': key },
  );
  expect(res.status).toBe(200);
  return (res.body as { data: Closed[] }).data;
}

/** docs/statistics.md's formulas, written out again over the listed positions. */
function byHand(closed: Closed[]): Added {
  const sum = (rows: Closed[], pick: (p: Closed) => number) => rows.reduce((a, p) => a + pick(p), 0);
  const longs = closed.filter((p) => p.isLong);
  const shorts = closed.filter((p) => !p.isLong);
  const runs = (win: boolean) => {
    let current = 0;
    let longest = 0;
    for (const p of closed) {
      current = p.isWin === win ? current + 1 : 0;
      longest = Math.max(longest, current);
    }
    return { current, longest };
  };
  const mean = (r: number[]) => r.reduce((a, x) => a + x, 0) / r.length;
  const sharpe = (r: number[]) => {
    if (r.length < 2) return null;
    const sd = Math.sqrt(r.reduce((a, x) => a + (x - mean(r)) ** 2, 0) / (r.length - 1));
    return sd === 0 ? null : mean(r) / sd;
  };
  const sortino = (r: number[]) => {
    const down = Math.sqrt(r.reduce((a, x) => a + Math.min(x, 0) ** 2, 0) / r.length);
    return r.length < 2 || down === 0 ? null : mean(r) / down;
  };
  return {
    longPnl: sum(longs, (p) => p.pnl),
    shortPnl: sum(shorts, (p) => p.pnl),
    realisedLongPnl: sum(longs, (p) => p.realisedPnl),
    realisedShortPnl: sum(shorts, (p) => p.realisedPnl),
    totalLongVolume: sum(longs, (p) => p.size),
    totalShortVolume: sum(shorts, (p) => p.size),
    winStreak: runs(true).current,
    loseStreak: runs(false).current,
    maxWinStreak: runs(true).longest,
    maxLoseStreak: runs(false).longest,
    sharpeRatio: sharpe(closed.map((p) => p.roi)),
    realisedSharpeRatio: sharpe(closed.map((p) => p.realisedRoi)),
    sortinoRatio: sortino(closed.map((p) => p.roi)),
    realisedSortinoRatio: sortino(closed.map((p) => p.realisedRoi)),
  };
}

const close = (expected: Added) =>
  Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, v === null ? null : expect.closeTo(v, 9)]));

describe('the added statistics as positions close one at a time (live, incremental)', () => {
  it('follow each close on REST and GraphQL, in every window the closes fall in', async () => {
    // A long won, a short lost, a long lost: streaks turn, the ratios appear with the second close.
    const steps: [boolean, number, number][] = [
      [true, 2_200, 2.9],
      [false, 2_100, 2.5],
      [true, 1_900, 2],
    ];
    for (const [i, [isLong, price, daysAgo]] of steps.entries()) {
      await tradeAndClose(isLong, price, daysAgo);
      const closed = await closedPositions();
      expect(closed).toHaveLength(i + 1);
      const expected = close(byHand(closed));
      for (const window of ['FULL', 'D7']) {
        expect(await rest(window), `REST ${window} after close ${i + 1}`).toEqual(
          expect.objectContaining(expected),
        );
        expect(await graphql(window), `GraphQL ${window} after close ${i + 1}`).toEqual(expected);
      }
    }
    // The figures the docs' rules give for these three, so that the hand-worked copy is not vacuous.
    const last = await rest('FULL');
    expect(last).toMatchObject({ winStreak: 0, loseStreak: 2, maxWinStreak: 1, maxLoseStreak: 2 });
    expect(last.realisedLongPnl).toBeCloseTo(1_000 - 500, 6);
    expect(last.realisedShortPnl).toBeCloseTo(-500, 6);
    expect(last.totalLongVolume).toBe(20_000);
    expect(last.totalShortVolume).toBe(10_000);
    // realisedRoi 100, -50, -50 (% of 1,000 collateral): mean 0, so both ratios are 0.
    expect(last.realisedSharpeRatio).toBeCloseTo(0, 9);
    expect(last.realisedSortinoRatio).toBeCloseTo(0, 9);
  });
});
