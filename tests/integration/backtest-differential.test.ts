// One order stream, two engines: the live copy engine fed through the sandbox over HTTP, and the
// backtest over the orders the sandbox stored. Both must open, fill and close the same copies and
// end with the same balance (issue 16, item 1; docs/backtest.md, One set of rules).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress } from 'viem';
import { indexTokenAddress } from '../../src/service/market/catalogue';
import { StoredOrders } from '../../src/service/backtest/stored-orders';
import { pricePathsFor } from '../../src/service/backtest/price-paths';
import { filterMask, simulate, type SimulatedFill } from '../../src/service/backtest/simulate';
import { filtersOf, runSettingsOf, sweptOf } from '../../src/service/backtest/settings';
import { backtestRequestSchema, type BacktestResult } from '../../src/shared/api/backtest';
import { postJson, type RunningService } from '../support/service';
import { apiKeyOf, loginCopyUser, startCopyService, tradeBody, FIXED_NOW } from '../support/copy-session';

const ADMIN = 'backtest-admin-key-0123456789';
const P = 'NOVA_ARB';
const TRADER = getAddress('0x' + '5e'.repeat(20));
const admin = { 'x-admin-key': ADMIN };
const FROM = FIXED_NOW - 6 * 86_400_000;
const TO = FIXED_NOW - 3_600_000;

