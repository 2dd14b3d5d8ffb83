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
 * `point`, `mark`, `funding` are indexed by order; `bound`, `low`, `high` by token × n + order.
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
  /** Each token's last point at or before the order's delayed time (−1: before the path). */
  bound: Int32Array;
  /** Each token's min and max over its points after the previous order's bound up to this order's (±Infinity: none). */
  low: Float64Array;
  high: Float64Array;
  /** The same per token from the last replayed order's bound to toTime. */
  endBound: Int32Array;
  endLow: Float64Array;
  endHigh: Float64Array;
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
  const low = new Float64Array(tokens * n);
  const high = new Float64Array(tokens * n);
  const endBound = new Int32Array(tokens);
  const endLow = new Float64Array(tokens);
  const endHigh = new Float64Array(tokens);
  const pair = new Float64Array(2);
  for (let k = 0; k < tokens; k += 1) {
    const series = paths.series[k]!;
    const values = series.values;
    // Before the first order no copy is open: its range is empty.
    let previous = first < end ? series.indexAt(trader.time[first]! + delayMs) : -1;
    for (let i = first; i < end; i += 1) {
      const b = series.indexAt(trader.time[i]! + delayMs);
      extremes(values, previous, b, pair, 0);
      bound[k * n + i] = b;
      low[k * n + i] = pair[0]!;
      high[k * n + i] = pair[1]!;
      previous = b;
    }
    const last = series.indexAt(toTime);
    extremes(values, previous, last, pair, 0);
    endBound[k] = last;
    endLow[k] = pair[0]!;
    endHigh[k] = pair[1]!;
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
    bound,
    low,
    high,
    endBound,
    endLow,
    endHigh,
  };
}
