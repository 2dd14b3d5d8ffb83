// Candles from prices in time order (docs/service.md, "Price candles").
import type { Candle } from '../../shared/api/candles';

/** A price at an instant: a market's minute mark, or a stored fill. */
export interface PricePoint {
  timeMs: number;
  price: number;
}

/**
 * The candles of `intervalMs` (aligned to the epoch, UTC) that the points in [fromMs, toMs) fall
 * in: open the first price, close the last, high and low the extremes. `points` must be in time
 * order; an interval without a point has no candle, so gaps stay visible rather than invented.
 */
export function buildCandles(
  points: Iterable<PricePoint>,
  fromMs: number,
  toMs: number,
  intervalMs: number,
): Candle[] {
  const candles: Candle[] = [];
  let current: Candle | null = null;
  for (const { timeMs, price } of points) {
    if (timeMs < fromMs || timeMs >= toMs || !Number.isFinite(price)) continue;
    const time = Math.floor(timeMs / intervalMs) * intervalMs;
    if (current === null || current.time !== time) {
      current = { time, open: price, high: price, low: price, close: price };
      candles.push(current);
      continue;
    }
    if (price > current.high) current.high = price;
    if (price < current.low) current.low = price;
    current.close = price;
  }
  return candles;
}
