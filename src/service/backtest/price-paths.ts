// Which price path a trader's backtest walks: the stored mark history when it covers every token
// the trader traded in the window (and agrees with the trader's own prices there) — the demo
// market's marks, or a venue feed's candles — else the trader's own fill prices
// (docs/backtest.md, Price path).
import { candlePath, type PathCandle } from '../prices/candle-path';
import { DemoMarkHistory } from './demo-marks';
import type { PriceSeries } from './price-series';
import type { PricePaths } from './simulate';
import { ORDER_CODE, type TraderOrders } from './trader-orders';

/** Relative difference under which a mark and a fill price are the same price. */
const SAME_PRICE = 1e-9;

/** The tokens of the trader's orders from index `first` through `toTime`. */
function tokensTraded(trader: TraderOrders, first: number, toTime: number): Set<number> {
  const used = new Set<number>();
  for (let i = first; i < trader.n && trader.time[i]! <= toTime; i += 1) used.add(trader.token[i]!);
  return used;
}

/**
 * The window's paths when `pathOf` gives one for every token the trader traded in it (it answers
 * null for a token whose path is missing or disagrees with the trader's prices), else the fills:
 * one honest word for the whole run (docs/backtest.md, Price path).
 */
function pathsOrFills(
  trader: TraderOrders,
  fromTime: number,
  toTime: number,
  pathOf: (k: number, first: number) => PriceSeries | null,
): PricePaths {
  const first = trader.firstAtOrAfter(fromTime);
  const used = tokensTraded(trader, first, toTime);
  if (used.size === 0) return { kind: 'fills', series: trader.fills };
  const series = trader.fills.slice();
  for (const k of used) {
    const path = pathOf(k, first);
    if (path === null) return { kind: 'fills', series: trader.fills };
    series[k] = path;
  }
  return { kind: 'marks', series };
}

/** The paths of `trader` over [fromTime, toTime]; `marks` gives a token's mark history, if any. */
export function pricePathsFor(
  trader: TraderOrders,
  marks: (pair: string) => PriceSeries | null,
  fromTime: number,
  toTime: number,
): PricePaths {
  return pathsOrFills(trader, fromTime, toTime, (k, first) => {
    const mark = marks(trader.tokens[k]!.pair);
    // The demo marks past the seeded history are the live market's stored minutes (demo-marks.ts).
    const path = mark instanceof DemoMarkHistory ? mark.pathFor(trader, k, fromTime, toTime) : mark;
    return path !== null && agrees(trader, k, path, first, toTime) ? path : null;
  });
}

/**
 * Whether `path` spans the window's orders on token k and reproduces their prices (closes are
 * left out: a liquidation fills at the liquidation price, not the mark).
 */
function agrees(trader: TraderOrders, k: number, path: PriceSeries, first: number, toTime: number): boolean {
  for (let i = first; i < trader.n && trader.time[i]! <= toTime; i += 1) {
    if (trader.token[i] !== k) continue;
    const t = trader.time[i]!;
    if (t < path.startTimeMs || t > path.endMs) return false;
    if (trader.type[i] === ORDER_CODE.CLOSE || trader.type[i] === ORDER_CODE.MARGIN_TRANSFERRED) continue;
    const mark = path.priceAt(t);
    const price = trader.price[i]!;
    if (!(Math.abs(mark - price) <= SAME_PRICE * price)) return false;
  }
  return true;
}

/** A token's venue candles over a window: every closed one, each `intervalMs` long. */
export interface WindowCandles {
  intervalMs: number;
  candles: readonly PathCandle[];
}

/** Relative room around a candle's low and high within which a fill is inside it (rounding). */
const IN_CANDLE = 1e-9;

/**
 * The paths of `trader` over [fromTime, toTime] through a venue's candles (`candlesOf` gives a
 * token's, or null when the window's are not all stored), with the trader's fills in them. Used
 * only when every token the trader traded in the window has its candles and each open, increase
 * and decrease price lies inside its candle, else the fills (one honest word for the run).
 */
export function venuePathsFor(
  trader: TraderOrders,
  candlesOf: (pair: string) => WindowCandles | null,
  fromTime: number,
  toTime: number,
): PricePaths {
  return pathsOrFills(trader, fromTime, toTime, (k, first) => {
    const window = candlesOf(trader.tokens[k]!.pair);
    if (window === null || !insideCandles(trader, k, window, first, toTime)) return null;
    return candlePath(window.candles, window.intervalMs, trader.fills[k]!);
  });
}

/** Whether each of the window's prices on token k lies in the candle it fell in (closes aside, as above). */
function insideCandles(
  trader: TraderOrders,
  k: number,
  window: WindowCandles,
  first: number,
  toTime: number,
): boolean {
  const byTime = new Map<number, PathCandle>();
  for (const c of window.candles) byTime.set(c.timeMs, c);
  for (let i = first; i < trader.n && trader.time[i]! <= toTime; i += 1) {
    if (trader.token[i] !== k) continue;
    if (trader.type[i] === ORDER_CODE.CLOSE || trader.type[i] === ORDER_CODE.MARGIN_TRANSFERRED) continue;
    const candle = byTime.get(Math.floor(trader.time[i]! / window.intervalMs) * window.intervalMs);
    const price = trader.price[i]!;
    if (!candle || price < candle.low * (1 - IN_CANDLE) || price > candle.high * (1 + IN_CANDLE))
      return false;
  }
  return true;
}
