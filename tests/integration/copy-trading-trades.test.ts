import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CopyTrade, CopyTradeListItem } from '../../src/shared/api/copy-trades';
import { DEFAULT_VENUE, exchangeOf } from '../../src/shared/profile';
import { addClosedPosition, addPosition, BTC, ETH, setMark } from '../support/copy-rows';
import {
  call,
  expectError,
  FIXED_NOW,
  loginCopyUser,
  startCopyService,
  tradeBody,
  type CopyUser,
} from '../support/copy-session';
import type { RunningService } from '../support/service';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const TRADER = '0x1111111111111111111111111111111111111111';
const OTHER = '0x2222222222222222222222222222222222222222';

let svc: RunningService;
let alice: CopyUser;
let bob: CopyUser;
beforeAll(async () => {
  svc = await startCopyService();
  alice = await loginCopyUser(svc);
  bob = await loginCopyUser(svc);
  // The shared users create many trades; the quota tests use fresh users with small quotas.
  for (const user of [alice, bob]) setQuota(user, 1000);
});
afterAll(() => svc.close());

const create = (user: CopyUser, patch: Record<string, unknown> = {}) =>
  call<CopyTrade>(svc, 'POST', '/copy-trades', { token: user.token, body: tradeBody(svc, user, patch) });
const update = (user: CopyUser, id: string, body: unknown) =>
  call<CopyTrade>(svc, 'PUT', `/copy-trades/${id}`, { token: user.token, body });
const list = (user: CopyUser, body?: unknown) =>
  call<CopyTradeListItem[]>(svc, 'POST', '/copy-trades/list', { token: user.token, body });
const tradeCount = (userId: string) =>
  (
    svc.service.db.prepare('SELECT COUNT(*) AS n FROM copy_trades WHERE user_id = ?').get(userId) as {
      n: number;
    }
  ).n;
const setQuota = (user: CopyUser, quota: number) =>
  svc.service.db.prepare('UPDATE users SET copy_trade_quota = ? WHERE id = ?').run(quota, user.id);

/** A new user, so that quota tests start from zero copy trades. */
async function freshUser(quota: number): Promise<CopyUser> {
  const user = await loginCopyUser(svc);
  setQuota(user, quota);
  return user;
}

