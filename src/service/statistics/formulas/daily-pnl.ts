// Daily PnL series of a trader (docs/semantics.md, Daily PnL series, docs/api.md, PnL statistics).
//
// Decision: the series is the day-by-day breakdown of the window's record, plus today's live
// unrealised PnL. A day's realisedPnl and fee sum the positions closed that day THAT THE WINDOW
// HOLDS (the same `inWindow` as the record). Consequences:
// - D7/D15/D30/D60: the series has n + 1 entries (the n window days, then today). Today lies
//   outside the window, so today's realisedPnl and fee are 0 and only its unrealisedPnl is set;
//   positions closed today appear from tomorrow on, when they enter the window and the record.
// - FULL: from the day of the trader's first close through today; today's closes count today,
//   as they count in the FULL record. A close stamped after today (clock skew) counts today too.
// Either way Σ realisedPnl over the whole series equals the record's realisedPnl and Σ fee its
// totalFee, so a chart that accumulates the series ends on the record's number.
import type { PnlSeries } from '../../../shared/api/statistics';
import { unrealisedPnlOf } from './position-facts';
import type { MarkPriceOf, PositionFacts } from './position-facts';
import { DAY_MS, dayStartMs, inWindow, windowBounds } from './windows';
import type { Window } from './windows';

/** The wire shape of one series (parallel arrays, one entry per UTC day). */
export type { PnlSeries };

/** First day of the series: the window's first day; for FULL the day of the first close (today if none). */
function firstDayMs(positions: readonly PositionFacts[], window: Window, todayMs: number): number {
  const bounds = windowBounds(window, todayMs);
  if (window !== 'FULL') return bounds.fromMs;
  let first = todayMs;
  for (const p of positions) if (p.closeTimeMs !== null) first = Math.min(first, dayStartMs(p.closeTimeMs));
  return first;
}

/** A series of `days` zero entries starting at `startMs`. */
function emptySeries(startMs: number, days: number): PnlSeries {
  const zeros = () => new Array<number>(days).fill(0);
  const date = Array.from({ length: days }, (_, i) => new Date(startMs + i * DAY_MS).toISOString());
  return { date, realisedPnl: zeros(), unrealisedPnl: zeros(), fee: zeros() };
}

const SERIES_KEYS = ['realisedPnl', 'unrealisedPnl', 'fee'] as const;

const addAt = (values: number[], i: number, amount: number): void => {
  values[i] = (values[i] ?? 0) + amount;
};

/** The trader's daily realised PnL, fee and today's unrealised PnL over the window, through today. */
export function dailyPnlSeries(
  positionsOfTrader: readonly PositionFacts[],
  window: Window,
  nowMs: number,
  markPrice: MarkPriceOf,
): PnlSeries {
  const todayMs = dayStartMs(nowMs);
  const startMs = firstDayMs(positionsOfTrader, window, todayMs);
  const today = (todayMs - startMs) / DAY_MS;
  const series = emptySeries(startMs, today + 1);
  const bounds = windowBounds(window, nowMs);
  for (const p of positionsOfTrader) {
    if (p.closeTimeMs === null) {
      const mark = markPrice(p.indexToken);
      if (mark !== undefined) addAt(series.unrealisedPnl, today, unrealisedPnlOf(p, mark));
    } else if (inWindow(p.closeTimeMs, bounds)) {
      const day = Math.min(today, (dayStartMs(p.closeTimeMs) - startMs) / DAY_MS);
      addAt(series.realisedPnl, day, p.realisedPnl);
      addAt(series.fee, day, p.fee);
    }
  }
  return series;
}

/** Adds two series day by day; a day present in only one of them counts 0 in the other. */
export function sumSeries(a: PnlSeries, b: PnlSeries): PnlSeries {
  // ISO dates of the same format sort chronologically as text.
  const dates = [...new Set([...a.date, ...b.date])].sort();
  const index = new Map(dates.map((d, i) => [d, i]));
  const zeros = () => new Array<number>(dates.length).fill(0);
  const out: PnlSeries = { date: dates, realisedPnl: zeros(), unrealisedPnl: zeros(), fee: zeros() };
  for (const s of [a, b]) {
    s.date.forEach((d, i) => {
      const at = index.get(d) as number;
      for (const key of SERIES_KEYS) addAt(out[key], at, s[key][i] ?? 0);
    });
  }
  return out;
}
