// The copy engine against the real service: copy trades created and stopped over HTTP, the engine
// driven directly with source orders and ticks, and its results read back over HTTP (copy trade
// list pnl, wallet lists), plus the close/unlink routes. Default fees: 0.06 % on opens, 0.035 % on closes.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityLog } from '../../src/shared/api/activity-logs';
import type { Paged } from '../../src/shared/api/common';
import type { CopyPosition } from '../../src/shared/api/copy-positions';
import type { CopyTrade, CopyTradeListItem } from '../../src/shared/api/copy-trades';
import type { CopyWallet, EmbeddedCopyWallet } from '../../src/shared/api/copy-wallets';
import { DEFAULT_VENUE, embeddedWalletsPath } from '../../src/shared/profile';
import { CopyEngine } from '../../src/service/copy-engine/engine';
import type { CopyEvent, SourceOrder } from '../../src/service/copy-engine/types';
import { installErrorHandlers } from '../../src/service/http/errors';
import { copyPositionActionRoutes } from '../../src/service/http/routes/copy-positions-actions';
import { seedCopyFixture } from '../../src/service/fixture/copy-fixture';
import { indexTokenAddress } from '../../src/service/market/catalogue';
import {
  call,
  FIXED_NOW,
  loginCopyUser,
  startCopyService,
  tradeBody,
  type CopyUser,
} from '../support/copy-session';
import type { RunningService } from '../support/service';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BTC = indexTokenAddress('NOVA_ARB', 'BTC');
const ETH = indexTokenAddress('NOVA_ARB', 'ETH');
const SOL = indexTokenAddress('NOVA_ARB', 'SOL');
const TRADER_A = '0xAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAa';
const TRADER_B = '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB';
const TRADER_C = '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC';

let svc: RunningService;
let engine: CopyEngine;
let n = 0;

beforeAll(async () => {
  svc = await startCopyService();
  engine = new CopyEngine(svc.service.db, svc.service.config);
});
afterAll(() => svc.close());

/** A source order of `account` on NOVA_ARB; OPENs start at 0, others carry the before-values given. */
function order(
  account: string,
  indexToken: string,
  patch: Partial<SourceOrder> & Pick<SourceOrder, 'type'>,
): SourceOrder {
  n += 1;
  return {
    id: `http-source-${n}`,
    account,
    protocol: 'NOVA_ARB',
    indexToken,
    isLong: true,
    sizeDeltaUsd: 20_000,
    collateralDeltaUsd: 2_000,
    sizeBeforeUsd: patch.type === 'OPEN' ? 0 : 20_000,
    collateralBeforeUsd: patch.type === 'OPEN' ? 0 : 2_000,
    price: 0,
    blockTimeMs: FIXED_NOW + n,
    txHash: `0x${n.toString(16).padStart(64, '0')}`,
    isLiquidate: false,
    ...patch,
  };
}

const tick = (indexToken: string, price: number, timeMs: number) =>
  engine.processPrices([{ indexToken, price, timeMs }]);

