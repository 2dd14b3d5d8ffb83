// The API wire contract (src/shared/api): the rules of docs/api.md, the tolerant shapes the client
// accepts, and messages that read as the second half of "<path> <message>".
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  COPY_TRADE_DEFAULTS,
  GraphqlPageError,
  activityLogsPageBodySchema,
  bareOrWrapped,
  copyPositionsPageBodySchema,
  copyPositionsPageQuerySchema,
  copyTradeCreateSchema,
  copyTradeListBodySchema,
  copyTradeRuleIssues,
  copyTradeUpdateSchema,
  copyWalletSchema,
  errorBodyText,
  graphqlErrorsSchema,
  graphqlRequestSchema,
  indexName,
  loginMessage,
  loginRequestSchema,
  mergeCopyTradeUpdate,
  pagedFilterBodySchema,
  paginationQuerySchema,
  paginationSchema,
  parseIndexName,
  pnlSeriesSchema,
  pnlStatisticsRequestSchema,
  positionFilterBodySchema,
  publicStatisticFilterBodySchema,
  searchAfterRequestSchema,
  serviceErrorBodySchema,
  statisticFilterBodySchema,
  tokensResponseSchema,
  tolerantErrorBodySchema,
  traderStatisticsByWindowSchema,
  unwrapGraphqlPage,
  venueAccountOf,
  verifyLoginRequestSchema,
  withdrawRequestSchema,
  withdrawalSchema,
  withdrawalVenueFees,
  zNumber,
  zObject,
} from '../../../../src/shared/api';
import type { CopyTrade, CopyTradeCreateInput } from '../../../../src/shared/api';

const ACCOUNT = `0x${'a'.repeat(40)}`;
const OTHER = `0x${'b'.repeat(40)}`;
const TIME = '2024-05-01T12:00:00.000Z';
// Any venue name works: the schemas build field names from it.
const VENUE = 'acmedex';

const validCreate: CopyTradeCreateInput = {
  title: 'Follow the whale',
  volume: 100,
  account: ACCOUNT,
  leverage: 10,
  protocol: 'GMX_ARB',
  exchange: 'ACMEDEX',
  copyWalletId: 'wallet-1',
  type: 'COPY_TRADER',
  excludingTokenAddresses: [],
  tokenAddresses: [],
};

