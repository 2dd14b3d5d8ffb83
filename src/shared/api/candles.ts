// A token's price as candles, outside the spec: `GET /prices/{protocol}/{indexToken}/candles`
// (docs/service.md, "Price candles"). The trader page draws them with the trader's entries and exits.
import type { z } from 'zod';
import { fromQueryText, zBool, zInt, zList, zNumber, zObject, zOneOf, zStrict, zText } from './common';

/** The candle widths the service builds, and their length. */
export const CANDLE_INTERVALS = ['1m', '5m', '15m', '1h', '4h', '1d'] as const;
export type CandleInterval = (typeof CANDLE_INTERVALS)[number];
export const CANDLE_INTERVAL_MS: Record<CandleInterval, number> = {
  '1m': 60_000,
  '5m': 300_000,
  '15m': 900_000,
  '1h': 3_600_000,
  '4h': 14_400_000,
  '1d': 86_400_000,
};
/** The most candles one request may span: a chart's worth, and a bounded amount of work. */
export const MAX_CANDLES = 1500;

const epochMs = () => fromQueryText(zInt().min(0, { error: 'must be epoch milliseconds, at least 0' }));

/**
 * The query: `from` (inclusive) and `to` (exclusive) in epoch milliseconds, and the width. Candles
 * start at multiples of the width since the epoch (UTC), so the range may span at most MAX_CANDLES
 * of them.
 */
export const candlesQuerySchema = zStrict({
  from: epochMs(),
  to: epochMs(),
  interval: zOneOf(CANDLE_INTERVALS),
}).superRefine((q, ctx) => {
  // A negative bound was refused already; a span from it would only add a second, confusing issue.
  if (q.from < 0 || q.to < 0) return;
  if (q.to <= q.from) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be after from' });
    return;
  }
  const count = candleCount(q.from, q.to, CANDLE_INTERVAL_MS[q.interval]);
  if (count > MAX_CANDLES)
    ctx.addIssue({
      code: 'custom',
      path: ['to'],
      message: `must leave at most ${MAX_CANDLES} candles of ${q.interval} after from (this range spans ${count}); narrow the range or take a wider interval`,
    });
});
export type CandlesQuery = z.infer<typeof candlesQuerySchema>;

/** How many candles of `intervalMs`, aligned to the epoch, the range [from, to) touches. */
export function candleCount(fromMs: number, toMs: number, intervalMs: number): number {
  return Math.floor((toMs - 1) / intervalMs) - Math.floor(fromMs / intervalMs) + 1;
}

/** One candle: its opening time and the first, highest, lowest and last price within it. */
export const candleSchema = zObject({
  time: zInt(),
  open: zNumber(),
  high: zNumber(),
  low: zNumber(),
  close: zNumber(),
});
export type Candle = z.infer<typeof candleSchema>;

/**
 * Where the prices came from: `market` the demo market's minute prices, `venue` the venue feed's
 * own candles, `fills` the orders the service stored for this token (every trader's, the venue
 * feed's included), `none` nothing known.
 */
export const CANDLE_SOURCES = ['market', 'venue', 'fills', 'none'] as const;
export type CandleSource = (typeof CANDLE_SOURCES)[number];

/**
 * How asking the venue for its candles went (docs/venue-feed.md, Candles): `stored` nothing was
 * missing; `fetched` it answered; `offline` it could not be reached; `refused` its answer was
 * malformed; `rate-limited` it answered 429; `failed` another error; `waiting` the budget held
 * the request past the wait (it goes on, and the next ask finds the candles stored).
 */
export const VENUE_CANDLE_STATES = [
  'stored',
  'fetched',
  'offline',
  'refused',
  'rate-limited',
  'failed',
  'waiting',
] as const;
export type VenueCandleState = (typeof VENUE_CANDLE_STATES)[number];

/** For a token of a venue feed: whether its candles are whole, and what kept them from being so. */
export const venueCandleFetchSchema = zObject({
  state: zOneOf(VENUE_CANDLE_STATES),
  /** Every closed candle of the range is stored. */
  complete: zBool(),
  message: zText().optional(),
});
export type VenueCandleFetch = z.infer<typeof venueCandleFetchSchema>;

/** The answer; intervals without a price have no candle (gaps are left, not filled). */
export const candlesResponseSchema = zObject({
  protocol: zText(),
  indexToken: zText(),
  interval: zOneOf(CANDLE_INTERVALS),
  source: zOneOf(CANDLE_SOURCES),
  candles: zList(candleSchema),
  /** Only for a venue feed's token: how fetching the venue's candles went (a fallback says why). */
  venue: venueCandleFetchSchema.optional(),
});
export type CandlesResponse = z.infer<typeof candlesResponseSchema>;