async function createTrade(user: CopyUser, patch: Record<string, unknown>): Promise<CopyTrade> {
  const res = await call<CopyTrade>(svc, 'POST', '/copy-trades', {
    token: user.token,
    body: tradeBody(svc, user, { volumeProtection: false, ...patch }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const positionsOf = async (user: CopyUser) =>
  (await call<Paged<CopyPosition>>(svc, 'POST', '/copy-positions/page?sort_type=asc', { token: user.token }))
    .body.data;

describe('pnl of copy trades and wallets after the engine trades', () => {
  let alice: CopyUser;
  let alpha: CopyTrade;
  beforeAll(async () => {
    alice = await loginCopyUser(svc);
    alpha = await createTrade(alice, { title: 'Alpha', account: TRADER_A });
    // BTC, ten days ago: 0.02 at 50,000 closed at 51,000 → +20 − 0.6 − 0.357 = 19.043.
    const t1 = FIXED_NOW - 10 * DAY;
    tick(BTC, 50_000, t1);
    engine.processSourceOrder(order(TRADER_A, BTC, { type: 'OPEN', price: 50_000, blockTimeMs: t1 }));
    tick(BTC, 51_000, t1 + HOUR);
    engine.processSourceOrder(order(TRADER_A, BTC, { type: 'CLOSE', price: 51_000, blockTimeMs: t1 + HOUR }));
    // ETH, two hours ago: 1/3 ETH at 3,000 closed at 3,030 → +10 − 0.6 − 0.3535 = 9.0465.
    tick(ETH, 3_000, FIXED_NOW - 3 * HOUR);
    engine.processSourceOrder(
      order(TRADER_A, ETH, { type: 'OPEN', price: 3_000, blockTimeMs: FIXED_NOW - 3 * HOUR }),
    );
    tick(ETH, 3_030, FIXED_NOW - 2 * HOUR);
    engine.processSourceOrder(
      order(TRADER_A, ETH, { type: 'CLOSE', price: 3_030, blockTimeMs: FIXED_NOW - 2 * HOUR }),
    );
    // SOL, open: 10 SOL at 100 (fee 0.6), marked at 104 → unrealised +40.
    tick(SOL, 100, FIXED_NOW - HOUR);
    engine.processSourceOrder(
      order(TRADER_A, SOL, { type: 'OPEN', price: 100, blockTimeMs: FIXED_NOW - HOUR }),
    );
    tick(SOL, 104, FIXED_NOW);
  });

  it('shows the positions, orders and logs over HTTP', async () => {
    const positions = await positionsOf(alice);
    expect(positions.map((p) => [p.pair, p.status, p.closeType, p.pnl])).toEqual([
      ['BTC/USD', 'CLOSE', 'COPY_TRADE', 19.043],
      ['ETH/USD', 'CLOSE', 'COPY_TRADE', 9.0465],
      ['SOL/USD', 'OPEN', null, -0.6],
    ]);
    expect(positions.every((p) => p.copyTradeTitle === 'Alpha' && p.copyTradeId === alpha.id)).toBe(true);
    const logs = await call<Paged<ActivityLog>>(svc, 'POST', '/activity-logs/page', {
      token: alice.token,
      body: { pagination: { limit: 10 }, sortType: 'asc' },
    });
    expect(logs.body.data.map((l) => [l.type, l.pair, l.copyWalletName])).toEqual([
      ['OPEN', 'BTC/USD', 'Embedded wallet'],
      ['CLOSE', 'BTC/USD', 'Embedded wallet'],
      ['OPEN', 'ETH/USD', 'Embedded wallet'],
      ['CLOSE', 'ETH/USD', 'Embedded wallet'],
      ['OPEN', 'SOL/USD', 'Embedded wallet'],
    ]);
  });

  it('sums pnl, pnl7D and pnl30D of /copy-trades/list', async () => {
    const [item] = (await call<CopyTradeListItem[]>(svc, 'POST', '/copy-trades/list', { token: alice.token }))
      .body;
    // pnl: 19.043 + 9.0465 closed + 40 unrealised; 7D: the ETH close; 30D: both closes.
    expect(item).toMatchObject({ id: alpha.id, pnl: 68.0895, pnl7D: 9.0465, pnl30D: 28.0895 });
  });

  it('moves the balance by the closed pnl and the open fee, and holds the open margin', async () => {
    const [wallet] = (await call<CopyWallet[]>(svc, 'GET', '/copy-wallets/list', { token: alice.token }))
      .body;
    // 10,000 + 19.043 + 9.0465 − 0.6 = 10,027.4895; 100 held by the SOL position.
    expect(wallet).toMatchObject({ balance: 10_027.4895, availableBalance: 9927.4895 });
    const [embedded] = (
      await call<EmbeddedCopyWallet[]>(svc, 'GET', embeddedWalletsPath(DEFAULT_VENUE), { token: alice.token })
    ).body;
    expect(embedded).toMatchObject({
      balance: 10_027.4895,
      availableBalance: 9927.4895,
      pnl24h: 9.0465,
      totalPnl: 68.0895,
    });
  });
});

describe('a STOPPED copy trade', () => {
  it('ignores new OPENs and INCREASEs but closes its open position when the source closes', async () => {
    const bob = await loginCopyUser(svc);
    const trade = await createTrade(bob, { title: 'Bobby', account: TRADER_B });
    tick(BTC, 50_000, FIXED_NOW);
    engine.processSourceOrder(order(TRADER_B, BTC, { type: 'OPEN', price: 50_000 }));
    const stop = await call<CopyTrade>(svc, 'PUT', `/copy-trades/${trade.id}`, {
      token: bob.token,
      body: { status: 'STOPPED' },
    });
    expect(stop.body.status).toBe('STOPPED');

    expect(engine.processSourceOrder(order(TRADER_B, ETH, { type: 'OPEN', price: 3_000 }))).toEqual([]);
    expect(engine.processSourceOrder(order(TRADER_B, BTC, { type: 'INCREASE', price: 50_000 }))).toEqual([]);
    const closed = engine.processSourceOrder(order(TRADER_B, BTC, { type: 'CLOSE', price: 50_000 }));
    expect(closed.map((e) => [e.kind, e.userId])).toEqual([
      ['copyPositionClosed', bob.id],
      ['activityLog', bob.id],
    ]);
    expect((await positionsOf(bob)).map((p) => [p.pair, p.status, p.closeType, p.totalSizeDelta])).toEqual([
      ['BTC/USD', 'CLOSE', 'COPY_TRADE', 0.02],
    ]);

    // Running again, it copies the next OPEN: the engine saw the PUT.
    await call(svc, 'PUT', `/copy-trades/${trade.id}`, { token: bob.token, body: { status: 'RUNNING' } });
    engine.processSourceOrder(order(TRADER_B, ETH, { type: 'OPEN', price: 3_000 }));
    expect((await positionsOf(bob)).map((p) => [p.pair, p.status])).toEqual([
      ['BTC/USD', 'CLOSE'],
      ['ETH/USD', 'OPEN'],
    ]);
  });
});

describe('POST /copy-positions/{id}/close and /unlink', () => {
  let app: FastifyInstance;
  let carol: CopyUser;
  let dave: CopyUser;
  const handed: CopyEvent[][] = [];
  beforeAll(async () => {
    carol = await loginCopyUser(svc);
    dave = await loginCopyUser(svc);
    await createTrade(carol, { title: 'Carol', account: TRADER_C });
    app = Fastify();
    installErrorHandlers(app);
    copyPositionActionRoutes(app, svc.service.ctx, engine, (events) => handed.push(events));
    await app.ready();
  });
  afterAll(() => app.close());

  const post = async (path: string, token?: string) => {
    const res = await app.inject({
      method: 'POST',
      url: path,
      headers: token ? { authorization: token } : {},
    });
    return { status: res.statusCode, body: res.json<Record<string, unknown>>() };
  };
  const openOne = (indexToken: string) => {
    tick(indexToken, indexToken === BTC ? 50_000 : 3_000, FIXED_NOW);
    const events = engine.processSourceOrder(order(TRADER_C, indexToken, { type: 'OPEN', price: 1 }));
    const opened = events.find((e) => e.kind === 'copyPositionOpened');
    if (opened?.kind !== 'copyPositionOpened') throw new Error('nothing opened');
    return opened.copyPosition.id;
  };

  it("closes the caller's position at the mark (MANUAL) and answers it; 409 once closed", async () => {
    const id = openOne(BTC);
    tick(BTC, 49_000, FIXED_NOW + 1);
    const res = await post(`/copy-positions/${id}/close`, carol.token);
    expect(res.status).toBe(200);
    // −20; fees 0.6 + 0.343.
    expect(res.body).toMatchObject({
      id,
      status: 'CLOSE',
      closeType: 'MANUAL',
      realisedPnl: -20,
      pnl: -20.943,
    });
    expect(handed.at(-1)?.map((e) => e.kind)).toEqual(['copyPositionClosed', 'activityLog']);
    const again = await post(`/copy-positions/${id}/close`, carol.token);
    expect(again).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
  });

  it('unlinks (FORCE_CLOSE) without a fee', async () => {
    const id = openOne(ETH);
    tick(ETH, 3_030, FIXED_NOW + 2);
    const res = await post(`/copy-positions/${id}/unlink`, carol.token);
    // 1/3 ETH from 3,000 to 3,030: +10; only the 0.6 open fee.
    expect(res).toMatchObject({
      status: 200,
      body: { id, closeType: 'FORCE_CLOSE', realisedPnl: 10, fee: 0.6, pnl: 9.4 },
    });
    expect((await post(`/copy-positions/${id}/unlink`, carol.token)).status).toBe(409);
  });

  it("answers 404 for another user's or an unknown position and 401 without a token", async () => {
    const id = openOne(BTC);
    expect(await post(`/copy-positions/${id}/close`, dave.token)).toMatchObject({
      status: 404,
      body: { code: 'NOT_FOUND' },
    });
    expect((await post(`/copy-positions/${id}/unlink`, dave.token)).status).toBe(404);
    expect((await post('/copy-positions/unknown/close', carol.token)).status).toBe(404);
    expect((await post(`/copy-positions/${id}/close`)).status).toBe(401);
    expect((await positionsOf(carol)).find((p) => p.id === id)?.status).toBe('OPEN');
  });

  it("publishes to the service's event bus by default", async () => {
    const own = Fastify();
    installErrorHandlers(own);
    copyPositionActionRoutes(own, svc.service.ctx, engine);
    const received: CopyEvent[] = [];
    const unsubscribe = svc.service.ctx.events.subscribe(carol.id, (e) => received.push(e));
    const id = openOne(ETH);
    const res = await own.inject({
      method: 'POST',
      url: `/copy-positions/${id}/close`,
      headers: { authorization: carol.token },
    });
    unsubscribe();
    await own.close();
    expect(res.statusCode).toBe(200);
    expect(received.map((e) => e.kind)).toEqual(['copyPositionClosed', 'activityLog']);
  });
});

describe('the copy fixture and the engine', () => {
  it('agree on margin, size, exit prices and source keys: the engine follows a fixture position', async () => {
    const erin = await loginCopyUser(svc);
    const seeded = seedCopyFixture(svc.service.db, svc.service.config, { userId: erin.id, seed: 3 });
    const open = (await positionsOf(erin)).filter((p) => p.status === 'OPEN');
    const trend = open.find((p) => p.copyTradeId === seeded.copyTradeIds.trend)!;
    const reverse = open.find((p) => p.copyTradeId === seeded.copyTradeIds.reverse)!;
    // Trend: 1,000 USD at 62,000 and 500 at 63,000 at 10×: margin 150, −50 % ROI at 5 % below entry.
    const tokens = 1000 / 62_000 + 500 / 63_000;
    const row = svc.service.db
      .prepare('SELECT margin, size_tokens FROM copy_positions WHERE id = ?')
      .get(trend.id) as { margin: number; size_tokens: number };
    expect(row.margin).toBe(150);
    expect(row.size_tokens).toBeCloseTo(tokens, 12);
    expect(trend.stopLossPrice).toBeCloseTo((1500 / tokens) * 0.95, 4);
    // Reverse: a 250 USD short at 3,100 with a 40 USD take profit: 40 / (250 / 3,100) = 496 lower.
    expect(reverse).toMatchObject({ isLong: false, takeProfitPrice: 2604, takeProfitAmount: 40 });

    // The trend trader closes their BTC long: the engine closes the fixture's copy of it.
    tick(BTC, 64_000, FIXED_NOW + 10);
    const trendTrade = (
      await call<CopyTrade[]>(svc, 'POST', '/copy-trades/list', { token: erin.token })
    ).body.find((t) => t.id === seeded.copyTradeIds.trend)!;
    const events = engine.processSourceOrder(
      order(trendTrade.account, BTC, {
        type: 'CLOSE',
        price: 64_000,
        sizeBeforeUsd: 15_000,
        collateralBeforeUsd: 1_500,
      }),
    );
    expect(events.map((e) => e.kind)).toEqual(['copyPositionClosed', 'activityLog']);
    const closed = (await positionsOf(erin)).find((p) => p.id === trend.id)!;
    // realised = (64,000 − entry) × tokens = 64,000 × tokens − 1,500.
    expect(closed).toMatchObject({ status: 'CLOSE', closeType: 'COPY_TRADE' });
    expect(closed.realisedPnl).toBeCloseTo(64_000 * tokens - 1500, 5);
  });
});
