// A `candleSnapshot` answer, read strictly: one malformed candle refuses the whole answer (nothing
// of it is stored), as a fills page is refused (docs/venue-feed.md, Candles).
import { FieldError, decimalField, readFields } from '../../market/importers/fields';
import { PageError } from './venue-fills';

/** One candle of a coin, checked: its opening instant and its prices as numbers. */
export interface VenueCandle {
  timeMs: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  trades: number;
}

type Raw = Record<string, unknown>;
const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What the answer must be: the coin and interval asked for, candles opening in [fromMs, toMs). */
export interface CandleAsk {
  coin: string;
  interval: string;
  intervalMs: number;
  fromMs: number;
  toMs: number;
}

function wholeField(field: string, raw: unknown): number {
  if (typeof raw !== 'number' || !Number.isSafeInteger(raw) || raw < 0)
    throw new FieldError(field, `${JSON.stringify(raw)} is not a whole number ≥ 0`);
  return raw;
}

function sameText(field: string, raw: unknown, expected: string): string {
  if (raw !== expected)
    throw new FieldError(field, `${JSON.stringify(raw)} is not the '${expected}' asked for`);
  return expected;
}

function readCandle(raw: unknown, ask: CandleAsk): VenueCandle {
  if (!isObject(raw)) throw new FieldError('candle', 'is not an object');
  const candle = readFields<VenueCandle & { coin: string; interval: string; closeTime: number }>({
    coin: () => sameText('s', raw.s, ask.coin),
    interval: () => sameText('i', raw.i, ask.interval),
    timeMs: () => openingTime(raw.t, ask),
    closeTime: () => wholeField('T', raw.T),
    open: () => decimalField('o', raw.o, { positive: true }),
    high: () => decimalField('h', raw.h, { positive: true }),
    low: () => decimalField('l', raw.l, { positive: true }),
    close: () => decimalField('c', raw.c, { positive: true }),
    volume: () => nonNegative('v', decimalField('v', raw.v)),
    trades: () => wholeField('n', raw.n),
  });
  if (candle.closeTime !== candle.timeMs + ask.intervalMs - 1)
    throw new FieldError(
      'T',
      `${candle.closeTime} does not end the ${ask.interval} candle opened at ${candle.timeMs}`,
    );
  if (candle.low > Math.min(candle.open, candle.close) || candle.high < Math.max(candle.open, candle.close))
    throw new FieldError('h', 'the low and high do not hold the open and close');
  const { timeMs, open, high, low, close, volume, trades } = candle;
  return { timeMs, open, high, low, close, volume, trades };
}

/** An opening instant on the interval's grid and inside the range asked for. */
function openingTime(raw: unknown, ask: CandleAsk): number {
  const t = wholeField('t', raw);
  if (t % ask.intervalMs !== 0) throw new FieldError('t', `${t} is not on the ${ask.interval} grid`);
  if (t < ask.fromMs || t >= ask.toMs)
    throw new FieldError('t', `${t} is outside the range asked for [${ask.fromMs}, ${ask.toMs})`);
  return t;
}

function nonNegative(field: string, value: number): number {
  if (value < 0) throw new FieldError(field, `${value} must be at least 0`);
  return value;
}

/**
 * Reads one `candleSnapshot` answer to `ask`: the candles in time order, each opening instant once.
 * @throws PageError for anything malformed, naming the candle and the field ("candle #3: h: …").
 */
export function readCandlesPage(answer: unknown, ask: CandleAsk): VenueCandle[] {
  if (!Array.isArray(answer)) throw new PageError('the answer is not a JSON array of candles');
  const candles = answer.map((raw, index) => {
    try {
      return readCandle(raw, ask);
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      throw new PageError(`candle #${index + 1}: ${error.message}`);
    }
  });
  candles.sort((a, b) => a.timeMs - b.timeMs);
  for (let i = 1; i < candles.length; i += 1)
    if (candles[i]!.timeMs === candles[i - 1]!.timeMs)
      throw new PageError(`two candles open at ${candles[i]!.timeMs}`);
  return candles;
}
