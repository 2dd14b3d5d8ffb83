// The live market's marks, kept per symbol per minute (docs/simulator.md, "The live market's
// stored minutes"): every tick updates a minute in memory, and the finished minute of every symbol
// is written in one transaction when the clock enters the next, so the tick itself writes nothing
// more. Kept as long as the seeded history (120 days) and pruned beyond; the backtest and the
// candles endpoint read them after the seeded history ends (docs/backtest.md, Price path).
import type { Statement } from 'better-sqlite3';
import type { ServiceDb } from '../../store/database';
import { STEP_MS } from './parameters';

/** How long the minutes are kept: as long as the seeded history the backtest walks. */
export const LIVE_MARKS_DAYS = 120;
const RETENTION_MS = LIVE_MARKS_DAYS * 86_400_000;

/** One symbol's marks in one minute: the first and last tick's instants, and the prices. */
export interface LiveMinute {
  /** The minute's opening instant (a multiple of 60,000 ms since the epoch). */
  minuteMs: number;
  /** The instants of the first and last tick of the minute. */
  firstMs: number;
  lastMs: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

/** The minute a time falls in. */
export function minuteOf(timeMs: number): number {
  return Math.floor(timeMs / STEP_MS) * STEP_MS;
}

/** Collects the live market's marks per minute and writes each finished minute in one transaction. */
export class LiveMarksRecorder {
  private readonly current = new Map<string, LiveMinute>();
  private minuteMs: number | null = null;
  private readonly upsert: Statement<[string, number, number, number, number, number, number, number]>;
  private readonly prune: Statement<[string, number]>;

  constructor(private readonly db: ServiceDb) {
    // A minute written twice (a restart inside it) is merged: earliest open, latest close, extremes.
    // SQLite evaluates every SET expression against the row as it was.
    this.upsert = db.prepare(
      `INSERT INTO live_marks (symbol, minute_ms, first_ms, last_ms, open, high, low, close)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(symbol, minute_ms) DO UPDATE SET
         open = CASE WHEN excluded.first_ms < first_ms THEN excluded.open ELSE open END,
         close = CASE WHEN excluded.last_ms >= last_ms THEN excluded.close ELSE close END,
         first_ms = MIN(first_ms, excluded.first_ms),
         last_ms = MAX(last_ms, excluded.last_ms),
         high = MAX(high, excluded.high),
         low = MIN(low, excluded.low)`,
    );
    this.prune = db.prepare('DELETE FROM live_marks WHERE symbol = ? AND minute_ms < ?');
  }

  /**
   * A tick's mark of `symbol` at `timeMs`. Ticks come in time order; the first tick of a new
   * minute writes the previous one first.
   */
  record(symbol: string, price: number, timeMs: number): void {
    const minuteMs = minuteOf(timeMs);
    if (this.minuteMs !== minuteMs) {
      if (this.minuteMs !== null && minuteMs < this.minuteMs) return; // a clock gone back: ignored
      this.flush();
      this.minuteMs = minuteMs;
    }
    const m = this.current.get(symbol);
    if (m === undefined) {
      this.current.set(symbol, {
        minuteMs,
        firstMs: timeMs,
        lastMs: timeMs,
        open: price,
        high: price,
        low: price,
        close: price,
      });
      return;
    }
    m.lastMs = timeMs;
    m.close = price;
    if (price > m.high) m.high = price;
    if (price < m.low) m.low = price;
  }

  /**
   * Writes the minute being collected (all symbols, one transaction) and prunes what is older
   * than the retention; the market calls it at each new minute and when it stops.
   */
  flush(): void {
    if (this.current.size === 0) return;
    const minutes = [...this.current.entries()];
    this.current.clear();
    const cutoff = minutes[0]![1].minuteMs - RETENTION_MS;
    this.db.transaction(() => {
      for (const [symbol, m] of minutes) {
        this.upsert.run(symbol, m.minuteMs, m.firstMs, m.lastMs, m.open, m.high, m.low, m.close);
        this.prune.run(symbol, cutoff);
      }
    })();
  }
}

/** Reads a symbol's stored minutes (the primary key orders them by time). */
export class LiveMarksReader {
  private readonly range;

  constructor(db: ServiceDb) {
    this.range = db.prepare<[string, number, number], LiveMinute>(
      `SELECT minute_ms AS minuteMs, first_ms AS firstMs, last_ms AS lastMs, open, high, low, close
       FROM live_marks WHERE symbol = ? AND minute_ms >= ? AND minute_ms < ? ORDER BY minute_ms`,
    );
  }

  /** The minutes of `symbol` opening in [fromMs, toMs), in time order. */
  minutes(symbol: string, fromMs: number, toMs: number): LiveMinute[] {
    return this.range.all(symbol, fromMs, toMs);
  }
}
