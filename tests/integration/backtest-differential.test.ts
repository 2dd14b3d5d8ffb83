// One order stream, two engines: the live copy engine fed through the sandbox over HTTP, and the
// backtest over the orders the sandbox stored. Both must open, fill and close the same copies and
// end with the same balance (issue 16, item 1; docs/backtest.md, One set of rules).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress } from 'viem';
import { indexTokenAddress } from '../../src/service/market/catalogue';
import { StoredOrders } from '../../src/service/backtest/stored-orders';
import { pricePathsFor } from '../../src/service/backtest/price-paths';
import { PriceSeries } from '../../src/service/backtest/price-series';
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

/** A mark tick and a trader order, as the sandbox takes them. */
interface Tick {
  indexToken: string;
  price: number;
  time: number;
}
type StreamEvent = { tick: Tick } | { order: Record<string, unknown> };

/**
 * A deterministic stream: positions on three tokens opened, grown, cut and closed on random
 * walks. `marks` false: each order is preceded by a tick at its own price and time (the fills
 * path). `marks` true: one to three ticks of the walk come between orders, and the trader fills
 * near the mark but not at it, at a time with no tick (the marks path). From `start` on.
 */
function stream(seed: number, account: string, marks: boolean, start: number): StreamEvent[] {
  let x = seed;
  const rand = () => (x = (x * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const tokens = [
    { token: indexTokenAddress(P, 'BTC'), price: 50_000 },
    { token: indexTokenAddress(P, 'ETH'), price: 3_000 },
    { token: indexTokenAddress(P, 'SOL'), price: 150 },
  ];
  const open = new Map<string, { isLong: boolean; size: number }>();
  const events: StreamEvent[] = [];
  let time = start;
  let n = 0;
  const push = (token: string, price: number, order: Record<string, unknown>) => {
    n += 1;
    const fill = marks ? Number((price * (1 + (rand() - 0.5) * 0.004)).toFixed(2)) : price;
    if (!marks) events.push({ tick: { indexToken: token, price, time } });
    events.push({
      order: {
        id: `diff-${seed}-${n}`,
        account,
        protocol: P,
        indexToken: token,
        priceNumber: fill,
        blockTime: time,
        txHash: `0x${(seed * 10_000 + n).toString(16).padStart(64, '0')}`,
        ...order,
      },
    });
  };
  for (let step = 0; step < 90; step += 1) {
    const t = tokens[Math.floor(rand() * tokens.length)]!;
    // Moves of up to ±6 %: enough to cross 8 % stops and 5 % liquidations now and then.
    const ticks = marks ? 1 + Math.floor(rand() * 3) : 1;
    for (let k = 0; k < ticks; k += 1) {
      time += Math.floor(5 + rand() * 30) * 60_000;
      t.price = Number((t.price * (1 + (rand() - 0.5) * (marks ? 0.08 : 0.12))).toFixed(2));
      if (marks) events.push({ tick: { indexToken: t.token, price: t.price, time } });
    }
    if (marks) time += 30_000;
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

/** Three copy settings that between them meet every rule of the engine. */
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

/** The two streams: one trader followed on the fills path, another on the marks path. */
const STREAMS = {
  fills: { account: TRADER, seed: 7 },
  marks: { account: getAddress('0x' + '6f'.repeat(20)), seed: 11 },
} as const;
type PathKind = keyof typeof STREAMS;

let svc: RunningService;
const live: Record<string, { tradeId: string; walletId: string; startBalance: number }> = {};
/** The marks stream's ticks by token, as the backtest's mark history. */
const marks = new Map<string, Tick[]>();

beforeAll(async () => {
  svc = await startCopyService({ adminKey: ADMIN });
  for (const [kind, { account }] of Object.entries(STREAMS))
    for (const [name, settings] of Object.entries(SETTINGS)) {
      const user = await loginCopyUser(svc);
      const created = await postJson(
        `${svc.url}/copy-trades`,
        tradeBody(svc, user, { account, ...settings }),
        { authorization: user.token },
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const startBalance = svc.service.db
        .prepare('SELECT balance FROM copy_wallets WHERE id = ?')
        .pluck()
        .get(user.walletId) as number;
      live[`${kind}|${name}`] = { tradeId: created.body.id as string, walletId: user.walletId, startBalance };
    }
  // The live engine fills at the last mark and looks for exits at every mark, as the backtest
  // does. The marks stream starts after the fills stream: the engine ignores a mark older than
  // the one it holds, and both streams trade the same tokens.
  let start = FROM + 60_000;
  for (const [kind, { account, seed }] of Object.entries(STREAMS)) {
    const events = stream(seed, account, kind === 'marks', start);
    for (const event of events) {
      if ('tick' in event) {
        const tick = await postJson(`${svc.url}/sandbox/prices`, { prices: [event.tick] }, admin);
        expect(tick.status).toBe(200);
        if (kind === 'marks')
          marks.set(event.tick.indexToken, [...(marks.get(event.tick.indexToken) ?? []), event.tick]);
      } else {
        const order = await postJson(`${svc.url}/sandbox/orders`, { orders: [event.order] }, admin);
        expect(order.status, JSON.stringify(order.body)).toBe(200);
      }
    }
    const last = events.at(-1)!;
    start = ('tick' in last ? last.tick.time : (last.order.blockTime as number)) + 3_600_000;
  }
  expect(start).toBeLessThan(TO);
});
afterAll(() => svc.close());

/** The backtest body of one live copy trade's settings. */
function bodyOf(kind: PathKind, name: keyof typeof SETTINGS, startBalance: number) {
  const { volume, ...rest } = SETTINGS[name];
  return {
    accounts: [STREAMS[kind].account],
    balance: startBalance,
    orderVolume: volume,
    fromTime: FROM,
    toTime: TO,
    ...rest,
  };
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;

describe('the live engine and the backtest, one order stream', () => {
  for (const kind of Object.keys(STREAMS) as PathKind[])
    for (const name of Object.keys(SETTINGS) as (keyof typeof SETTINGS)[]) {
      it(`${kind} path, ${name}: the same fills, positions, closes, skips and balance`, async () => {
        const { tradeId, walletId, startBalance } = live[`${kind}|${name}`]!;
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
        const body = backtestRequestSchema.parse(bodyOf(kind, name, startBalance));
        const stored = new StoredOrders(db);
        const trader = stored.trader(STREAMS[kind].account, P, TO);
        const seriesOf = (ticks: Tick[]) =>
          new PriceSeries(
            Float64Array.from(ticks, (t) => t.price),
            Float64Array.from(ticks, (t) => t.time),
          );
        const paths =
          kind === 'fills'
            ? pricePathsFor(trader, () => null, FROM, TO)
            : {
                kind: 'marks' as const,
                series: trader.tokens.map((t) => seriesOf(marks.get(t.indexToken)!)),
              };
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

        // Over HTTP, the route answers the same run on the fills path (the service stores no
        // history of the sandbox's marks).
        if (kind === 'marks') return;
        const res = await postJson(
          `${svc.url}/${P}/back-testing/multiple-order`,
          bodyOf(kind, name, startBalance),
          { 'x-api-key': apiKeyOf(svc) },
        );

        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const [result] = res.body as unknown as BacktestResult[];
        expect(result!.pricePath).toBe('fills');
        expect(result!.totalTrade).toBe(livePositions.length);
        expect(round(startBalance + result!.profit)).toBe(liveBalance);
        expect(result!.totalSkipped).toBe(failed);
      });
    }

  it('meets the rules it compares on both paths: stops, take profits, liquidations, increases, decreases, skips', () => {
    const db = svc.service.db;
    // The streams are only a good test if they make the engine use these rules.
    for (const { account } of Object.values(STREAMS)) {
      const closeTypes = db
        .prepare(
          'SELECT DISTINCT close_type FROM copy_positions WHERE copy_account = ? AND close_type IS NOT NULL ORDER BY 1',
        )
        .pluck()
        .all(account);
      expect(closeTypes).toEqual(
        expect.arrayContaining(['COPY_TRADE', 'LIQUIDATE', 'STOP_LOSS', 'TAKE_PROFIT']),
      );
    }
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
