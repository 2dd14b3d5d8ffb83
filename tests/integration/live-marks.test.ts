// The live market's stored minutes (docs/simulator.md, "The live market's stored minutes") in the
// real service over HTTP, its clock running 20 times faster than the wall clock (a one-second
// tick is 20 s of market clock, three ticks a minute): the minutes are written, survive a
// restart (which leaves a gap), are pruned past 120 days, and are the backtest's price path and
// the candles after the seeded history (docs/backtest.md, Price path; docs/service.md, candles).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Backtests } from '../../src/service/backtest/backtests';
import { seedDemoWorld } from '../../src/service/market/simulator';
import type { LiveMinute } from '../../src/service/market/simulator/live-marks';
import { openServiceDatabase, type ServiceDb } from '../../src/service/store/database';
import { DEMO_SEED } from '../../src/service/preparation/demo-world';
import { backtestRequestSchema, type BacktestResult } from '../../src/shared/api/backtest';
import type { CandlesResponse } from '../../src/shared/api/candles';
import { expectAll } from '../support/expect-all';
import { apiKeyOf, call } from '../support/copy-session';
import { until } from '../support/feed-checks';
import { startTestService, type RunningService } from '../support/service';

const NOW = Date.UTC(2026, 2, 2, 12);
const MINUTE = 60_000;
const DAY = 86_400_000;
const SPEED = 20;
/** The clock is down this long across the restart: a gap of whole minutes. */
const GAP_MS = 10 * MINUTE;

let dir: string;
let dbPath: string;
let svc: RunningService;
let key: string;
let started = 0;
let offsetMs = 0;
/** The market's clock: from just after the seeding instant, 20 times the wall clock. */
const clockMs = () => NOW + 1_000 + (Date.now() - started) * SPEED + offsetMs;

const minutesOf = (db: ServiceDb) =>
  db
    .prepare(
      `SELECT symbol, minute_ms AS minuteMs, first_ms AS firstMs, last_ms AS lastMs, open, high, low, close
       FROM live_marks ORDER BY symbol, minute_ms`,
    )
    .all() as (LiveMinute & { symbol: string })[];

async function startLive(): Promise<RunningService> {
  const s = await startTestService({ dbPath, demo: true, live: true, now: () => new Date(clockMs()) });
  await until(
    'the live market',
    () => (s.service.db.prepare('SELECT MAX(time_ms) FROM mark_prices').pluck().get() as number) > NOW,
    60_000,
  );
  return s;
}

/** The last instant of the last minute written: orders up to it lie in stored minutes. */
const lastWritten = (db: ServiceDb) =>
  db.prepare('SELECT MAX(last_ms) FROM live_marks').pluck().get() as number;

/** Waits for the market to have stored minutes up to `minuteMs`. */
async function storedUpTo(s: RunningService, minuteMs: number): Promise<void> {
  const max = s.service.db.prepare('SELECT MAX(minute_ms) FROM live_marks').pluck();
  await until(
    `minutes up to ${new Date(minuteMs).toISOString()}`,
    () => (max.get() as number) >= minuteMs,
    90_000,
  );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'copydesk-live-marks-'));
  dbPath = join(dir, 'service.db');
  // The demo seed and length, fewer traders: the same price paths as `--demo`.
  const db = openServiceDatabase(dbPath);
  seedDemoWorld(db, { seed: DEMO_SEED, nowMs: NOW, traders: 60, days: 120 });
  db.close();
  started = Date.now();
  svc = await startLive();
  key = apiKeyOf(svc);
  // Nine whole minutes of live market (about 27 ticks).
  await storedUpTo(svc, Math.floor(NOW / MINUTE) * MINUTE + 9 * MINUTE);
}, 180_000);