/** A deterministic stream: positions on three tokens opened, grown, cut and closed on random walks. */
function stream(seed: number) {
  let x = seed;
  const rand = () => (x = (x * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const tokens = [
    { token: indexTokenAddress(P, 'BTC'), price: 50_000 },
    { token: indexTokenAddress(P, 'ETH'), price: 3_000 },
    { token: indexTokenAddress(P, 'SOL'), price: 150 },
  ];
  const open = new Map<string, { isLong: boolean; size: number }>();
  const events: {
    price: { indexToken: string; price: number; time: number };
    order: Record<string, unknown>;
  }[] = [];
  let time = FROM + 60_000;
  const push = (token: string, price: number, order: Record<string, unknown>) => {
    const n = events.length;
    events.push({
      price: { indexToken: token, price, time },
      order: {
        id: `diff-${seed}-${n}`,
        account: TRADER,
        protocol: P,
        indexToken: token,
        priceNumber: price,
        blockTime: time,
        txHash: `0x${(seed * 10_000 + n).toString(16).padStart(64, '0')}`,
        ...order,
      },
    });
  };
  for (let step = 0; step < 90; step += 1) {
    time += Math.floor(5 + rand() * 60) * 60_000;
    const t = tokens[Math.floor(rand() * tokens.length)]!;
    // Moves of up to ±6 %: enough to cross 8 % stops and 5 % liquidations now and then.
    t.price = Number((t.price * (1 + (rand() - 0.5) * 0.12)).toFixed(2));
    const held = open.get(t.token);
    if (!held) {
      const isLong = rand() < 0.6;
      const size = Math.round(5_000 + rand() * 25_000);
      const collateral = Math.round(size / (2 + rand() * 18));
      open.set(t.token, { isLong, size });
      push(t.token, t.price, {
        type: 'OPEN',
        isLong,
        sizeDeltaNumber: size,
        collateralDeltaNumber: collateral,
      });
      continue;
    }
    const r = rand();
    if (r < 0.3) {
      const add = Math.round(2_000 + rand() * 15_000);
      held.size += add;
      push(t.token, t.price, {
        type: 'INCREASE',
        isLong: held.isLong,
        sizeDeltaNumber: add,
        collateralDeltaNumber: Math.round(add / 8),
      });
    } else if (r < 0.6) {
      const cut = Math.round(held.size * (0.2 + rand() * 0.5));
      held.size -= cut;
      push(t.token, t.price, {
        type: 'DECREASE',
        isLong: held.isLong,
        sizeDeltaNumber: cut,
        collateralDeltaNumber: 0,
      });
    } else {
      open.delete(t.token);
      push(t.token, t.price, {
        type: 'CLOSE',
        isLong: held.isLong,
        sizeDeltaNumber: held.size,
        collateralDeltaNumber: 0,
      });
    }
  }
  for (const [token, held] of open) {
    time += 60_000;
    const price = tokens.find((t) => t.token === token)!.price;
    push(token, price, {
      type: 'CLOSE',
      isLong: held.isLong,
      sizeDeltaNumber: held.size,
      collateralDeltaNumber: 0,
    });
  }
  return events;
}

/** Two copy settings that between them meet every rule of the engine. */
const SETTINGS = {
  guarded: {
    volume: 2_500,
    leverage: 5,
    volumeProtection: true,
    lookBackOrders: 3,
    maxVolMultiplier: 1.5,
    enableStopLoss: true,
    stopLossType: 'PERCENT',
    stopLossAmount: 25,
    enableTakeProfit: true,
    takeProfitType: 'USD',
    takeProfitAmount: 300,
  },
  reversed: { volume: 1_500, leverage: 20, volumeProtection: false, reverseCopy: true },
  usdStops: {
    volume: 1_000,
    leverage: 8,
    enableStopLoss: true,
    stopLossType: 'USD',
    stopLossAmount: 60,
    enableTakeProfit: true,
    takeProfitType: 'PERCENT',
    takeProfitAmount: 30,
  },
} as const;

let svc: RunningService;
const live: Record<string, { tradeId: string; walletId: string; startBalance: number }> = {};

beforeAll(async () => {
  svc = await startCopyService({ adminKey: ADMIN });
  for (const [name, settings] of Object.entries(SETTINGS)) {
    const user = await loginCopyUser(svc);
    const created = await postJson(
      `${svc.url}/copy-trades`,
      tradeBody(svc, user, { account: TRADER, ...settings }),
      {
        authorization: user.token,
      },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const startBalance = svc.service.db
      .prepare('SELECT balance FROM copy_wallets WHERE id = ?')
      .pluck()
      .get(user.walletId) as number;
    live[name] = { tradeId: created.body.id as string, walletId: user.walletId, startBalance };
  }
  // Every order is preceded by a mark at its own price and time: the live engine fills at that
  // mark and checks exits on it, as the backtest does on the fills path.
  for (const event of stream(7)) {
    const tick = await postJson(`${svc.url}/sandbox/prices`, { prices: [event.price] }, admin);
    expect(tick.status).toBe(200);
    const order = await postJson(`${svc.url}/sandbox/orders`, { orders: [event.order] }, admin);
    expect(order.status, JSON.stringify(order.body)).toBe(200);
  }
});
afterAll(() => svc.close());

/** The backtest body of one live copy trade's settings. */
function bodyOf(name: keyof typeof SETTINGS, startBalance: number) {
  const { volume, ...rest } = SETTINGS[name];
  return {
    accounts: [TRADER],
    balance: startBalance,
    orderVolume: volume,
    fromTime: FROM,
    toTime: TO,
    ...rest,
  };
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

describe('the live engine and the backtest, one order stream', () => {
  for (const name of Object.keys(SETTINGS) as (keyof typeof SETTINGS)[]) {
    it(`${name}: the same fills, positions, closes, skips and balance`, async () => {
      const { tradeId, walletId, startBalance } = live[name]!;
      const db = svc.service.db;
      const liveFills = (
        db
          .prepare(
            `SELECT o.created_at_ms AS time, o.price, o.size AS notional, o.fee, o.realised_pnl AS realised, o.is_increase, o.is_long
             FROM copy_orders o JOIN copy_positions p ON p.id = o.copy_position_id
             WHERE p.copy_trade_id = ? ORDER BY o.created_at_ms, o.seq`,
          )
          .all(tradeId) as {
          time: number;
          price: number;
          notional: number;
          fee: number;
          realised: number;
          is_increase: number;
          is_long: number;
        }[]
      ).map((f) => [
        f.time,
        f.is_long === 1,
        f.is_increase === 1,
        round(f.price),
        f.notional,
        f.fee,
        f.realised,
      ]);
      const livePositions = (
        db
          .prepare(
            `SELECT is_long, entry_price, realised_pnl, fee, pnl, close_type, closed_at_ms, initial_vol
             FROM copy_positions WHERE copy_trade_id = ? ORDER BY closed_at_ms, created_at_ms`,
          )
          .all(tradeId) as Record<string, number | string>[]
      ).map((p) => [
        p.is_long === 1,
        round(p.entry_price as number),
        p.realised_pnl,
        p.fee,
        p.pnl,
        p.close_type,
        p.closed_at_ms,
      ]);
      const liveBalance = db.prepare('SELECT balance FROM copy_wallets WHERE id = ?').pluck().get(walletId);
      const failed = db
        .prepare('SELECT COUNT(*) FROM activity_logs WHERE copy_trade_id = ? AND is_success = 0')
        .pluck()
        .get(tradeId) as number;

      // The backtest in process, to see its fills one by one.
      const body = backtestRequestSchema.parse(bodyOf(name, startBalance));
      const stored = new StoredOrders(db);
      const trader = stored.trader(TRADER, P, TO);
      const paths = pricePathsFor(trader, () => null, FROM, TO);
      const filters = filtersOf(body, []);
      const settings = runSettingsOf(body, sweptOf(body), filters, { fromTime: FROM, toTime: TO });
      const fills: SimulatedFill[] = [];
      const run = simulate(trader, paths, settings, filterMask(trader, filters), 'positions', (f) =>
        fills.push(f),
      );
      const backtestFills = fills.map((f) => [
        f.time,
        f.isLong,
        f.kind === 'OPEN' || f.kind === 'INCREASE',
        round(f.price),
        f.notional,
        f.fee,
        f.realised,
      ]);
      const backtestPositions = run.positions!.map((p) => [
        p.position.isLong,
        round(p.position.entryPrice),
        p.position.realisedPnl,
        p.position.fee,
        p.position.pnl,
        p.closeReason,
        p.position.closeTime,
      ]);

      expect(liveFills.length).toBeGreaterThan(20);
      expect(backtestFills).toEqual(liveFills);
      expect(backtestPositions).toEqual(livePositions);
      expect(run.totals.finalBalance).toBe(liveBalance);
      expect(run.totals.totalSkipped).toBe(failed);

      // Over HTTP, the route answers the same run.
      const res = await postJson(`${svc.url}/${P}/back-testing/multiple-order`, bodyOf(name, startBalance), {
        'x-api-key': apiKeyOf(svc),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const [result] = res.body as unknown as BacktestResult[];
      expect(result!.pricePath).toBe('fills');
      expect(result!.totalTrade).toBe(livePositions.length);
      expect(round(startBalance + result!.profit)).toBe(liveBalance);
      expect(result!.totalSkipped).toBe(failed);
    });
  }

  it('meets the rules it compares: stops, take profits, liquidations, increases, decreases, skips', () => {
    const db = svc.service.db;
    const closeTypes = db
      .prepare('SELECT DISTINCT close_type FROM copy_positions WHERE close_type IS NOT NULL ORDER BY 1')
      .pluck()
      .all();
    // The stream is only a good test if it makes the engine use these rules.
    expect(closeTypes).toEqual(
      expect.arrayContaining(['COPY_TRADE', 'LIQUIDATE', 'STOP_LOSS', 'TAKE_PROFIT']),
    );
    expect(
      db.prepare('SELECT COUNT(*) FROM activity_logs WHERE is_success = 0').pluck().get(),
    ).toBeGreaterThan(0);
    expect(
      db.prepare("SELECT COUNT(*) FROM activity_logs WHERE type = 'INCREASE'").pluck().get(),
    ).toBeGreaterThan(0);
    expect(
      db.prepare("SELECT COUNT(*) FROM activity_logs WHERE type = 'DECREASE'").pluck().get(),
    ).toBeGreaterThan(0);
  });
});