/** `<path> <message>` of every issue, the way errors are rendered. */
function sentences(schema: z.ZodType, input: unknown): string[] {
  const parsed = schema.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`.trim());
}

describe('copy trade create body', () => {
  it('applies the defaults of the spec table', () => {
    const body = copyTradeCreateSchema.parse(validCreate);
    expect(body).toMatchObject({ ...COPY_TRADE_DEFAULTS, accounts: [] });
    expect(body).toMatchObject({ stopLossType: 'USD', takeProfitType: 'USD', side: 'BOTH', copyAll: true });
    expect(body.volumeProtection).toBe(true);
  });

  it('accepts ONLY_LONG / ONLY_SHORT and outputs LONG / SHORT', () => {
    expect(copyTradeCreateSchema.parse({ ...validCreate, side: 'ONLY_LONG' }).side).toBe('LONG');
    expect(copyTradeCreateSchema.parse({ ...validCreate, side: 'ONLY_SHORT' }).side).toBe('SHORT');
    expect(copyTradeCreateSchema.parse({ ...validCreate, side: 'SHORT' }).side).toBe('SHORT');
  });

  it('accepts the boundaries of every rule', () => {
    const edges: Partial<CopyTradeCreateInput>[] = [
      { leverage: 2 },
      { leverage: 50 },
      { enableStopLoss: true, stopLossType: 'PERCENT', stopLossAmount: 100 },
      { enableStopLoss: true, stopLossAmount: 100 },
      { skipLowLeverage: true, lowLeverage: 1 },
      { skipLowLeverage: true, lowLeverage: 150 },
      { skipLowCollateral: true, lowCollateral: 1 },
      { lookBackOrders: 1, maxVolMultiplier: 0.5 },
      { title: 'x'.repeat(40) },
      { multipleCopy: true, accounts: [OTHER] },
    ];
    for (const edge of edges)
      expect(sentences(copyTradeCreateSchema, { ...validCreate, ...edge })).toEqual([]);
  });

  const failures: [string, Partial<Record<keyof CopyTradeCreateInput, unknown>>, string][] = [
    ['volume 0', { volume: 0 }, 'volume must be greater than 0'],
    ['leverage 1', { leverage: 1 }, 'leverage must be between 2 and 50'],
    ['leverage 51', { leverage: 51 }, 'leverage must be between 2 and 50'],
    ['stop loss 0', { stopLossAmount: 0 }, 'stopLossAmount must be greater than 0'],
    [
      'stop loss % over 100',
      { stopLossType: 'PERCENT', stopLossAmount: 101 },
      'stopLossAmount must be at most 100 when stopLossType is PERCENT',
    ],
    [
      'stop loss USD over volume',
      { stopLossAmount: 101 },
      'stopLossAmount must be at most volume when stopLossType is USD',
    ],
    [
      'stop loss on, no amount',
      { enableStopLoss: true },
      'stopLossAmount is required when enableStopLoss is true',
    ],
    ['take profit 0', { takeProfitAmount: -1 }, 'takeProfitAmount must be greater than 0'],
    [
      'take profit on, no amount',
      { enableTakeProfit: true, takeProfitAmount: null },
      'takeProfitAmount is required when enableTakeProfit is true',
    ],
    ['lookBackOrders 0', { lookBackOrders: 0 }, 'lookBackOrders must be an integer of at least 1'],
    ['lookBackOrders 1.5', { lookBackOrders: 1.5 }, 'lookBackOrders must be an integer of at least 1'],
    ['maxVolMultiplier 0', { maxVolMultiplier: 0 }, 'maxVolMultiplier must be greater than 0'],
    [
      'lowLeverage missing',
      { skipLowLeverage: true },
      'lowLeverage is required when skipLowLeverage is true',
    ],
    ['lowLeverage 151', { skipLowLeverage: true, lowLeverage: 151 }, 'lowLeverage must be between 1 and 150'],
    [
      'lowCollateral 0.5',
      { skipLowCollateral: true, lowCollateral: 0.5 },
      'lowCollateral must be at least 1',
    ],
    ['lowSize 0', { skipLowSize: true, lowSize: 0 }, 'lowSize must be at least 1'],
    ['lowSize missing', { skipLowSize: true }, 'lowSize is required when skipLowSize is true'],
    ['copyAll off, no tokens', { copyAll: false }, 'tokenAddresses must not be empty when copyAll is false'],
    [
      'exclude on, nothing excluded',
      { hasExclude: true },
      'excludingTokenAddresses must not be empty when hasExclude is true',
    ],
    [
      'multiple copy, no accounts',
      { multipleCopy: true },
      'accounts must not be empty when multipleCopy is true',
    ],
    ['empty title', { title: '   ' }, 'title must be between 1 and 40 characters'],
    ['long title', { title: 'x'.repeat(41) }, 'title must be between 1 and 40 characters'],
    ['type', { type: 'MIRROR' }, 'type must be COPY_TRADER'],
    ['side', { side: 'SIDEWAYS' }, 'side must be one of BOTH, LONG, SHORT, ONLY_LONG, ONLY_SHORT'],
    ['stopLossType', { stopLossType: 'PIPS' }, 'stopLossType must be one of PERCENT, USD'],
    ['account', { account: 'nope' }, 'account must be a 0x address'],
    ['protocol', { protocol: 'gmx' }, 'protocol must be an UPPER_SNAKE_CASE protocol id'],
    ['volume type', { volume: '100' }, 'volume must be a number'],
    ['required', { account: undefined }, 'account is required'],
  ];
  it.each(failures)('rejects %s, naming the field', (_name, patch, sentence) => {
    const found = sentences(copyTradeCreateSchema, { ...validCreate, ...patch });
    expect(found.some((s) => s.startsWith(sentence))).toBe(true);
    expect(found.every((s) => s.split(' ')[0] === sentence.split(' ')[0])).toBe(true);
  });

  it('rejects unknown fields by name', () => {
    expect(sentences(copyTradeCreateSchema, { ...validCreate, leverag: 3 })).toEqual([
      'must not contain unknown field "leverag"',
    ]);
  });
});

describe('copy trade update', () => {
  const stored: CopyTrade = {
    ...copyTradeCreateSchema.parse(validCreate),
    id: 'ct-1',
    userId: 'u-1',
    stopLossAmount: null,
    takeProfitAmount: null,
    lookBackOrders: null,
    maxVolMultiplier: null,
    lowLeverage: null,
    lowCollateral: null,
    lowSize: null,
    status: 'RUNNING',
    createdAt: TIME,
  };

  it('is partial, adds status, applies no defaults and stays strict', () => {
    expect(copyTradeUpdateSchema.parse({})).toEqual({});
    expect(copyTradeUpdateSchema.parse({ status: 'STOPPED', side: 'ONLY_SHORT' })).toEqual({
      status: 'STOPPED',
      side: 'SHORT',
    });
    expect(sentences(copyTradeUpdateSchema, { status: 'PAUSED' })).toEqual([
      'status must be one of RUNNING, STOPPED',
    ]);
    expect(sentences(copyTradeUpdateSchema, { id: 'x' })).toEqual(['must not contain unknown field "id"']);
  });

  it('validates the merge with the same rules as create', () => {
    expect(mergeCopyTradeUpdate(stored, copyTradeUpdateSchema.parse({ leverage: 60 })).issues).toEqual([
      { path: 'leverage', message: 'must be between 2 and 50' },
    ]);
    expect(mergeCopyTradeUpdate(stored, { enableStopLoss: true }).issues).toEqual([
      { path: 'stopLossAmount', message: 'is required when enableStopLoss is true' },
    ]);
    // Lowering volume below a USD stop loss breaks a cross-field rule of the merged whole.
    const withStop = { ...stored, enableStopLoss: true, stopLossAmount: 50 };
    expect(mergeCopyTradeUpdate(withStop, { volume: 40 }).issues.map((i) => i.path)).toEqual([
      'stopLossAmount',
    ]);
    expect(copyTradeRuleIssues(stored)).toEqual([]);
  });

  it('keeps stored values for fields the update leaves undefined', () => {
    const { merged, issues } = mergeCopyTradeUpdate(stored, { title: undefined, status: 'STOPPED' });
    expect(merged.title).toBe(stored.title);
    expect(merged.status).toBe('STOPPED');
    expect(issues).toEqual([]);
  });

  it('list body is strict and all optional', () => {
    expect(copyTradeListBodySchema.parse({})).toEqual({});
    expect(sentences(copyTradeListBodySchema, { ids: 'ct-1' })).toEqual(['ids must be an array']);
    expect(sentences(copyTradeListBodySchema, { status: 'RUNNING', nope: 1 })).toEqual([
      'must not contain unknown field "nope"',
    ]);
  });
});

describe('pagination and filters', () => {
  it('defaults limit 20 and offset 0, also when pagination is omitted', () => {
    expect(paginationSchema.parse({})).toEqual({ limit: 20, offset: 0 });
    expect(pagedFilterBodySchema.parse({})).toEqual({
      pagination: { limit: 20, offset: 0 },
      sortType: 'desc',
      queries: [],
    });
  });

  it('names the limit rules', () => {
    expect(sentences(pagedFilterBodySchema, { pagination: { limit: 500 } })).toEqual([]);
    expect(sentences(pagedFilterBodySchema, { pagination: { limit: 501 } })).toEqual([
      'pagination.limit must be at most 500',
    ]);
    expect(sentences(pagedFilterBodySchema, { pagination: { limit: 0 } })).toEqual([
      'pagination.limit must be at least 1',
    ]);
    expect(sentences(pagedFilterBodySchema, { pagination: { limit: 2.5, offset: -1 } })).toEqual([
      'pagination.limit must be an integer',
      'pagination.offset must be at least 0',
    ]);
    expect(sentences(pagedFilterBodySchema, { sortType: 'up' })).toEqual([
      'sortType must be one of asc, desc',
    ]);
  });

  it('reads limit and offset from query text', () => {
    expect(paginationQuerySchema.parse({ limit: '50', offset: '10' })).toEqual({ limit: 50, offset: 10 });
    expect(sentences(paginationQuerySchema, { limit: 'ten' })).toEqual(['limit must be an integer']);
    expect(sentences(paginationQuerySchema, { limit: '900' })).toEqual(['limit must be at most 500']);
  });

  it('checks sortBy and query field names against the resource', () => {
    expect(positionFilterBodySchema.parse({ sortBy: 'realisedRoi' }).sortBy).toBe('realisedRoi');
    expect(sentences(positionFilterBodySchema, { sortBy: 'colour' })).toEqual([
      'sortBy must be a known field, not "colour"',
    ]);
    expect(sentences(statisticFilterBodySchema, { queries: [{ fieldName: 'typo', value: 'D7' }] })).toEqual([
      'queries.0.fieldName must be a known field, not "typo"',
    ]);
    expect(sentences(statisticFilterBodySchema, { queries: [{ fieldName: 'type', value: 'D7' }] })).toEqual(
      [],
    );
  });

  it('takes ranges on statistic fields and ranking.<key>, with at least one operator', () => {
    const ok = {
      sortBy: 'ranking.pnl',
      ranges: [
        { fieldName: 'ranking.winRate', gte: 80 },
        { fieldName: 'totalTrade', gt: 10, lte: 500 },
        { fieldName: 'account', in: [ACCOUNT] },
      ],
    };
    expect(sentences(publicStatisticFilterBodySchema, ok)).toEqual([]);
    expect(
      sentences(publicStatisticFilterBodySchema, { ranges: [{ fieldName: 'ranking.luck', gte: 1 }] }),
    ).toEqual(['ranges.0.fieldName must be a known field, not "ranking.luck"']);
    expect(sentences(publicStatisticFilterBodySchema, { ranges: [{ fieldName: 'pnl' }] })).toEqual([
      'ranges.0 must have at least one of gte, lte, gt, lt, in, nin',
    ]);
    // The protected filter has no ranges.
    expect(sentences(statisticFilterBodySchema, { ranges: [] })).toEqual([
      'must not contain unknown field "ranges"',
    ]);
  });

  it('activity logs filter sourceAccount, copyTradeId and copyWalletId with in', () => {
    const body = activityLogsPageBodySchema.parse({ ranges: [{ fieldName: 'copyTradeId', in: ['ct-1'] }] });
    expect(body.pagination).toEqual({ limit: 20, offset: 0 });
    expect(sentences(activityLogsPageBodySchema, { ranges: [{ fieldName: 'price', in: [1] }] })).toEqual([
      'ranges.0.fieldName must be a known field, not "price"',
    ]);
  });

  it('copy positions page query parses status lists and isLong text', () => {
    expect(copyPositionsPageQuerySchema.parse({ status: 'OPEN,CLOSE', isLong: 'false', limit: '5' })).toEqual(
      {
        limit: 5,
        offset: 0,
        status: ['OPEN', 'CLOSE'],
        isLong: false,
        sort_type: 'desc',
      },
    );
    expect(sentences(copyPositionsPageQuerySchema, { status: 'OPENED' })).toEqual([
      'status must be OPEN, CLOSE or OPEN,CLOSE',
    ]);
    expect(sentences(copyPositionsPageQuerySchema, { isLong: 'yes' })).toEqual([
      'isLong must be one of true, false',
    ]);
    expect(sentences(copyPositionsPageBodySchema, { traders: ['x'] })[0]).toMatch(/^traders\.0 must be a 0x/);
  });
});

describe('statistics', () => {
  it('search-after: size 1..1000 and sorts of exactly one known field', () => {
    expect(searchAfterRequestSchema.parse({ sort: [{ pnl: 'desc' }] })).toMatchObject({
      size: 20,
      queries: [],
    });
    expect(sentences(searchAfterRequestSchema, { size: 1001 })).toEqual(['size must be at most 1000']);
    expect(sentences(searchAfterRequestSchema, { sort: [{ pnl: 'desc', id: 'asc' }] })).toEqual([
      'sort.0 must have exactly one field, like {"pnl": "desc"}',
    ]);
    expect(sentences(searchAfterRequestSchema, { sort: [{ luck: 'desc' }] })).toEqual([
      'sort.0.luck must be a known field',
    ]);
  });

  it('pnl-statistics needs accounts and keeps series parallel', () => {
    expect(sentences(pnlStatisticsRequestSchema, { accounts: [] })).toEqual(['accounts must not be empty']);
    expect(
      pnlStatisticsRequestSchema.parse({ accounts: [{ account: ACCOUNT, protocol: 'GMX' }] }),
    ).toMatchObject({
      statisticType: 'FULL',
    });
    const series = { date: [TIME, TIME], realisedPnl: [1, 2], unrealisedPnl: [0, 0], fee: [0] };
    expect(sentences(pnlSeriesSchema, series)).toEqual(['fee must have as many entries as date']);
  });

  it('trader statistics carry only the windows that have positions', () => {
    expect(traderStatisticsByWindowSchema.parse({})).toEqual({});
    expect(sentences(traderStatisticsByWindowSchema, { D7: {} })[0]).toBe('D7.id is required');
  });
});

describe('GraphQL', () => {
  const request = (body: unknown) => ({
    query: 'query Search { x }',
    variables: { index: 'local.positions', body },
  });

  it('builds and parses index names', () => {
    expect(indexName('local', 'position_statistics')).toBe('local.position_statistics');
    expect(parseIndexName('local.orders')).toEqual({ namespace: 'local', kind: 'orders' });
    expect(parseIndexName('local.trades')).toBeNull();
    expect(sentences(graphqlRequestSchema, { query: 'q', variables: { index: 'trades' } })[0]).toMatch(
      /^variables\.index must be <namespace>\.<kind>/,
    );
  });

  it('accepts every condition shape, nested or, and sorts as object or array', () => {
    const filter = {
      and: [
        { field: 'status', match: 'OPEN' },
        { field: 'protocol', in: ['GMX', 'KWENTA'] },
        { field: 'pair', nin: ['BTC-USD'] },
        { field: 'openBlockTime', gte: '2024-01-01T00:00:00.000Z', lt: 1_700_000_000_000 },
        { field: 'closeBlockNumber', exists: false },
        { or: [{ field: 'isLong', match: true }, { or: [{ field: 'pnl', gt: '100' }] }] },
      ],
    };
    const single = graphqlRequestSchema.parse(
      request({ filter, sorts: { field: 'pnl', direction: 'desc' } }),
    );
    expect(single.variables.body.sorts).toEqual([{ field: 'pnl', direction: 'desc' }]);
    expect(single.variables.body.filter.and).toEqual(filter.and);
    expect(single.variables.body.paging).toEqual({ size: 20, from: 0 });
    const many = graphqlRequestSchema.parse(
      request({ sorts: [{ field: 'a', direction: 'asc' }], paging: { size: 1000 } }),
    );
    expect(many.variables.body.sorts).toHaveLength(1);
    expect(many.variables.body.paging.size).toBe(1000);
  });

  it('points errors at the wrong part of a condition', () => {
    const bad = (condition: unknown) =>
      sentences(graphqlRequestSchema, request({ filter: { and: [condition] } }));
    expect(bad({ field: 'x', in: 'GMX' })).toEqual(['variables.body.filter.and.0.in must be an array']);
    expect(bad({ or: [{ field: 'a', match: 1 }, { or: [{ field: 'b', match: {} }] }] })).toEqual([
      'variables.body.filter.and.0.or.1.or.0.match must be a string, a number or a boolean',
    ]);
    expect(bad({ field: 'x' })[0]).toMatch(/^variables\.body\.filter\.and\.0 must have one of match, in/);
    expect(bad({ field: 'x', match: 1, gte: 2 })).toEqual([
      'variables.body.filter.and.0 must not contain unknown field "gte"',
    ]);
    expect(bad({ or: [] })).toEqual(['variables.body.filter.and.0.or must not be empty']);
    let deep: unknown = { field: 'x', match: 1 };
    for (let i = 0; i < 50; i++) deep = { or: [deep] };
    expect(bad(deep)[0]).toMatch(/must not nest "or" more than 8 deep$/);
    expect(sentences(graphqlRequestSchema, request({ paging: { size: 1001 } }))).toEqual([
      'variables.body.paging.size must be at most 1000',
    ]);
    expect(sentences(graphqlRequestSchema, request({ sorts: { field: 'x', direction: 'up' } }))).toEqual([
      'variables.body.sorts.0.direction must be one of asc, desc',
    ]);
  });

  it('unwraps nested and flat pages', () => {
    const page = { data: [{ id: 'p1' }], meta: { total: 1, limit: 20, offset: 0, totalPages: 1 } };
    expect(unwrapGraphqlPage('livePosition', { data: { livePosition: page } })).toEqual(page);
    expect(unwrapGraphqlPage('livePosition', page)).toEqual(page);
    const item = zObject({ id: zNumber() });
    expect(() => unwrapGraphqlPage('livePosition', page, item)).toThrow(GraphqlPageError);
    expect(() =>
      unwrapGraphqlPage('searchOrders', { data: null, errors: [{ message: 'unknown index' }] }),
    ).toThrow('unknown index');
    expect(() => unwrapGraphqlPage('searchOrders', { nothing: true })).toThrow(/searchOrders answer has no/);
  });

  it('reads GraphQL errors with extensions.code', () => {
    const errors = graphqlErrorsSchema.parse([
      {
        message: 'unknown field colour',
        path: ['searchOrders'],
        extensions: { code: 'VALIDATION_FAILED', x: 1 },
      },
    ]);
    expect(errors[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });
});

describe('tolerant readers', () => {
  it('bareOrWrapped accepts a bare array or {data: [...]}', () => {
    const list = bareOrWrapped(zObject({ id: zNumber() }));
    expect(list.parse([{ id: 1 }])).toEqual([{ id: 1 }]);
    expect(list.parse({ data: [{ id: 2 }] })).toEqual([{ id: 2 }]);
    expect(list.safeParse({ data: [{ id: 'x' }] }).success).toBe(false);
    expect(list.safeParse({ items: [] }).success).toBe(false);
  });

  it('error bodies: strict for the service, message arrays for the client', () => {
    const strict = {
      statusCode: 400,
      error: 'Bad Request',
      message: 'x must be y',
      code: 'VALIDATION_FAILED',
    };
    expect(serviceErrorBodySchema.parse(strict)).toEqual(strict);
    expect(serviceErrorBodySchema.safeParse({ ...strict, code: 'TEAPOT' }).success).toBe(false);
    expect(serviceErrorBodySchema.safeParse({ ...strict, message: ['a', 'b'] }).success).toBe(false);
    const tolerant = tolerantErrorBodySchema.parse({ message: ['a must be b', 'c is required'], extra: 1 });
    expect(errorBodyText(tolerant)).toBe('a must be b; c is required');
    expect(tolerantErrorBodySchema.safeParse({ statusCode: 500 }).success).toBe(false);
  });

  it('tokens are grouped by protocol', () => {
    const body = { data: { GMX_ARB: [{ symbol: 'BTC', indexTokens: ['0x1'], isForex: false }] } };
    expect(tokensResponseSchema.parse(body)).toEqual(body);
  });
});

describe('venue-named fields', () => {
  it('copy wallets and withdrawals name fields after the venue', () => {
    const wallet = {
      id: 'w1',
      userId: 'u1',
      name: 'Main',
      exchange: VENUE.toUpperCase(),
      balance: 100,
      availableBalance: 80,
      createdAt: TIME,
      [VENUE]: { embeddedWallet: ACCOUNT, isEmbedded: true, verified: true },
    };
    const parsed = copyWalletSchema(VENUE).parse(wallet);
    expect(venueAccountOf(parsed, VENUE)?.embeddedWallet).toBe(ACCOUNT);
    expect(copyWalletSchema(VENUE).safeParse({ ...wallet, [VENUE]: { isEmbedded: 'yes' } }).success).toBe(
      false,
    );
    expect(() => copyWalletSchema('Bad Venue')).toThrow();
    expect(() => copyWalletSchema('name')).toThrow();

    const data = {
      destinationAddress: OTHER,
      chargeFeeTime: TIME,
      chargeFeeTxHash: '0xfee',
      withdrawTime: TIME,
      txHash: '0xabc',
      amount: 20,
      feeAmount: 1,
      [`${VENUE}WithdrawFeeAmount`]: 1,
      [`${VENUE}TransferFeeAmount`]: 0.5,
      withdrawAmount: 18.5,
      receiveAmount: 17.5,
    };
    const record = {
      userId: 'u1',
      embeddedWallet: ACCOUNT,
      data,
      type: 'WITHDRAW',
      status: 'SUCCESSFUL',
      createdAt: TIME,
    };
    const withdrawal = withdrawalSchema(VENUE).parse(record);
    expect(withdrawalVenueFees(withdrawal, VENUE)).toEqual({ withdrawFee: 1, transferFee: 0.5 });
    const { [`${VENUE}TransferFeeAmount`]: _dropped, ...withoutFee } = data;
    expect(withdrawalSchema(VENUE).safeParse({ ...record, data: withoutFee }).success).toBe(false);
  });

  it('withdraw requests need a 0x destination and a positive amount', () => {
    expect(
      sentences(withdrawRequestSchema, { sourceAddress: ACCOUNT, destinationAddress: 'bc1qxyz', amount: 0 }),
    ).toEqual(['destinationAddress must be a 0x address of 40 hex digits', 'amount must be greater than 0']);
  });
});

describe('auth', () => {
  it('loginMessage is the exact signed text', () => {
    expect(loginMessage('Copydesk Local', TIME, '482913')).toBe(
      'I want to login on Copydesk Local at 2024-05-01T12:00:00.000Z. Login code: 482913',
    );
  });

  it('verify-login needs a hex signature and a UTC time with milliseconds', () => {
    const body = { address: ACCOUNT, sign: `0x${'1b'.repeat(65)}`, time: TIME };
    expect(verifyLoginRequestSchema.parse(body)).toEqual(body);
    expect(
      sentences(verifyLoginRequestSchema, { ...body, time: '2024-05-01T12:00:00Z', sign: 'abc' }),
    ).toEqual([
      'sign must be a 0x-prefixed hex signature',
      'time must be an ISO 8601 UTC timestamp with milliseconds (2024-01-31T12:00:00.000Z)',
    ]);
    expect(sentences(loginRequestSchema, {})).toEqual(['address is required']);
  });
});

describe('properties', () => {
  const requestSchemas: [string, z.ZodType][] = [
    ['copyTradeCreate', copyTradeCreateSchema],
    ['copyTradeUpdate', copyTradeUpdateSchema],
    ['copyTradeList', copyTradeListBodySchema],
    ['pagedFilter', pagedFilterBodySchema],
    ['positionFilter', positionFilterBodySchema],
    ['publicStatisticFilter', publicStatisticFilterBodySchema],
    ['searchAfter', searchAfterRequestSchema],
    ['pnlStatistics', pnlStatisticsRequestSchema],
    ['graphql', graphqlRequestSchema],
    ['activityLogs', activityLogsPageBodySchema],
    ['copyPositionsQuery', copyPositionsPageQuerySchema],
    ['withdraw', withdrawRequestSchema],
    ['verifyLogin', verifyLoginRequestSchema],
  ];
  // Our messages all complete "<path> ...": zod's own wording ("Invalid input", "Too big") never leaks.
  const ours = /^(is|must|has) /;

  it('never throws on arbitrary input, and every message is a rule sentence', () => {
    fc.assert(
      fc.property(fc.anything({ maxDepth: 4 }), (input) => {
        for (const [, schema] of requestSchemas) {
          const parsed = schema.safeParse(input);
          if (!parsed.success) for (const issue of parsed.error.issues) expect(issue.message).toMatch(ours);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('any field of a create body set to anything gives rule sentences, never a throw', () => {
    const keys = Object.keys(copyTradeCreateSchema.shape);
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...keys, 'extra'), fc.anything({ maxDepth: 2 })), (patch) => {
        const parsed = copyTradeCreateSchema.safeParse({ ...validCreate, ...patch });
        if (!parsed.success) for (const issue of parsed.error.issues) expect(issue.message).toMatch(ours);
      }),
      { numRuns: 300 },
    );
  });

  const address = fc.stringMatching(/^0x[0-9a-f]{40}$/);
  const validBody = fc
    .record({
      title: fc.string({ minLength: 1, maxLength: 40 }).filter((t) => t.trim().length > 0),
      volume: fc.double({ min: 1, max: 1e6, noNaN: true }),
      leverage: fc.double({ min: 2, max: 50, noNaN: true }),
      stopLoss: fc.option(
        fc.record({
          type: fc.constantFrom('PERCENT' as const, 'USD' as const),
          frac: fc.double({ min: 0.01, max: 1, noNaN: true }),
        }),
      ),
      takeProfitAmount: fc.option(fc.double({ min: 0.01, max: 1e6, noNaN: true })),
      lookBackOrders: fc.option(fc.integer({ min: 1, max: 100 })),
      lowLeverage: fc.option(fc.double({ min: 1, max: 150, noNaN: true })),
      tokens: fc.array(fc.string({ minLength: 1, maxLength: 10 }), { maxLength: 3 }),
      excluded: fc.array(fc.string({ minLength: 1, maxLength: 10 }), { maxLength: 3 }),
      accounts: fc.array(address, { maxLength: 3 }),
      side: fc.constantFrom('BOTH', 'LONG', 'SHORT', 'ONLY_LONG', 'ONLY_SHORT'),
      reverseCopy: fc.boolean(),
    })
    .map((g): CopyTradeCreateInput => ({
      ...validCreate,
      title: g.title,
      volume: g.volume,
      leverage: g.leverage,
      side: g.side as CopyTradeCreateInput['side'],
      reverseCopy: g.reverseCopy,
      ...(g.stopLoss && {
        enableStopLoss: true,
        stopLossType: g.stopLoss.type,
        stopLossAmount: g.stopLoss.frac * (g.stopLoss.type === 'PERCENT' ? 100 : g.volume),
      }),
      ...(g.takeProfitAmount !== null && { enableTakeProfit: true, takeProfitAmount: g.takeProfitAmount }),
      ...(g.lookBackOrders !== null && { lookBackOrders: g.lookBackOrders }),
      ...(g.lowLeverage !== null && { skipLowLeverage: true, lowLeverage: g.lowLeverage }),
      copyAll: g.tokens.length === 0,
      tokenAddresses: g.tokens,
      hasExclude: g.excluded.length > 0,
      excludingTokenAddresses: g.excluded,
      multipleCopy: g.accounts.length > 0,
      accounts: g.accounts,
    }));

  it('any valid create body parses, and its output parses to itself', () => {
    fc.assert(
      fc.property(validBody, (body) => {
        const once = copyTradeCreateSchema.parse(body);
        expect(copyTradeCreateSchema.parse(once)).toEqual(once);
        expect(['BOTH', 'LONG', 'SHORT']).toContain(once.side);
        expect(copyTradeRuleIssues(once)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});
