// The price path through a venue's candles with the trader's fills merged in (docs/backtest.md,
// Price path), point by point.
import { describe, expect, it } from 'vitest';
import { PriceSeries } from '../../../../src/service/backtest/price-series';
import { candlePath } from '../../../../src/service/prices/candle-path';

const MINUTE = 60_000;

const points = (s: PriceSeries) => Array.from({ length: s.length }, (_, i) => [s.time(i), s.values[i]]);

describe('candlePath', () => {
  it('walks open, the extreme nearer the open, the other, close; fills at their instants', () => {
    const up = { timeMs: 0, open: 100, high: 110, low: 90, close: 105 };
    const down = { timeMs: MINUTE, open: 105, high: 108, low: 80, close: 85 };
    const fills = new PriceSeries(Float64Array.from([104, 100]), Float64Array.from([MINUTE, 90_000]));
    const path = candlePath([up, down], MINUTE, fills);
    expect(points(path)).toEqual([
      [0, 100],
      [20_000, 90], // closed up: the low first
      [40_000, 110],
      [59_999, 105],
      [60_000, 105],
      [60_000, 104], // a fill at a candle point's instant comes after it: its price holds there
      [80_000, 108], // closed down: the high first
      [90_000, 100],
      [100_000, 80],
      [119_999, 85],
    ]);
    expect(path.priceAt(MINUTE)).toBe(104);
    // A stop at 85 on a long is crossed inside the second candle, where no order was.
    expect(path.firstCross(6, 85, Infinity)).toBe(8);
  });
});
