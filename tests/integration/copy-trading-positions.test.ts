import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityLog } from '../../src/shared/api/activity-logs';
import type { Paged } from '../../src/shared/api/common';
import type { CopyOrder, CopyPosition } from '../../src/shared/api/copy-positions';
import type { CopyTrade } from '../../src/shared/api/copy-trades';
import { DEFAULT_VENUE, exchangeOf } from '../../src/shared/profile';
import { addClosedPosition, addLog, addOrder, addPosition, BTC, ETH } from '../support/copy-rows';
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

const HOUR = 3_600_000;
const TRADER_A = '0xAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAa';
const TRADER_B = '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB';
const iso = (ms: number) => new Date(ms).toISOString();

let svc: RunningService;
let alice: CopyUser;
let bob: CopyUser;
let alpha: CopyTrade;
let beta: CopyTrade;
let secondWallet: string;
/** Alice's positions p1..p4, created one hour apart (p4 newest). */
let p: string[];
let bobPosition: string;

const page = (user: CopyUser, query = '', body?: unknown) =>
  call<Paged<CopyPosition>>(svc, 'POST', `/copy-positions/page${query}`, { token: user.token, body });
const ids = async (query = '', body?: unknown) => (await page(alice, query, body)).body.data.map((x) => x.id);

beforeAll(async () => {
  svc = await startCopyService();
  alice = await loginCopyUser(svc);
  bob = await loginCopyUser(svc);
  const create = async (user: CopyUser, title: string) =>
    (
      await call<CopyTrade>(svc, 'POST', '/copy-trades', {
        token: user.token,
        body: tradeBody(svc, user, { title }),
      })
    ).body;
  alpha = await create(alice, 'Alpha');
  beta = await create(alice, 'Beta');
  secondWallet = 'alice-second-wallet';
  svc.service.db
    .prepare(
      `INSERT INTO copy_wallets (id, user_id, name, exchange, is_embedded, verified, balance, created_at)
       VALUES (?, ?, 'Second', ?, 0, 1, 0, ?)`,
    )
    .run(secondWallet, alice.id, exchangeOf(DEFAULT_VENUE), iso(FIXED_NOW));
  const db = svc.service.db;
  const a = { userId: alice.id, copyTradeId: alpha.id, copyWalletId: alice.walletId };
  const b = { ...a, copyTradeId: beta.id };
  const t = (h: number) => FIXED_NOW - h * HOUR;
  p = [
    addPosition(db, a, { createdAtMs: t(5), lastOrderAtMs: t(5), pnl: -1, copyAccount: TRADER_A }).id,
    addClosedPosition(db, a, 10, t(1), { createdAtMs: t(4), isLong: false, copyAccount: TRADER_B }).id,
    addPosition(
      db,
      { ...b, copyWalletId: secondWallet },
      { createdAtMs: t(3), isLong: false, pnl: 3, copyAccount: TRADER_A },
    ).id,
    addClosedPosition(db, b, -7, t(0.5), { createdAtMs: t(2), copyAccount: TRADER_B.toLowerCase() }).id,
  ];
  const bobsTrade = await create(bob, 'Bob');
  bobPosition = addPosition(db, { userId: bob.id, copyTradeId: bobsTrade.id, copyWalletId: bob.walletId }).id;
});
afterAll(() => svc.close());

