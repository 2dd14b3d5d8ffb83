// What every configuration with one delay sees of the price path at the orders it replays,
// computed once per trader and delay and shared by a sweep's configurations (docs/backtest.md,
// Speed): the point and price at each delayed fill, the funding index then, and, per token, the
// lowest and highest price the path takes between one order and the next, so that a replay finds
// its stops, take profits and liquidations by comparing two numbers per open copy and order
// instead of searching the path after every fill.
import type { PriceSeries } from './price-series';
import type { TraderOrders } from './trader-orders';

/** The prices between orders, one series per token of the trader, and where they came from. */
export interface PricePaths {
  kind: 'marks' | 'fills';
  series: readonly PriceSeries[];
}

/**
 * The path as seen from the orders of [fromTime, toTime] after `delayMs`. Orders `first` to
 * `end − 1` are replayed (`end`: the first whose time or delayed time passes toTime). Arrays
 * `point`, `mark`, `funding` are indexed by order; `bound` by order × tokens + token, and
 * `range` holds the min and max at twice that: one order's figures for every token sit together,
 * as a replay reads them.
 */
export interface DelayedMarks {
  delayMs: number;
  fromTime: number;
  toTime: number;
  first: number;
  end: number;
  /** The order's own token's last path point at or before its delayed time (−1: before the path). */
  point: Int32Array;
  /** The price there, or the order's own price before the path. */
  mark: Float64Array;
  /** The order's own token's cumulative funding rate at its delayed time. */
  funding: Float64Array;
  tokens: number;
  /** Each token's last point at or before the order's delayed time (−1: before the path). */
  bound: Int32Array;
  /** Each token's min and max over its points after the previous order's bound up to this order's (Infinity, −Infinity: none). */
  range: Float64Array;
  /** The same per token from the last replayed order's bound to toTime. */
  endBound: Int32Array;
  endRange: Float64Array;
}

/** The extremes of `values` over (from, to]: [Infinity, −Infinity] when empty. */
function extremes(values: Float64Array, from: number, to: number, out: Float64Array, at: number): void {
  let low = Infinity;
  let high = -Infinity;
  for (let j = from + 1; j <= to; j += 1) {
    const v = values[j]!;
    if (v < low) low = v;
    if (v > high) high = v;
  }
  out[at] = low;
  out[at + 1] = high;
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
  const tokens = paths.series.length;
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
  const bound = new Int32Array(tokens * n);
  const range = new Float64Array(2 * tokens * n);
  const endBound = new Int32Array(tokens);
  const endRange = new Float64Array(2 * tokens);
  for (let k = 0; k < tokens; k += 1) {
    const series = paths.series[k]!;
    const values = series.values;
    // Before the first order no copy is open: its range is empty.
    let previous = first < end ? series.indexAt(trader.time[first]! + delayMs) : -1;
    for (let i = first; i < end; i += 1) {
      const b = series.indexAt(trader.time[i]! + delayMs);
      bound[i * tokens + k] = b;
      extremes(values, previous, b, range, 2 * (i * tokens + k));
      previous = b;
    }
    const last = series.indexAt(toTime);
    endBound[k] = last;
    extremes(values, previous, last, endRange, 2 * k);
  }
  return {
    delayMs,
    fromTime,
    toTime,
    first,
    end,
    point,
    mark,
    funding,
    tokens,
    bound,
    range,
    endBound,
    endRange,
  };
}
