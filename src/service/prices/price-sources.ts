// Where a token's past prices come from (docs/service.md, "Price candles"): the demo market's
// minute path and then the live market's stored minutes, else the fills the service stored for
// the token (every trader's orders, the venue feed's included), each followed by the token's last
// stored mark.
import type { CandleSource } from '../../shared/api/candles';
import { DemoMarks } from '../backtest/demo-marks';
import { LiveMarksReader, minuteOf, type LiveMinute } from '../market/simulator/live-marks';
import type { ServiceDb } from '../store/database';
import type { PricePoint } from './candle-building';

/** The prices of one token in a range, in time order, and where they came from. */
export interface PricesInRange {
  source: CandleSource;
  points: PricePoint[];
}

/** Reads a token's prices from the store (and, with the demo world, its market's minute paths). */
export class PriceSources {
  private readonly marks: DemoMarks;
  private readonly live: LiveMarksReader;
  private readonly symbolOf;
  private readonly fills;
  private readonly lastMark;

  constructor(db: ServiceDb, demo: boolean) {
    this.marks = new DemoMarks(db, demo);
    this.live = new LiveMarksReader(db);
    this.symbolOf = db.prepare<[string, string], { symbol: string }>(
      'SELECT symbol FROM tokens WHERE protocol = ? AND index_token = ? LIMIT 1',
    );
    // orders_time (protocol, block_time_ms) bounds the scan to the range.
    this.fills = db.prepare<[string, string, number, number], PricePoint>(
      `SELECT block_time_ms AS timeMs, price FROM orders
       WHERE protocol = ? AND index_token = ? AND block_time_ms >= ? AND block_time_ms < ?
       ORDER BY block_time_ms, log_id`,
    );
    this.lastMark = db.prepare<[string], PricePoint>(
      'SELECT time_ms AS timeMs, price FROM mark_prices WHERE index_token = ?',
    );
  }

  /** The token's symbol in `protocol`, or null when the protocol lists no such token. */
  symbol(protocol: string, indexToken: string): string | null {
    return this.symbolOf.get(protocol, indexToken)?.symbol ?? null;
  }

  /** Prices of `indexToken` (whose symbol is `symbol`) in [fromMs, toMs). */
  inRange(protocol: string, indexToken: string, symbol: string, fromMs: number, toMs: number): PricesInRange {
    const series = this.marks.series(symbol);
    let source: CandleSource = 'none';
    let points: PricePoint[] = [];
    if (series !== null && series.length > 0) {
      source = 'market';
      const first = Math.max(0, firstIndexAtOrAfter(series.startTimeMs, stepOf(series), fromMs));
      for (let i = first; i < series.length; i += 1) {
        const timeMs = series.time(i);
        if (timeMs >= toMs) break;
        points.push({ timeMs, price: series.values[i]! });
      }
      for (const m of this.live.minutes(symbol, minuteOf(fromMs), toMs))
        if (m.firstMs > series.endMs) points.push(...minutePoints(m));
    } else {
      points = this.fills.all(protocol, indexToken, fromMs, toMs);
      if (points.length > 0) source = 'fills';
    }
    // The live market and the venue feed keep only the latest mark: it ends the path when it is newer.
    const mark = this.lastMark.get(indexToken);
    const lastTime = points.at(-1)?.timeMs ?? -Infinity;
    if (mark && mark.timeMs >= fromMs && mark.timeMs < toMs && mark.timeMs > lastTime) {
      points.push(mark);
      if (source === 'none') source = 'market';
    }
    return { source, points };
  }
}

/**
 * A stored live minute as prices in time order: open at its first tick, low and high, close at
 * its last tick, so that candles of a minute or longer get its open, extremes and close.
 */
function minutePoints(m: LiveMinute): PricePoint[] {
  const mid = Math.floor((m.firstMs + m.lastMs) / 2);
  return [
    { timeMs: m.firstMs, price: m.open },
    { timeMs: mid, price: m.low },
    { timeMs: mid, price: m.high },
    { timeMs: m.lastMs, price: m.close },
  ];
}

/** The minute path's step (its points are evenly spaced). */
function stepOf(series: { length: number; time(i: number): number }): number {
  return series.length > 1 ? series.time(1) - series.time(0) : 1;
}

function firstIndexAtOrAfter(startMs: number, stepMs: number, timeMs: number): number {
  return Math.ceil((timeMs - startMs) / stepMs);
}