describe('POST /copy-positions/page', () => {
  it("pages the caller's positions newest first, with the copy trade's title", async () => {
    const res = await page(alice);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ limit: 20, offset: 0, total: 4, totalPages: 1 });
    expect(res.body.data.map((x) => x.id)).toEqual([p[3], p[2], p[1], p[0]]);
    expect(res.body.data[3]).toEqual({
      id: p[0],
      userId: alice.id,
      copyTradeId: alpha.id,
      copyAccount: TRADER_A,
      positionIndex: 0,
      copyPositionIndex: 0,
      indexToken: BTC,
      identifyKey: 'identify',
      pair: 'BTC-USD',
      key: 'key',
      sourceOrderTxHashes: ['0xsource'],
      sourceSizeDelta: '10000',
      sizeDelta: '0.02',
      sourceInitialVol: '1000',
      totalSizeDelta: 0.02,
      initialVol: 100,
      isLong: true,
      isReverse: false,
      entryPrice: 50_000,
      leverage: 10,
      stopLossPrice: null,
      stopLossAmount: null,
      takeProfitPrice: null,
      takeProfitAmount: null,
      pnl: -1,
      realisedPnl: 0,
      funding: 0,
      fee: 0,
      closeType: null,
      status: 'OPEN',
      protocol: 'NOVA_ARB',
      exchange: exchangeOf(DEFAULT_VENUE),
      lastOrderAt: iso(FIXED_NOW - 5 * HOUR),
      createdAt: iso(FIXED_NOW - 5 * HOUR),
      copyTradeTitle: 'Alpha',
    });
    expect(res.body.data[0]).toMatchObject({
      status: 'CLOSE',
      closeType: 'COPY_TRADE',
      copyTradeTitle: 'Beta',
    });
  });

  it('filters by status and side in the query string', async () => {
    expect(await ids('?status=OPEN')).toEqual([p[2], p[0]]);
    expect(await ids('?status=CLOSE')).toEqual([p[3], p[1]]);
    expect(await ids('?status=OPEN,CLOSE')).toEqual([p[3], p[2], p[1], p[0]]);
    expect(await ids('?isLong=true')).toEqual([p[3], p[0]]);
    expect(await ids('?isLong=false&status=OPEN')).toEqual([p[2]]);
  });

  it('filters by the JSON body: copy trades, traders (any case), one wallet or several', async () => {
    expect(await ids('', { copyTradeIds: [beta.id] })).toEqual([p[3], p[2]]);
    expect(await ids('', { traders: [TRADER_A.toLowerCase()] })).toEqual([p[2], p[0]]);
    expect(await ids('', { traders: [TRADER_B] })).toEqual([p[3], p[1]]);
    expect(await ids('', { copyWalletId: secondWallet })).toEqual([p[2]]);
    expect(await ids('', { copyWalletIds: [alice.walletId] })).toEqual([p[3], p[1], p[0]]);
    expect(await ids('?status=CLOSE', { copyTradeIds: [alpha.id, beta.id], traders: [TRADER_B] })).toEqual([
      p[3],
      p[1],
    ]);
    expect(await ids('', {})).toHaveLength(4);
    expect(await ids('', null)).toHaveLength(4);
  });

  it('sorts by sort_by and sort_type, and refuses unknown sort fields naming them', async () => {
    expect(await ids('?sort_by=pnl&sort_type=asc')).toEqual([p[3], p[0], p[2], p[1]]);
    expect(await ids('?sort_by=pnl')).toEqual([p[1], p[2], p[0], p[3]]);
    expect(await ids('?sort_by=createdAt&sort_type=asc')).toEqual([p[0], p[1], p[2], p[3]]);
    expectError(
      await page(alice, '?sort_by=bogus'),
      400,
      'VALIDATION_FAILED',
      /^sort_by must be a known field, not "bogus"/,
    );
    expectError(
      await page(alice, '?sort_type=up'),
      400,
      'VALIDATION_FAILED',
      /^sort_type must be one of asc, desc/,
    );
  });

  it('pages: last page, beyond the end, and an empty list', async () => {
    const first = await page(alice, '?limit=3');
    expect(first.body.meta).toEqual({ limit: 3, offset: 0, total: 4, totalPages: 2 });
    expect(first.body.data).toHaveLength(3);
    const last = await page(alice, '?limit=3&offset=3');
    expect(last.body.data.map((x) => x.id)).toEqual([p[0]]);
    expect(last.body.meta).toEqual({ limit: 3, offset: 3, total: 4, totalPages: 2 });
    const beyond = await page(alice, '?limit=3&offset=10');
    expect(beyond.body).toEqual({ data: [], meta: { limit: 3, offset: 10, total: 4, totalPages: 2 } });
    expect((await page(alice, '?limit=500')).status).toBe(200);
    const nobody = await loginCopyUser(svc);
    expect((await page(nobody)).body).toEqual({
      data: [],
      meta: { limit: 20, offset: 0, total: 0, totalPages: 0 },
    });
  });

  it.each([
    ['?limit=0', /^limit must be at least 1/],
    ['?limit=501', /^limit must be at most 500/],
    ['?offset=-1', /^offset must be at least 0/],
    ['?limit=abc', /^limit must be an integer/],
    ['?status=OPENED', /^status must be OPEN, CLOSE or OPEN,CLOSE/],
    ['?isLong=yes', /^isLong must be one of true, false/],
    ['?page=2', /unknown field "page"/],
  ])('refuses the query %s with 400 naming it', async (query, mentions) => {
    expectError(await page(alice, query), 400, 'VALIDATION_FAILED', mentions);
  });

  it('refuses a malformed body with 400 naming the field', async () => {
    expectError(
      await page(alice, '', { copyTradeIds: 'x' }),
      400,
      'VALIDATION_FAILED',
      /^copyTradeIds must be an array/,
    );
    expectError(await page(alice, '', { wallet: 'x' }), 400, 'VALIDATION_FAILED', /unknown field "wallet"/);
  });
});