describe('POST /copy-trades', () => {
  it('creates a RUNNING copy trade and answers the full object with 201', async () => {
    const res = await create(alice, {
      title: '  Whale tracker  ',
      accounts: [OTHER, OTHER, '0x3333333333333333333333333333333333333333'],
      multipleCopy: true,
      side: 'SHORT',
      reverseCopy: true,
      enableStopLoss: true,
      stopLossType: 'PERCENT',
      stopLossAmount: 25,
      enableTakeProfit: true,
      takeProfitAmount: 60,
      volumeProtection: false,
      lookBackOrders: 7,
      maxVolMultiplier: 2.5,
      skipLowLeverage: true,
      lowLeverage: 3,
      skipLowCollateral: true,
      lowCollateral: 50,
      skipLowSize: true,
      lowSize: 500,
      copyAll: false,
      tokenAddresses: [BTC],
      hasExclude: true,
      excludingTokenAddresses: [ETH],
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      userId: alice.id,
      title: 'Whale tracker',
      account: TRADER,
      accounts: [OTHER, '0x3333333333333333333333333333333333333333'],
      copyWalletId: alice.walletId,
      protocol: 'NOVA_ARB',
      exchange: exchangeOf(DEFAULT_VENUE),
      type: 'COPY_TRADER',
      side: 'SHORT',
      volume: 100,
      leverage: 10,
      tokenAddresses: [BTC],
      excludingTokenAddresses: [ETH],
      copyAll: false,
      hasExclude: true,
      multipleCopy: true,
      reverseCopy: true,
      enableStopLoss: true,
      stopLossType: 'PERCENT',
      stopLossAmount: 25,
      enableTakeProfit: true,
      takeProfitType: 'USD',
      takeProfitAmount: 60,
      volumeProtection: false,
      lookBackOrders: 7,
      maxVolMultiplier: 2.5,
      skipLowLeverage: true,
      lowLeverage: 3,
      skipLowCollateral: true,
      lowCollateral: 50,
      skipLowSize: true,
      lowSize: 500,
      status: 'RUNNING',
      createdAt: new Date(FIXED_NOW).toISOString(),
    });
    // The extra accounts are indexed for the engine too.
    const accounts = svc.service.db
      .prepare('SELECT account FROM copy_trade_accounts WHERE copy_trade_id = ? ORDER BY account')
      .all(res.body.id);
    expect(accounts).toEqual([{ account: OTHER }, { account: '0x3333333333333333333333333333333333333333' }]);
    const [listed] = (await list(alice, { ids: [res.body.id] })).body;
    expect(listed).toEqual({ ...res.body, pnl: 0, pnl7D: 0, pnl30D: 0 });
  });

  it('applies every default of the spec table', async () => {
    const res = await create(alice);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      accounts: [],
      reverseCopy: false,
      enableStopLoss: false,
      stopLossType: 'USD',
      stopLossAmount: null,
      volumeProtection: true,
      lookBackOrders: null,
      enableTakeProfit: false,
      takeProfitType: 'USD',
      takeProfitAmount: null,
      maxVolMultiplier: null,
      skipLowLeverage: false,
      lowLeverage: null,
      skipLowCollateral: false,
      lowCollateral: null,
      skipLowSize: false,
      lowSize: null,
      copyAll: true,
      hasExclude: false,
      multipleCopy: false,
      side: 'BOTH',
      status: 'RUNNING',
    });
  });

  it.each([
    ['ONLY_LONG', 'LONG'],
    ['ONLY_SHORT', 'SHORT'],
  ])('stores the alias %s as %s', async (alias, side) => {
    const res = await create(alice, { side: alias });
    expect(res.body.side).toBe(side);
    const row = svc.service.db.prepare('SELECT config FROM copy_trades WHERE id = ?').get(res.body.id) as {
      config: string;
    };
    expect((JSON.parse(row.config) as { side: string }).side).toBe(side);
    expect((await list(alice, { ids: [res.body.id] })).body[0]?.side).toBe(side);
  });

  const invalid: [string, Record<string, unknown>, RegExp][] = [
    ['volume 0', { volume: 0 }, /^volume must be greater than 0/],
    ['volume as text', { volume: '100' }, /^volume must be a number/],
    ['leverage 1', { leverage: 1 }, /^leverage must be between 2 and 50/],
    ['leverage 51', { leverage: 51 }, /^leverage must be between 2 and 50/],
    ['stopLossAmount 0', { stopLossAmount: 0 }, /^stopLossAmount must be greater than 0/],
    [
      'PERCENT stop loss over 100',
      { enableStopLoss: true, stopLossType: 'PERCENT', stopLossAmount: 101 },
      /^stopLossAmount must be at most 100 when stopLossType is PERCENT/,
    ],
    [
      'USD stop loss over volume',
      { enableStopLoss: true, stopLossAmount: 100.5 },
      /^stopLossAmount must be at most volume when stopLossType is USD/,
    ],
    ['stop loss without amount', { enableStopLoss: true }, /^stopLossAmount is required when enableStopLoss/],
    ['takeProfitAmount -1', { takeProfitAmount: -1 }, /^takeProfitAmount must be greater than 0/],
    [
      'take profit without amount',
      { enableTakeProfit: true },
      /^takeProfitAmount is required when enableTakeProfit/,
    ],
    ['lookBackOrders 0', { lookBackOrders: 0 }, /^lookBackOrders must be an integer of at least 1/],
    ['lookBackOrders 2.5', { lookBackOrders: 2.5 }, /^lookBackOrders must be an integer of at least 1/],
    ['maxVolMultiplier 0', { maxVolMultiplier: 0 }, /^maxVolMultiplier must be greater than 0/],
    ['lowLeverage missing', { skipLowLeverage: true }, /^lowLeverage is required when skipLowLeverage/],
    [
      'lowLeverage 0.5',
      { skipLowLeverage: true, lowLeverage: 0.5 },
      /^lowLeverage must be between 1 and 150/,
    ],
    [
      'lowLeverage 151',
      { skipLowLeverage: true, lowLeverage: 151 },
      /^lowLeverage must be between 1 and 150/,
    ],
    ['lowCollateral missing', { skipLowCollateral: true }, /^lowCollateral is required/],
    [
      'lowCollateral 0.5',
      { skipLowCollateral: true, lowCollateral: 0.5 },
      /^lowCollateral must be at least 1/,
    ],
    ['lowSize missing', { skipLowSize: true }, /^lowSize is required/],
    ['lowSize 0', { skipLowSize: true, lowSize: 0 }, /^lowSize must be at least 1/],
    [
      'copyAll false, no tokens',
      { copyAll: false },
      /^tokenAddresses must not be empty when copyAll is false/,
    ],
    [
      'hasExclude, nothing excluded',
      { hasExclude: true },
      /^excludingTokenAddresses must not be empty when hasExclude is true/,
    ],
    ['multipleCopy, no accounts', { multipleCopy: true }, /^accounts must not be empty when multipleCopy/],
    ['accounts not addresses', { accounts: ['nope'] }, /^accounts\[0\] must be a 0x address/],
    ['blank title', { title: '   ' }, /^title must be between 1 and 40 characters/],
    ['title of 41', { title: 'x'.repeat(41) }, /^title must be between 1 and 40 characters/],
    ['type', { type: 'MIRROR' }, /^type must be COPY_TRADER/],
    ['side', { side: 'SIDEWAYS' }, /^side must be one of BOTH, LONG, SHORT, ONLY_LONG, ONLY_SHORT/],
    ['stopLossType', { stopLossType: 'PIPS' }, /^stopLossType must be one of PERCENT, USD/],
    ['account', { account: 'not-an-address' }, /^account must be a 0x address/],
    ['protocol format', { protocol: 'nova' }, /^protocol must be an UPPER_SNAKE_CASE protocol id/],
    ['protocol unknown', { protocol: 'NOPE_ARB' }, /^protocol must be a known protocol \(HELIX_OP, /],
    ['exchange', { exchange: 'OTHERX' }, new RegExp(`^exchange must be ${exchangeOf(DEFAULT_VENUE)}$`)],
    [
      'copyWalletId unknown',
      { copyWalletId: 'no-such-wallet' },
      /^copyWalletId must be one of your copy wallets/,
    ],
    ['status is not a create field', { status: 'STOPPED' }, /unknown field "status"/],
    ...(
      [
        'title',
        'volume',
        'account',
        'leverage',
        'protocol',
        'exchange',
        'copyWalletId',
        'type',
        'excludingTokenAddresses',
        'tokenAddresses',
      ] as const
    ).map((field): [string, Record<string, unknown>, RegExp] => [
      `${field} missing`,
      { [field]: undefined },
      new RegExp(`^${field} is required`),
    ]),
  ];
  it.each(invalid)(
    'refuses %s with 400 naming the field, storing nothing',
    async (_name, patch, mentions) => {
      const before = tradeCount(alice.id);
      expectError(await create(alice, patch), 400, 'VALIDATION_FAILED', mentions);
      expect(tradeCount(alice.id)).toBe(before);
    },
  );

  it("refuses another user's copy wallet with 400 naming copyWalletId", async () => {
    const res = await create(alice, { copyWalletId: bob.walletId });
    expectError(res, 400, 'VALIDATION_FAILED', /^copyWalletId must be one of your copy wallets/);
  });

  it('refuses a body that is not an object', async () => {
    const res = await call(svc, 'POST', '/copy-trades', { token: alice.token, body: [1] });
    expectError(res, 400, 'VALIDATION_FAILED', /^body must be an object/);
  });
});

