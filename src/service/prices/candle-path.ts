// A price path walked through a venue's candles, with the trader's own fills in it
// (docs/backtest.md, Price path).
import { PriceSeries } from '../backtest/price-series';

/** A candle's opening instant and prices. */
export interface PathCandle {
  timeMs: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

/**
 * The points of `candles` (each `intervalMs` long) merged with `fills` (a trader's fill prices on
 * the token, in time order). Inside a candle the path goes open → one extreme → the other → close,
 * at its start, a third, two thirds and its last millisecond; the extreme nearer the open comes
 * first (the low in a candle that closed up, the high in one that closed down), the usual reading
 * of a bar whose order is unknown. A fill at the same instant as a candle point comes after it, so
 * the price at a fill's instant is the fill's own.
 */
export function candlePath(
  candles: readonly PathCandle[],
  intervalMs: number,
  fills: PriceSeries,
): PriceSeries {
  const times: number[] = [];
  const values: number[] = [];
  let f = 0;
  const fillsUpTo = (t: number) => {
    for (; f < fills.length && fills.time(f) < t; f += 1) {
      times.push(fills.time(f));
      values.push(fills.values[f]!);
    }
  };
  const third = Math.floor(intervalMs / 3);
  for (const c of candles) {
    const [first, second] = c.close >= c.open ? [c.low, c.high] : [c.high, c.low];
    const points: [number, number][] = [
      [c.timeMs, c.open],
      [c.timeMs + third, first],
      [c.timeMs + 2 * third, second],
      [c.timeMs + intervalMs - 1, c.close],
    ];
    for (const [t, price] of points) {
      fillsUpTo(t);
      times.push(t);
      values.push(price);
    }
  }
  fillsUpTo(Infinity);
  return new PriceSeries(Float64Array.from(values), Float64Array.from(times));
}