describe('GET /copy-positions/{id}/orders', () => {
  it('answers a bare array of the orders, newest first (insertion order breaks ties)', async () => {
    const db = svc.service.db;
    const at = (h: number) => FIXED_NOW - h * HOUR;
    addOrder(db, p[1] as string, alice.id, at(4), {
      price: 50_000,
      size: 1000,
      isLong: false,
      txHash: '0x01',
    });
    addOrder(db, p[1] as string, alice.id, at(1), {
      price: 49_000,
      size: 1000,
      isLong: false,
      isIncrease: false,
      realisedPnl: 10.5,
      pnl: 10,
      fee: 0.5,
      txHash: '0x03',
    });
    addOrder(db, p[1] as string, alice.id, at(2), {
      price: 49_500,
      size: 500,
      isLong: false,
      txHash: '0x02a',
    });
    addOrder(db, p[1] as string, alice.id, at(2), {
      price: 49_400,
      size: 500,
      isLong: false,
      txHash: '0x02b',
    });
    const res = await call<CopyOrder[]>(svc, 'GET', `/copy-positions/${p[1]}/orders`, { token: alice.token });
    expect(res.status).toBe(200);
    expect(res.body.map((o) => o.txHash)).toEqual(['0x03', '0x02b', '0x02a', '0x01']);
    expect(res.body[0]).toEqual({
      price: 49_000,
      size: 1000,
      pnl: 10,
      realisedPnl: 10.5,
      fee: 0.5,
      isLong: false,
      isIncrease: false,
      protocol: 'NOVA_ARB',
      txHash: '0x03',
      createdAt: iso(at(1)),
    });
    const none = await call(svc, 'GET', `/copy-positions/${p[0]}/orders`, { token: alice.token });
    expect(none.body).toEqual([]);
  });

  it("answers 404 for another user's position and for an unknown one", async () => {
    expectError(
      await call(svc, 'GET', `/copy-positions/${bobPosition}/orders`, { token: alice.token }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await call(svc, 'GET', `/copy-positions/nope/orders`, { token: alice.token }),
      404,
      'NOT_FOUND',
      /nope/,
    );
  });
});

describe('POST /activity-logs/page', () => {
  let logs: string[];
  const logPage = (user: CopyUser, body?: unknown, query = '') =>
    call<Paged<ActivityLog>>(svc, 'POST', `/activity-logs/page${query}`, { token: user.token, body });
  const logIds = async (body?: unknown, query = '') =>
    (await logPage(alice, body, query)).body.data.map((l) => l.id);

  beforeAll(() => {
    const db = svc.service.db;
    const a = { userId: alice.id, copyTradeId: alpha.id, copyWalletId: alice.walletId };
    const b = { ...a, copyTradeId: beta.id, copyWalletId: secondWallet };
    const t = (h: number) => FIXED_NOW - h * HOUR;
    logs = [
      addLog(db, a, t(5), {
        sourceAccount: TRADER_A,
        copyPositionId: p[0] ?? null,
        copyOrderId: 'o-1',
        volume: 100,
      }).id,
      addLog(db, a, t(4), { sourceAccount: TRADER_B, type: 'CLOSE', volume: 300 }).id,
      addLog(db, b, t(3), { sourceAccount: TRADER_A, volume: 50, copyTradeTitle: 'Beta', indexToken: ETH })
        .id,
      addLog(db, b, t(2), {
        sourceAccount: TRADER_B,
        isSuccess: false,
        reason: 'the venue rejected the order',
        volume: 200,
        copyTradeTitle: 'Beta',
      }).id,
      // Same millisecond as the previous one: written later, listed first when newest first.
      addLog(db, a, t(2), { sourceAccount: TRADER_A, type: 'INCREASE', volume: 150 }).id,
    ];
    addLog(db, { userId: bob.id, copyTradeId: 'bobs', copyWalletId: bob.walletId }, t(1));
  });

  it("pages the caller's logs newest first; the body may be omitted", async () => {
    const res = await logPage(alice, {});
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ limit: 20, offset: 0, total: 5, totalPages: 1 });
    expect(res.body.data.map((l) => l.id)).toEqual([logs[4], logs[3], logs[2], logs[1], logs[0]]);
    expect(await logIds()).toEqual(res.body.data.map((l) => l.id));
    expect(res.body.data[4]).toEqual({
      id: logs[0],
      protocol: 'NOVA_ARB',
      sourceAccount: TRADER_A,
      userId: alice.id,
      copyOrderId: 'o-1',
      copyTradeTitle: 'Follow the whale',
      exchange: exchangeOf(DEFAULT_VENUE),
      indexToken: BTC,
      pair: 'BTC-USD',
      copyTradeId: alpha.id,
      sourceTxHash: '0xsource',
      copyWalletId: alice.walletId,
      copyWalletName: 'Embedded wallet',
      copyPositionId: p[0],
      createdAt: iso(FIXED_NOW - 5 * HOUR),
      cexOrderId: null,
      price: 50_000,
      sourcePrice: 50_000,
      volume: 100,
      leverage: 10,
      isLong: true,
      isSuccess: true,
      isReverse: false,
      type: 'OPEN',
    });
    expect(res.body.data[1]).toMatchObject({ isSuccess: false, copyOrderId: null, copyPositionId: null });
  });

  it('filters with ranges: in / nin on sourceAccount (any case), copyTradeId, copyWalletId; createdAt bounds', async () => {
    const range = (...ranges: unknown[]) => logIds({ ranges });
    expect(await range({ fieldName: 'copyTradeId', in: [beta.id] })).toEqual([logs[3], logs[2]]);
    expect(await range({ fieldName: 'copyWalletId', in: [secondWallet] })).toEqual([logs[3], logs[2]]);
    expect(await range({ fieldName: 'sourceAccount', in: [TRADER_A.toLowerCase()] })).toEqual([
      logs[4],
      logs[2],
      logs[0],
    ]);
    expect(await range({ fieldName: 'sourceAccount', nin: [TRADER_A] })).toEqual([logs[3], logs[1]]);
    expect(
      await range(
        { fieldName: 'copyTradeId', in: [alpha.id] },
        { fieldName: 'sourceAccount', in: [TRADER_A] },
      ),
    ).toEqual([logs[4], logs[0]]);
    expect(await range({ fieldName: 'copyTradeId', in: [] })).toEqual([]);
    expect(await range({ fieldName: 'copyTradeId', in: ['bobs'] })).toEqual([]);
    expect(
      await range({ fieldName: 'createdAt', gte: iso(FIXED_NOW - 3 * HOUR), lt: FIXED_NOW - 2 * HOUR }),
    ).toEqual([logs[2]]);
  });

  it('sorts by sortBy/sortType and refuses unknown fields naming them', async () => {
    expect(await logIds({ sortBy: 'volume', sortType: 'asc' })).toEqual([
      logs[2],
      logs[0],
      logs[4],
      logs[3],
      logs[1],
    ]);
    const bad = await logPage(alice, { sortBy: 'bogus' });
    expectError(bad, 400, 'VALIDATION_FAILED', /^sortBy must be a known field, not "bogus"/);
    const badRange = await logPage(alice, { ranges: [{ fieldName: 'price', gte: 1 }] });
    expectError(
      badRange,
      400,
      'VALIDATION_FAILED',
      /^ranges\[0\]\.fieldName must be a known field, not "price"/,
    );
    const badOp = await logPage(alice, { ranges: [{ fieldName: 'sourceAccount', gte: 'a' }] });
    expectError(badOp, 400, 'VALIDATION_FAILED', /^ranges\[0\]\.gte is not supported on sourceAccount/);
    const badTime = await logPage(alice, { ranges: [{ fieldName: 'createdAt', gte: 'yesterday' }] });
    expectError(badTime, 400, 'VALIDATION_FAILED', /^ranges\[0\]\.gte must be an ISO 8601 timestamp/);
  });

  it('takes limit/offset from the body, else from the query string (the body wins per field)', async () => {
    const body = await logPage(alice, { pagination: { limit: 2, offset: 2 } });
    expect(body.body.meta).toEqual({ limit: 2, offset: 2, total: 5, totalPages: 3 });
    expect(body.body.data.map((l) => l.id)).toEqual([logs[2], logs[1]]);
    const query = await logPage(alice, {}, '?limit=2&offset=4');
    expect(query.body).toMatchObject({ meta: { limit: 2, offset: 4, total: 5, totalPages: 3 } });
    expect(query.body.data.map((l) => l.id)).toEqual([logs[0]]);
    const both = await logPage(alice, { pagination: { limit: 3 } }, '?limit=2&offset=1');
    expect(both.body.meta).toEqual({ limit: 3, offset: 1, total: 5, totalPages: 2 });
    const beyond = await logPage(alice, {}, '?offset=50');
    expect(beyond.body).toEqual({ data: [], meta: { limit: 20, offset: 50, total: 5, totalPages: 1 } });
    const empty = await logPage(await loginCopyUser(svc), {});
    expect(empty.body).toEqual({ data: [], meta: { limit: 20, offset: 0, total: 0, totalPages: 0 } });
  });

  it.each([
    [{ pagination: { limit: 501 } }, '', /^pagination\.limit must be at most 500/],
    [{ pagination: { offset: -1 } }, '', /^pagination\.offset must be at least 0/],
    [{}, '?limit=0', /^limit must be at least 1/],
    [{}, '?limit=501', /^limit must be at most 500/],
    [{ sortType: 'up' }, '', /^sortType must be one of asc, desc/],
    [{ filters: [] }, '', /unknown field "filters"/],
  ])('refuses %j%s with 400 naming the field', async (body, query, mentions) => {
    expectError(await logPage(alice, body, query), 400, 'VALIDATION_FAILED', mentions);
  });
});
