// The live market's minute store (docs/simulator.md, "The live market's stored minutes") and the
// demo path past the seeded history built on it (docs/backtest.md, Price path), on an in-memory
// store with hand-written ticks and orders.
import { describe, expect, it } from 'vitest';
import { DemoMarks } from '../../../../../src/service/backtest/demo-marks';
import { traderOf } from '../../../../../src/service/backtest/trader-orders';
import type { SourceOrder } from '../../../../../src/service/copy-engine/types';
import { LiveMarksRecorder, type LiveMinute } from '../../../../../src/service/market/simulator/live-marks';
import { openServiceDatabase, type ServiceDb } from '../../../../../src/service/store/database';
import { writeMeta } from '../../../../../src/service/store/meta';

const MINUTE = 60_000;
const DAY = 86_400_000;
const T = Date.UTC(2026, 2, 2, 12);

const rows = (db: ServiceDb) =>
  db
    .prepare(
      `SELECT symbol, minute_ms AS minuteMs, first_ms AS firstMs, last_ms AS lastMs, open, high, low, close
       FROM live_marks ORDER BY symbol, minute_ms`,
    )
    .all() as (LiveMinute & { symbol: string })[];

describe('LiveMarksRecorder', () => {
  it('writes a minute when the next begins, all symbols at once', () => {
    const db = openServiceDatabase(':memory:');
    const rec = new LiveMarksRecorder(db);
    const ticks: [number, number, number][] = [
      [T + 1_000, 100, 10],
      [T + 21_000, 104, 9],
      [T + 41_000, 98, 11],
      [T + 59_000, 101, 10.5],
    ];
    for (const [t, a, b] of ticks) {
      rec.record('AAA', a, t);
      rec.record('BBB', b, t);
    }
    expect(rows(db)).toEqual([]);
    rec.record('AAA', 102, T + MINUTE + 1_000);
    expect(rows(db)).toEqual([
      {
        symbol: 'AAA',
        minuteMs: T,
        firstMs: T + 1_000,
        lastMs: T + 59_000,
        open: 100,
        high: 104,
        low: 98,
        close: 101,
      },
      {
        symbol: 'BBB',
        minuteMs: T,
        firstMs: T + 1_000,
        lastMs: T + 59_000,
        open: 10,
        high: 11,
        low: 9,
        close: 10.5,
      },
    ]);
  });

  it('merges a minute written twice (a restart inside it) and ignores a clock gone back', () => {
    const db = openServiceDatabase(':memory:');
    const first = new LiveMarksRecorder(db);
    first.record('AAA', 100, T + 10_000);
    first.record('AAA', 90, T + 20_000);
    first.flush();
    const second = new LiveMarksRecorder(db);
    second.record('AAA', 95, T + 40_000);
    second.record('AAA', 120, T + 50_000);
    second.record('AAA', 110, T + 55_000);
    second.record('AAA', 1, T - 5 * MINUTE);
    second.flush();
    expect(rows(db)).toEqual([
      {
        symbol: 'AAA',
        minuteMs: T,
        firstMs: T + 10_000,
        lastMs: T + 55_000,
        open: 100,
        high: 120,
        low: 90,
        close: 110,
      },
    ]);
  });

  it('prunes the minutes older than 120 days at each write', () => {
    const db = openServiceDatabase(':memory:');
    const insert = db.prepare('INSERT INTO live_marks VALUES (?, ?, ?, ?, 1, 1, 1, 1)');
    for (const age of [121 * DAY, 120 * DAY + MINUTE, 120 * DAY, 30 * DAY])
      insert.run('AAA', T - age, T - age, T - age);
    const rec = new LiveMarksRecorder(db);
    rec.record('AAA', 5, T + 1_000);
    rec.flush();
    expect(rows(db).map((r) => T - r.minuteMs)).toEqual([120 * DAY, 30 * DAY, 0]);
  });
});

