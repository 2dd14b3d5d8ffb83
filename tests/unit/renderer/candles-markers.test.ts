import { describe, expect, it } from 'vitest';
import { buildPriceMarkers, chartRange, type ChartOrder } from '@renderer/pages/trader/price-markers';

const T0 = Date.UTC(2026, 0, 5);
const MIN = 60_000;
const HOUR = 60 * MIN;
const at = (ms: number) => new Date(ms).toISOString();
const order = (type: ChartOrder['type'], ms: number, isLong: boolean, indexToken = 'BTC'): ChartOrder => ({
  type,
  blockTime: at(ms),
  isLong,
  indexToken,
});

describe('buildPriceMarkers', () => {
  it('marks entries and exits of one token, snapped to their candle, in time order', () => {
    const orders = [
      order('CLOSE', T0 + 3 * HOUR + 10 * MIN, true), // newest first, as the trader's orders come
      order('DECREASE', T0 + 2 * HOUR + 59 * MIN, true),
      order('INCREASE', T0 + HOUR + 30 * MIN, true),
      order('OPEN', T0 + 5 * MIN, true),
    ];
    expect(buildPriceMarkers(orders, 'BTC', '1h', T0, T0 + 4 * HOUR)).toEqual([
      { time: T0 / 1000, kind: 'entry', isLong: true, position: 'belowBar', shape: 'arrowUp', text: 'Open' },
      {
        time: (T0 + HOUR) / 1000,
        kind: 'entry',
        isLong: true,
        position: 'belowBar',
        shape: 'arrowUp',
        text: 'Add',
      },
      {
        time: (T0 + 2 * HOUR) / 1000,
        kind: 'exit',
        isLong: true,
        position: 'aboveBar',
        shape: 'arrowDown',
        text: 'Reduce',
      },
      {
        time: (T0 + 3 * HOUR) / 1000,
        kind: 'exit',
        isLong: true,
        position: 'aboveBar',
        shape: 'arrowDown',
        text: 'Close',
      },
    ]);
  });

  it('points a short the other way: sells in from above, buys out from below', () => {
    const markers = buildPriceMarkers(
      [order('OPEN', T0, false), order('CLOSE', T0 + 20 * MIN, false)],
      'BTC',
      '15m',
      T0,
      T0 + HOUR,
    );
    expect(markers.map((m) => [m.time, m.kind, m.position, m.shape])).toEqual([
      [T0 / 1000, 'entry', 'aboveBar', 'arrowDown'],
      [(T0 + 15 * MIN) / 1000, 'exit', 'belowBar', 'arrowUp'],
    ]);
  });

  it('leaves out other tokens, margin transfers and orders outside the range', () => {
    const orders = [
      order('OPEN', T0 + MIN, true, 'ETH'),
      order('MARGIN_TRANSFERRED', T0 + 2 * MIN, true),
      order('OPEN', T0 - 1, true),
      order('CLOSE', T0 + HOUR, true), // at `to`: outside [from, to)
      order('OPEN', T0 + 3 * MIN, true),
    ];
    expect(buildPriceMarkers(orders, 'BTC', '1m', T0, T0 + HOUR).map((m) => m.time)).toEqual([
      (T0 + 3 * MIN) / 1000,
    ]);
  });
});

describe('chartRange', () => {
  it('frames the orders with room either side at the narrowest width that fits 300 candles', () => {
    // Two days of orders: 10% either side (4.8 h) → 57.6 h, 1h×58 fits where 15m×231 also fits.
    const range = chartRange(
      [order('OPEN', T0, true), order('CLOSE', T0 + 48 * HOUR, true)],
      T0 + 100 * HOUR,
    );
    expect(range).toEqual({ from: T0 - 4.8 * HOUR, to: T0 + 52.8 * HOUR + 1, interval: '15m' });
  });

  it('asks only for whole milliseconds, which is all the service takes', () => {
    const range = chartRange([order('OPEN', T0, true), order('CLOSE', T0 + 10 * HOUR + 7, true)], Infinity);
    expect(range).not.toBeNull();
    expect(Number.isInteger(range!.from) && Number.isInteger(range!.to)).toBe(true);
  });

  it('ends at now for a position still open, and is null without orders', () => {
    const range = chartRange([order('OPEN', T0, true)], T0 + 30 * MIN);
    expect(range).toEqual({ from: T0 - HOUR, to: T0 + 30 * MIN + 1, interval: '1m' });
    expect(chartRange([], T0)).toBeNull();
  });
});
