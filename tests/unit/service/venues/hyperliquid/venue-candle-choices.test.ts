// The interval a backtest window takes (docs/venue-feed.md, Candles) and the strict reading of a
// candleSnapshot answer: computed by hand.
import { describe, expect, it } from 'vitest';
import { readCandlesPage } from '../../../../../src/service/venues/hyperliquid/venue-candle-page';
import { intervalForWindow } from '../../../../../src/service/venues/hyperliquid/venue-candles';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 26, 12);

describe('intervalForWindow', () => {
  it('takes the finest interval the venue keeps back to the window’s start, with at most 5,000 candles', () => {
    expect(intervalForWindow(NOW - 3 * DAY, NOW, NOW)).toBe('1m'); // 4,320 candles, kept 3.47 days
    expect(intervalForWindow(NOW - 4 * DAY, NOW, NOW)).toBe('5m');
    // A short window too far back for the venue's last 5,000 minutes: a coarser interval it keeps.
    expect(intervalForWindow(NOW - 10 * DAY, NOW - 9 * DAY, NOW)).toBe('5m');
    expect(intervalForWindow(NOW - 30 * DAY, NOW, NOW)).toBe('15m'); // the default backtest window
    expect(intervalForWindow(NOW - 180 * DAY, NOW, NOW)).toBe('1h');
    expect(intervalForWindow(NOW - 365 * DAY, NOW, NOW)).toBe('4h');
    expect(intervalForWindow(NOW - 4 * 365 * DAY, NOW, NOW)).toBe('1d');
  });
});

describe('readCandlesPage', () => {
  const ask = { coin: 'BTC', interval: '1h', intervalMs: HOUR, fromMs: 10 * HOUR, toMs: 13 * HOUR };
  const candle = (t: number, patch: Record<string, unknown> = {}) => ({
    t,
    T: t + HOUR - 1,
    s: 'BTC',
    i: '1h',
    o: '100',
    h: '110',
    l: '95',
    c: '105',
    v: '1.5',
    n: 3,
    ...patch,
  });

  it('reads the venue’s strings as numbers, in time order', () => {
    expect(readCandlesPage([candle(12 * HOUR), candle(10 * HOUR, { c: '96' })], ask)).toEqual([
      { timeMs: 10 * HOUR, open: 100, high: 110, low: 95, close: 96, volume: 1.5, trades: 3 },
      { timeMs: 12 * HOUR, open: 100, high: 110, low: 95, close: 105, volume: 1.5, trades: 3 },
    ]);
  });

  it('refuses the whole answer for one bad candle, naming it and the field', () => {
    const refused = (page: unknown) => () => readCandlesPage(page, ask);
    expect(refused({})).toThrow('the answer is not a JSON array of candles');
    expect(refused([candle(10 * HOUR), candle(11 * HOUR, { s: 'ETH' })])).toThrow(
      'candle #2: s: "ETH" is not the \'BTC\' asked for',
    );
    expect(refused([candle(10 * HOUR + 1)])).toThrow('candle #1: t: 36000001 is not on the 1h grid');
    expect(refused([candle(13 * HOUR)])).toThrow(/candle #1: t: .* is outside the range asked for/);
    expect(refused([candle(10 * HOUR, { T: 10 * HOUR })])).toThrow(
      /candle #1: T: .* does not end the 1h candle/,
    );
    expect(refused([candle(10 * HOUR, { l: '101' })])).toThrow(
      'candle #1: h: the low and high do not hold the open and close',
    );
    expect(refused([candle(10 * HOUR, { o: 'abc', n: -1 })])).toThrow(
      /candle #1: o: 'abc' is not a decimal number; n: -1 is not a whole number/,
    );
    expect(refused([candle(10 * HOUR), candle(10 * HOUR)])).toThrow(`two candles open at ${10 * HOUR}`);
  });
});
