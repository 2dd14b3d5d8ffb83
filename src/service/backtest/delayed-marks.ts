// What every configuration with one delay sees of the price path at the orders it replays,
// computed once per trader and delay and shared by a sweep's configurations (docs/backtest.md,
// Speed): the point and price at each delayed fill, the funding index then, and the lowest and
// highest price of the stretch of the order's token's path up to the next order on that token,
// so that a replay learns whether a copy can exit before that order by comparing two numbers,
// and searches the path only when it does.
import { extremesOf, stretchExtremes, type PathExtremes } from './path-extremes';
import type { PriceSeries } from './price-series';
import type { TraderOrders } from './trader-orders';

/** The prices between orders, one series per token of the trader, and where they came from. */
export interface PricePaths {
  kind: 'marks' | 'fills';
  series: readonly PriceSeries[];
}

/**
 * The path as seen from the orders of [fromTime, toTime] after `delayMs`. Orders `first` to
 * `end − 1` are replayed (`end`: the first whose time or delayed time passes toTime); the arrays
 * are indexed by order.
 */
export interface DelayedMarks {
  delayMs: number;
  fromTime: number;
  toTime: number;
  first: number;
  end: number;
  /** The order's token's last path point at or before its delayed time (−1: before the path). */
  point: Int32Array;
  /** The price there, or the order's own price before the path. */
  mark: Float64Array;
  /** The order's token's cumulative funding rate at its delayed time. */
  funding: Float64Array;
  /** The last point of the order's stretch: the next order on its token's point, or toTime's. */
  stretchEnd: Int32Array;
  /**
   * The min and max of points (point, stretchEnd] at 2 × order and after (Infinity, −Infinity:
   * none), filled in by `stretchOf` when first asked: a single run needs only the stretches where
   * a copy is open, a sweep's later configurations find them filled.
   */
  stretch: Float64Array;
  /** Each token's path extremes, to search a stretch that crosses. */
  extremes: PathExtremes[];
}

/** The orders' marks after `delayMs` for a replay of [fromTime, toTime]. */
export function delayedMarks(
  trader: TraderOrders,
  paths: PricePaths,
  delayMs: number,
  fromTime: number,
  toTime: number,
): DelayedMarks {
  const n = trader.n;
  const first = trader.firstAtOrAfter(fromTime);
  let end = first;
  while (end < n && trader.time[end]! <= toTime && trader.time[end]! + delayMs <= toTime) end += 1;
  const point = new Int32Array(n);
  const mark = new Float64Array(n);
  const funding = new Float64Array(n);
  for (let i = first; i < end; i += 1) {
    const at = trader.time[i]! + delayMs;
    const series = paths.series[trader.token[i]!]!;
    const k = series.indexAt(at);
    point[i] = k;
    mark[i] = k < 0 || Number.isNaN(series.values[k]!) ? trader.price[i]! : series.values[k]!;
    funding[i] = series.fundingAt(at);
  }
  const extremes = paths.series.map((series) => extremesOf(series.values));
  const stretchEnd = new Int32Array(n);
  const stretch = new Float64Array(2 * n).fill(NaN);
  // Backwards: each token's next order's point, starting from toTime's.
  const next = Int32Array.from(paths.series, (series) => series.indexAt(toTime));
  for (let i = end - 1; i >= first; i -= 1) {
    const k = trader.token[i]!;
    stretchEnd[i] = next[k]!;
    next[k] = point[i]!;
  }
  return { delayMs, fromTime, toTime, first, end, point, mark, funding, stretchEnd, stretch, extremes };
}

/** Order i's stretch's min and max, at marks.stretch[2i] and [2i + 1]: computed once, then kept. */
export function stretchOf(marks: DelayedMarks, trader: TraderOrders, i: number): void {
  if (!Number.isNaN(marks.stretch[2 * i]!)) return;
  const k = trader.token[i]!;
  stretchExtremes(marks.extremes[k]!, marks.point[i]! + 1, marks.stretchEnd[i]!, marks.stretch, 2 * i);
}