describe('quota', () => {
  it('refuses a create over copyTradeQuota with 409 QUOTA_EXCEEDED', async () => {
    const user = await freshUser(2);
    expect((await create(user)).status).toBe(201);
    expect((await create(user)).status).toBe(201);
    expectError(await create(user), 409, 'QUOTA_EXCEEDED', /copyTradeQuota.*at most 2/);
    expect(tradeCount(user.id)).toBe(2);
  });

  it('holds under concurrent creates', async () => {
    const user = await freshUser(3);
    const answers = await Promise.all(Array.from({ length: 8 }, () => create(user)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(5);
    expect(tradeCount(user.id)).toBe(3);
  });

  it('checks STOPPED→RUNNING, and only that move', async () => {
    const user = await freshUser(2);
    const a = (await create(user)).body;
    const b = (await create(user)).body;
    expect((await update(user, a.id, { status: 'STOPPED' })).body.status).toBe('STOPPED');
    const c = (await create(user)).body;
    // Two RUNNING (b, c): restarting a would make three.
    expectError(await update(user, a.id, { status: 'RUNNING' }), 409, 'QUOTA_EXCEEDED', /copyTradeQuota/);
    expect((await list(user, { ids: [a.id] })).body[0]?.status).toBe('STOPPED');
    // Edits that do not restart are fine at the quota, also RUNNING→RUNNING.
    expect((await update(user, a.id, { title: 'still stopped' })).status).toBe(200);
    expect((await update(user, b.id, { status: 'RUNNING', volume: 90 })).status).toBe(200);
    expect((await update(user, c.id, { status: 'STOPPED' })).status).toBe(200);
    expect((await update(user, a.id, { status: 'RUNNING' })).body.status).toBe('RUNNING');
  });
});

describe('PUT /copy-trades/{id}', () => {
  it('updates part of the trade and answers the full object', async () => {
    const created = (await create(alice, { accounts: [OTHER] })).body;
    svc.clock.advance(60_000);
    const res = await update(alice, created.id, {
      title: 'Renamed',
      leverage: 20,
      side: 'ONLY_SHORT',
      accounts: [],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...created, title: 'Renamed', leverage: 20, side: 'SHORT', accounts: [] });
    const accounts = svc.service.db
      .prepare('SELECT account FROM copy_trade_accounts WHERE copy_trade_id = ?')
      .all(created.id);
    expect(accounts).toEqual([]);
    expect((await list(alice, { ids: [created.id] })).body[0]).toMatchObject({
      title: 'Renamed',
      leverage: 20,
    });
  });

  it('clears an optional amount with null', async () => {
    const created = (await create(alice, { maxVolMultiplier: 3 })).body;
    expect((await update(alice, created.id, { maxVolMultiplier: null })).body.maxVolMultiplier).toBeNull();
  });

  const stored = { enableStopLoss: true, stopLossAmount: 50 };
  const invalidMerges: [string, Record<string, unknown>, RegExp][] = [
    [
      'volume below the USD stop loss',
      { volume: 40 },
      /^stopLossAmount must be at most volume when stopLossType is USD/,
    ],
    ['stop loss amount cleared', { stopLossAmount: null }, /^stopLossAmount is required when enableStopLoss/],
    [
      'stop loss switched to PERCENT over 100',
      { stopLossType: 'PERCENT', stopLossAmount: 120 },
      /^stopLossAmount must be at most 100/,
    ],
    ['take profit on without amount', { enableTakeProfit: true }, /^takeProfitAmount is required/],
    ['takeProfitAmount 0', { takeProfitAmount: 0 }, /^takeProfitAmount must be greater than 0/],
    ['volume 0', { volume: 0 }, /^volume must be greater than 0/],
    ['leverage 60', { leverage: 60 }, /^leverage must be between 2 and 50/],
    ['lookBackOrders 0', { lookBackOrders: 0 }, /^lookBackOrders must be an integer of at least 1/],
    ['maxVolMultiplier -1', { maxVolMultiplier: -1 }, /^maxVolMultiplier must be greater than 0/],
    ['skipLowLeverage without lowLeverage', { skipLowLeverage: true }, /^lowLeverage is required/],
    [
      'lowLeverage 200',
      { skipLowLeverage: true, lowLeverage: 200 },
      /^lowLeverage must be between 1 and 150/,
    ],
    ['skipLowCollateral without lowCollateral', { skipLowCollateral: true }, /^lowCollateral is required/],
    ['skipLowSize with lowSize 0', { skipLowSize: true, lowSize: 0 }, /^lowSize must be at least 1/],
    [
      'copyAll off, tokens empty',
      { copyAll: false },
      /^tokenAddresses must not be empty when copyAll is false/,
    ],
    ['hasExclude on, none excluded', { hasExclude: true }, /^excludingTokenAddresses must not be empty/],
    ['multipleCopy on, no accounts', { multipleCopy: true }, /^accounts must not be empty when multipleCopy/],
    ['title blank', { title: '' }, /^title must be between 1 and 40 characters/],
    ['type', { type: 'MIRROR' }, /^type must be COPY_TRADER/],
    ['status', { status: 'PAUSED' }, /^status must be one of RUNNING, STOPPED/],
    ['side', { side: 'UP' }, /^side must be one of/],
    ['protocol unknown', { protocol: 'NOPE_ARB' }, /^protocol must be a known protocol/],
    ['exchange', { exchange: 'OTHERX' }, /^exchange must be /],
    [
      'wallet of another user',
      { copyWalletId: 'placeholder' },
      /^copyWalletId must be one of your copy wallets/,
    ],
    ['id is not an update field', { id: 'x' }, /unknown field "id"/],
  ];
  it.each(invalidMerges)(
    'refuses a merge with %s (400 naming the field), keeping the stored trade',
    async (_n, body, mentions) => {
      const created = (await create(alice, stored)).body;
      const patch = body.copyWalletId === 'placeholder' ? { copyWalletId: bob.walletId } : body;
      expectError(await update(alice, created.id, patch), 400, 'VALIDATION_FAILED', mentions);
      expect((await list(alice, { ids: [created.id] })).body[0]).toMatchObject({
        ...stored,
        volume: 100,
        status: 'RUNNING',
      });
    },
  );

  it('stops and restarts without touching open copy positions', async () => {
    const trade = (await create(alice)).body;
    const position = addPosition(svc.service.db, {
      userId: alice.id,
      copyTradeId: trade.id,
      copyWalletId: alice.walletId,
    });
    expect((await update(alice, trade.id, { status: 'STOPPED' })).body.status).toBe('STOPPED');
    const row = svc.service.db
      .prepare('SELECT status, closed_at_ms FROM copy_positions WHERE id = ?')
      .get(position.id);
    expect(row).toEqual({ status: 'OPEN', closed_at_ms: null });
    expect((await update(alice, trade.id, { status: 'RUNNING' })).body.status).toBe('RUNNING');
  });

  it("answers 404 for an unknown id and for another user's trade, which stays as it was", async () => {
    expectError(await update(alice, 'no-such-trade', { title: 'x' }), 404, 'NOT_FOUND', /no-such-trade/);
    const bobs = (await create(bob)).body;
    expectError(await update(alice, bobs.id, { title: 'mine now' }), 404, 'NOT_FOUND');
    expect((await list(bob, { ids: [bobs.id] })).body[0]?.title).toBe(bobs.title);
  });
});

describe('POST /copy-trades/list', () => {
  it('answers a bare array of the caller’s trades, newest first, filtered', async () => {
    const user = await freshUser(5);
    const first = (await create(user, { protocol: 'HELIX_OP' })).body;
    svc.clock.advance(1000);
    const second = (await create(user, { account: OTHER.toUpperCase().replace('0X', '0x') })).body;
    svc.clock.advance(1000);
    const third = (await create(user, { multipleCopy: true, accounts: [OTHER], account: TRADER })).body;
    await update(user, first.id, { status: 'STOPPED' });
    const ids = async (body?: unknown) => (await list(user, body)).body.map((t) => t.id);

    expect(await ids()).toEqual([third.id, second.id, first.id]);
    expect(await ids({})).toEqual([third.id, second.id, first.id]);
    expect(await ids({ ids: [first.id, third.id, 'unknown'] })).toEqual([third.id, first.id]);
    expect(await ids({ ids: [] })).toEqual([]);
    expect(await ids({ status: 'STOPPED' })).toEqual([first.id]);
    expect(await ids({ protocols: ['HELIX_OP', 'ZENITH_ARB'] })).toEqual([first.id]);
    expect(await ids({ copyWalletId: user.walletId })).toHaveLength(3);
    expect(await ids({ copyWalletId: bob.walletId })).toEqual([]);
    // Main or extra account, any letter case.
    expect(await ids({ accounts: [OTHER] })).toEqual([third.id, second.id]);
    expect(await ids({ accounts: [OTHER], status: 'RUNNING', protocols: ['NOVA_ARB'] })).toEqual([
      third.id,
      second.id,
    ]);
    // Another user's ids are simply not there.
    const bobs = (await create(bob)).body;
    expect(await ids({ ids: [bobs.id] })).toEqual([]);
  });

  it('refuses a malformed filter with 400 naming it', async () => {
    expectError(await list(alice, { ids: 'x' }), 400, 'VALIDATION_FAILED', /^ids must be an array/);
    expectError(await list(alice, { state: 'RUNNING' }), 400, 'VALIDATION_FAILED', /unknown field "state"/);
    expectError(await list(alice, { status: 'PAUSED' }), 400, 'VALIDATION_FAILED', /^status must be one of/);
  });

  it('computes pnl, pnl7D and pnl30D from copy positions at the service clock', async () => {
    const user = await freshUser(5);
    const trade = (await create(user)).body;
    const other = (await create(user)).body;
    const owner = { userId: user.id, copyTradeId: trade.id, copyWalletId: user.walletId };
    const db = svc.service.db;
    const now = svc.clock.ms;
    addClosedPosition(db, owner, 10, now - HOUR);
    addClosedPosition(db, owner, -4, now - 7 * DAY); // the 7-day window includes its start
    addClosedPosition(db, owner, 2.5, now - 7 * DAY - 1);
    addClosedPosition(db, owner, 7, now - 30 * DAY);
    addClosedPosition(db, owner, 100, now - 30 * DAY - 1);
    const sol = '0x000000000000000000000000000000000000dEaD';
    // Open: long 0.02 BTC from 50 000, short 0.5 ETH from 3000, and one without a mark. Their own
    // pnl column (fees so far) does not count until they close.
    addPosition(db, owner, { pnl: -0.5, indexToken: BTC, entryPrice: 50_000, sizeTokens: 0.02 });
    addPosition(db, owner, { pnl: -0.25, indexToken: ETH, isLong: false, entryPrice: 3000, sizeTokens: 0.5 });
    addPosition(db, owner, { indexToken: sol, entryPrice: 10, sizeTokens: 3 });
    addClosedPosition(db, { ...owner, copyTradeId: other.id }, 1000, now - HOUR);
    setMark(db, BTC, 51_000);
    setMark(db, ETH, 2900);

    const pnlOf = async (id: string) => {
      const item = (await list(user, { ids: [id] })).body[0];
      return { pnl: item?.pnl, pnl7D: item?.pnl7D, pnl30D: item?.pnl30D };
    };
    // 10 − 4 + 2.5 + 7 + 100 realised, + 20 (long) + 50 (short) + 0 (no mark) unrealised.
    expect(await pnlOf(trade.id)).toEqual({ pnl: 185.5, pnl7D: 6, pnl30D: 15.5 });
    expect(await pnlOf(other.id)).toEqual({ pnl: 1000, pnl7D: 1000, pnl30D: 1000 });

    svc.clock.advance(HOUR);
    setMark(db, BTC, 49_000);
    expect(await pnlOf(trade.id)).toEqual({ pnl: 145.5, pnl7D: 10, pnl30D: 8.5 });
    svc.clock.ms = FIXED_NOW;
  });
});
