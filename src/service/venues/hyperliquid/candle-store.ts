// The venue's candles as stored (migration 11): each candle by (coin, interval, opening instant),
// and the ranges of opening instants fetched whole, merged, so that a window is asked of the venue
// once (docs/venue-feed.md, Candles).
import { prepareCached } from '../../../node/sqlite';
import type { ServiceDb } from '../../store/database';
import type { VenueCandle } from './venue-candle-page';

/** A range of opening instants, [fromMs, toMs). */
export type TimeRange = [fromMs: number, toMs: number];

/** One venue's stored candles. */
export class CandleStore {
  constructor(
    private readonly db: ServiceDb,
    private readonly venue: string,
  ) {}

  /**
   * Stores one answer's candles (a refetched candle replaces the stored one: the last candle of a
   * range that reached the present was still open) and marks `covered` fetched, in one
   * transaction: a range is never marked without its candles.
   */
  put(coin: string, interval: string, candles: readonly VenueCandle[], covered: TimeRange | null): void {
    const insert = prepareCached(
      this.db,
      `INSERT OR REPLACE INTO venue_candles (venue, coin, interval, time_ms, open, high, low, close, volume, trades)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.db.transaction(() => {
      for (const c of candles)
        insert.run(this.venue, coin, interval, c.timeMs, c.open, c.high, c.low, c.close, c.volume, c.trades);
      if (covered !== null && covered[1] > covered[0]) this.cover(coin, interval, covered);
    })();
  }

  /** The parts of [fromMs, toMs) not fetched yet, in time order. */
  missing(coin: string, interval: string, fromMs: number, toMs: number): TimeRange[] {
    const gaps: TimeRange[] = [];
    let at = fromMs;
    for (const [from, to] of this.ranges(coin, interval, fromMs, toMs)) {
      if (from > at) gaps.push([at, Math.min(from, toMs)]);
      at = Math.max(at, to);
      if (at >= toMs) break;
    }
    if (at < toMs) gaps.push([at, toMs]);
    return gaps;
  }

  /** The stored candles opening in [fromMs, toMs), in time order. */
  read(coin: string, interval: string, fromMs: number, toMs: number): VenueCandle[] {
    return prepareCached(
      this.db,
      `SELECT time_ms AS timeMs, open, high, low, close, volume, trades FROM venue_candles
       WHERE venue = ? AND coin = ? AND interval = ? AND time_ms >= ? AND time_ms < ? ORDER BY time_ms`,
    ).all(this.venue, coin, interval, fromMs, toMs) as VenueCandle[];
  }

  /** Fetched ranges that touch [fromMs, toMs), in time order (they never overlap: `cover` merges). */
  private ranges(coin: string, interval: string, fromMs: number, toMs: number): TimeRange[] {
    const rows = prepareCached(
      this.db,
      `SELECT from_ms AS fromMs, to_ms AS toMs FROM venue_candle_ranges
       WHERE venue = ? AND coin = ? AND interval = ? AND to_ms >= ? AND from_ms <= ? ORDER BY from_ms`,
    ).all(this.venue, coin, interval, fromMs, toMs) as { fromMs: number; toMs: number }[];
    return rows.map((r) => [r.fromMs, r.toMs]);
  }

  /** Marks [from, to) fetched, merged with the ranges it touches into one row. */
  private cover(coin: string, interval: string, [from, to]: TimeRange): void {
    const touching = this.ranges(coin, interval, from, to);
    const merged: TimeRange = [
      Math.min(from, ...touching.map((r) => r[0])),
      Math.max(to, ...touching.map((r) => r[1])),
    ];
    const drop = prepareCached(
      this.db,
      'DELETE FROM venue_candle_ranges WHERE venue = ? AND coin = ? AND interval = ? AND from_ms = ?',
    );
    for (const [start] of touching) drop.run(this.venue, coin, interval, start);
    prepareCached(
      this.db,
      'INSERT INTO venue_candle_ranges (venue, coin, interval, from_ms, to_ms) VALUES (?, ?, ?, ?, ?)',
    ).run(this.venue, coin, interval, merged[0], merged[1]);
  }
}