afterAll(async () => {
  await svc?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the live market’s stored minutes', () => {
  it('hold every symbol’s minutes, and every live order lies in its minute', () => {
    const rows = minutesOf(svc.service.db);
    const symbols = new Set(rows.map((r) => r.symbol));
    expect(symbols.size).toBe(15);
    for (const r of rows) {
      expect(r.minuteMs % MINUTE).toBe(0);
      expect(r.firstMs).toBeGreaterThan(NOW);
      expect(r.firstMs).toBeGreaterThanOrEqual(r.minuteMs);
      expect(r.lastMs).toBeLessThan(r.minuteMs + MINUTE);
      expect(r.firstMs).toBeLessThanOrEqual(r.lastMs);
      expect(Math.min(r.open, r.close)).toBeGreaterThanOrEqual(r.low);
      expect(Math.max(r.open, r.close)).toBeLessThanOrEqual(r.high);
    }
    // Most minutes saw several ticks (the market moved inside them).
    expect(rows.filter((r) => r.lastMs > r.firstMs && r.high > r.low).length).toBeGreaterThan(
      rows.length / 2,
    );
    // The live traders open, increase and decrease at the tick's mark: inside the minute's low and high.
    const live = svc.service.db
      .prepare(
        `SELECT t.symbol, o.block_time_ms AS time, o.price FROM orders o
         JOIN tokens t ON t.protocol = o.protocol AND t.index_token = o.index_token
         WHERE o.block_time_ms > ? AND o.type IN ('OPEN', 'INCREASE', 'DECREASE')`,
      )
      .all(NOW) as { symbol: string; time: number; price: number }[];
    const byKey = new Map(rows.map((r) => [`${r.symbol}|${r.minuteMs}`, r]));
    const flushed = Math.max(...rows.map((r) => r.minuteMs));
    const checked = live.filter((o) => Math.floor(o.time / MINUTE) * MINUTE <= flushed);
    expect(checked.length).toBeGreaterThan(10);
    for (const o of checked) {
      const m = byKey.get(`${o.symbol}|${Math.floor(o.time / MINUTE) * MINUTE}`);
      expect(m, `${o.symbol} ${o.time}`).toBeDefined();
      expect(o.time).toBeGreaterThanOrEqual(m!.firstMs);
      expect(o.time).toBeLessThanOrEqual(m!.lastMs);
      expect(o.price).toBeGreaterThanOrEqual(m!.low);
      expect(o.price).toBeLessThanOrEqual(m!.high);
    }
  });

  it('are the candles after the seeded history', async () => {
    const token = svc.service.db
      .prepare("SELECT protocol, index_token AS indexToken FROM tokens WHERE symbol = 'BTC' LIMIT 1")
      .get() as { protocol: string; indexToken: string };
    const stored = minutesOf(svc.service.db).filter((r) => r.symbol === 'BTC');
    const from = Math.floor(NOW / MINUTE) * MINUTE - 30 * MINUTE;
    const to = stored.at(-1)!.minuteMs + MINUTE;
    const res = await call<CandlesResponse>(
      svc,
      'GET',
      `/prices/${token.protocol}/${token.indexToken}/candles?from=${from}&to=${to}&interval=1m`,
      { headers: { 'x-api-key': key } },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.source).toBe('market');
    // The seeded minutes before, then one candle per stored minute after the seeding minute.
    expect(res.body.candles.filter((c) => c.time < NOW)).toHaveLength(30);
    const after = res.body.candles.filter((c) => c.time > NOW);
    const expected = stored
      .filter((m) => m.minuteMs > NOW)
      .map((m) => ({ time: m.minuteMs, open: m.open, high: m.high, low: m.low, close: m.close }));
    expect(expected.length).toBeGreaterThanOrEqual(8);
    expect(after).toEqual(expected);
  });

  it('are the backtest’s price path: a stop loss on a live move between two orders', async () => {
    const db = svc.service.db;
    const toTime = lastWritten(db);
    const traders = db
      .prepare(
        `SELECT account, protocol FROM orders WHERE block_time_ms > ? AND block_time_ms <= ?
         GROUP BY account, protocol ORDER BY COUNT(*) DESC LIMIT 8`,
      )
      .all(NOW, toTime) as { account: string; protocol: string }[];
    expect(traders.length).toBeGreaterThan(2);
    const body = {
      fromTime: NOW - 2 * DAY,
      toTime,
      leverage: 50,
      enableStopLoss: true,
      stopLossType: 'PERCENT',
      stopLossAmount: 5,
      isReturnPositions: true,
    };
    let liveStops = 0;
    for (const { account, protocol } of traders) {
      const res = await call<BacktestResult[]>(svc, 'POST', `/${protocol}/back-testing/multiple-order`, {
        headers: { 'x-api-key': key },
        body: { ...body, accounts: [account] },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const result = res.body[0]!;
      // Seeded orders on the regenerated path, live ones inside their minutes: the marks.
      expect(result.pricePath, account).toBe('marks');
      const orderTimes = new Set(
        (
          db
            .prepare('SELECT block_time_ms FROM orders WHERE account = ? AND protocol = ?')
            .pluck()
            .all(account, protocol) as number[]
        ).map(Number),
      );
      for (const p of result.simulatorPositions ?? []) {
        // Between two of the trader's orders: an instant of the minutes' path, not a fill.
        if (
          p.closeReason === 'STOP_LOSS' &&
          p.position.closeTime > NOW &&
          !orderTimes.has(p.position.closeTime)
        )
          liveStops += 1;
      }
      // On the fills only (no demo marks), no stop is hit between the trader's orders.
      const fills = new Backtests(db, { demo: false, nowMs: clockMs }).multipleOrder(
        protocol,
        backtestRequestSchema.parse({ ...body, accounts: [account] }),
      )[0]!;
      expect(fills.pricePath).toBe('fills');
      for (const p of fills.simulatorPositions ?? [])
        if (p.closeReason === 'STOP_LOSS') expect(orderTimes.has(p.position.closeTime)).toBe(true);
    }
    expect(liveStops).toBeGreaterThan(0);
  });

  it('survive a restart, which leaves a gap; the old ones are pruned', async () => {
    const before = minutesOf(svc.service.db);
    await svc.close();
    // The partial minute was written on stop: its close is the last mark the market wrote.
    const db = openServiceDatabase(dbPath);
    const stopped = minutesOf(db);
    const lastMark = db
      .prepare(
        "SELECT price, time_ms AS timeMs FROM mark_prices WHERE index_token = (SELECT index_token FROM tokens WHERE symbol = 'BTC' LIMIT 1)",
      )
      .get() as { price: number; timeMs: number };
    const lastBtc = stopped.filter((r) => r.symbol === 'BTC').at(-1)!;
    expect(lastBtc.lastMs).toBe(lastMark.timeMs);
    expect(lastBtc.close).toBe(lastMark.price);
    // A minute older than 120 days, one younger: the first is pruned at the next write.
    const insert = db.prepare(
      'INSERT INTO live_marks (symbol, minute_ms, first_ms, last_ms, open, high, low, close) VALUES (?, ?, ?, ?, 1, 1, 1, 1)',
    );
    const old = Math.floor((clockMs() + GAP_MS - 121 * DAY) / MINUTE) * MINUTE;
    const young = Math.floor((clockMs() + GAP_MS - 119 * DAY) / MINUTE) * MINUTE;
    insert.run('ETH', old, old, old);
    insert.run('ETH', young, young, young);
    db.close();

    offsetMs += GAP_MS;
    const stopMinute = lastBtc.minuteMs;
    svc = await startLive();
    key = apiKeyOf(svc);
    await storedUpTo(svc, stopMinute + GAP_MS + 3 * MINUTE);
    const after = minutesOf(svc.service.db);
    const keyOf = (r: LiveMinute & { symbol: string }) => `${r.symbol}|${r.minuteMs}`;
    const now = new Map(after.map((r) => [keyOf(r), r]));
    // Every minute written before the restart is still there (the stop minute may have grown).
    const kept = before.filter((m) => m.minuteMs < stopMinute);
    expect(kept.length).toBeGreaterThan(0);
    for (const r of kept) expect(now.get(keyOf(r))).toEqual(r);
    expect(now.has(`ETH|${old}`)).toBe(false);
    expect(now.has(`ETH|${young}`)).toBe(true);
    // The gap: no minute while the service was down, then minutes again.
    const btc = after.filter((r) => r.symbol === 'BTC' && r.minuteMs > NOW);
    const next = btc.find((r) => r.minuteMs > stopMinute);
    expect(next!.minuteMs - stopMinute).toBeGreaterThanOrEqual(GAP_MS);
  }, 180_000);

  it('walk a backtest and candles across the restart gap', async () => {
    const db = svc.service.db;
    const toTime = lastWritten(db);
    const trader = db
      .prepare(
        `SELECT account, protocol FROM orders WHERE block_time_ms > ? AND block_time_ms <= ?
         GROUP BY account, protocol ORDER BY COUNT(*) DESC LIMIT 1`,
      )
      .get(NOW, toTime) as { account: string; protocol: string };
    const res = await call<BacktestResult[]>(svc, 'POST', `/${trader.protocol}/back-testing/multiple-order`, {
      headers: { 'x-api-key': key },
      body: { accounts: [trader.account], fromTime: NOW - DAY, toTime, leverage: 20 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The market did not move while the service was down: the path holds the last mark across it.
    expect(res.body[0]!.pricePath).toBe('marks');
    const token = db
      .prepare("SELECT protocol, index_token AS indexToken FROM tokens WHERE symbol = 'BTC' LIMIT 1")
      .get() as { protocol: string; indexToken: string };
    const from = Math.floor(NOW / MINUTE) * MINUTE + MINUTE;
    const candles = await call<CandlesResponse>(
      svc,
      'GET',
      `/prices/${token.protocol}/${token.indexToken}/candles?from=${from}&to=${from + 1_000 * MINUTE}&interval=1m`,
      { headers: { 'x-api-key': key } },
    );
    expect(candles.status).toBe(200);
    const stored = new Set(
      minutesOf(svc.service.db)
        .filter((r) => r.symbol === 'BTC' && r.minuteMs >= from)
        .map((r) => r.minuteMs),
    );
    // No candle is invented in the gap: every candle but the running minute's is a stored minute.
    const times = candles.body.candles.map((c) => c.time);
    expectAll(times.slice(0, -1), (t) => stored.has(t));
    expect(times.length).toBeGreaterThanOrEqual(stored.size);
  });
});