describe('the demo path past the seeded history', () => {
  const BTC = '0x' + 'b'.repeat(40);
  let n = 0;
  const order = (
    type: SourceOrder['type'],
    blockTimeMs: number,
    price: number,
    isLiquidate = false,
  ): SourceOrder => ({
    id: `o${(n += 1)}`,
    account: '0x' + 'a'.repeat(40),
    protocol: 'TEST',
    indexToken: BTC,
    isLong: true,
    type,
    sizeDeltaUsd: 1_000,
    collateralDeltaUsd: 100,
    sizeBeforeUsd: type === 'OPEN' ? 0 : 1_000,
    collateralBeforeUsd: type === 'OPEN' ? 0 : 100,
    price,
    blockTimeMs,
    txHash: `0x${n}`,
    isLiquidate,
  });
  const traderWith = (orders: SourceOrder[]) =>
    traderOf(orders[0]!.account, 'TEST', orders, (indexToken) => ({
      indexToken,
      pair: 'BTC/USD',
      maxLeverage: 50,
    }));

  /** A store seeded at T (no world: the demo path is rebuilt from the seed) and two live minutes. */
  function store(): ServiceDb {
    const db = openServiceDatabase(':memory:');
    writeMeta(db, 'statistics_as_of', new Date(T).toISOString());
    const rec = new LiveMarksRecorder(db);
    for (const [t, price] of [
      [T + 5_000, 50_000],
      [T + 25_000, 49_000],
      [T + 45_000, 50_500],
      [T + MINUTE + 5_000, 50_400],
      [T + MINUTE + 30_000, 51_000],
    ] as const)
      rec.record('BTC', price, t);
    rec.flush();
    return db;
  }

  it('walks the live minutes with the trader’s own fills at their instants', () => {
    const history = new DemoMarks(store(), true).series('BTC')!;
    expect(history.endMs).toBe(T);
    const seeded = history.priceAt(T - DAY);
    const trader = traderWith([
      order('OPEN', T - DAY, seeded),
      order('INCREASE', T + 25_000, 49_500),
      order('CLOSE', T + MINUTE + 30_000, 51_000),
    ]);
    const path = history.pathFor(trader, 0, T - 2 * DAY, T + 2 * MINUTE)!;
    expect(path).not.toBeNull();
    expect(path.priceAt(T - DAY)).toBe(seeded);
    expect(path.priceAt(T)).toBe(history.priceAt(T));
    // The first minute: open 50,000 at its first tick, then the low 49,000 (it closed up, so the
    // low comes first), the high, the close at its last tick; the trader's increase at its instant.
    expect(path.priceAt(T + 5_000)).toBe(50_000);
    expect(path.priceAt(T + 20_000)).toBe(49_000);
    expect(path.priceAt(T + 25_000)).toBe(49_500);
    expect(path.priceAt(T + 40_000)).toBe(50_500);
    expect(path.priceAt(T + 45_000)).toBe(50_500);
    expect(path.priceAt(T + MINUTE + 30_000)).toBe(51_000);
    // Past the window's start only: nothing earlier is walked.
    expect(path.startTimeMs).toBeLessThanOrEqual(T - 2 * DAY);
    expect(path.startTimeMs).toBeGreaterThan(T - 2 * DAY - MINUTE);
    // Funding goes on after the seeded end at the symbol's mean rate.
    expect(path.fundingAt(T + DAY)).toBeGreaterThan(path.fundingAt(T));
    // A window inside the seeded history is the seeded path itself.
    expect(history.pathFor(trader, 0, T - 2 * DAY, T)).toBe(history);
  });

  it('is refused when a live order is outside its minute, or in a minute not stored', () => {
    const history = new DemoMarks(store(), true).series('BTC')!;
    const window = [T - DAY, T + 10 * MINUTE] as const;
    const above = traderWith([order('OPEN', T + 25_000, 50_600)]);
    expect(history.pathFor(above, 0, ...window)).toBeNull();
    const missing = traderWith([order('OPEN', T + 5 * MINUTE, 50_000)]);
    expect(history.pathFor(missing, 0, ...window)).toBeNull();
    const inside = traderWith([order('OPEN', T + 25_000, 50_200)]);
    expect(history.pathFor(inside, 0, ...window)).not.toBeNull();
    // A liquidation fills at its own price, not a mark: it is neither checked nor put in the path.
    const liquidated = traderWith([
      order('OPEN', T + 25_000, 50_200),
      order('CLOSE', T + 45_000, 40_000, true),
    ]);
    expect(history.pathFor(liquidated, 0, ...window)!.priceAt(T + 45_000)).toBe(50_500);
  });
});
