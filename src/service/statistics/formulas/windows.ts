// Statistic windows (docs/semantics.md, Windows).
//
// Reading of the spec, written down once:
// - D7, D15, D30, D60 hold the CLOSED positions with closeTime in [T0 − n days, T0), T0 = 00:00 UTC
//   of the day of `nowMs`. Today is excluded, so a window's content changes only at midnight UTC.
// - FULL is "every closed position" with no time condition, so it INCLUDES positions closed today
//   (and, should a clock be skewed, any close stamped after now): bounds (−Infinity, +Infinity).
import { WINDOWS } from '../../../shared/api/common';
import type { Window } from '../../../shared/api/common';

/** The five windows and their type, re-exported from the wire contract so analytics has one import. */
export { WINDOWS };
export type { Window };

/** One UTC day in milliseconds. */
export const DAY_MS = 86_400_000;

/** Length in days of each bounded window. */
export const WINDOW_DAYS = { D7: 7, D15: 15, D30: 30, D60: 60 } as const satisfies Record<
  Exclude<Window, 'FULL'>,
  number
>;

/** A half-open time range [fromMs, toMs) of close times. */
export interface WindowBounds {
  fromMs: number;
  toMs: number;
}

/** 00:00 UTC of the day containing `ms` (floor, so times before 1970 work too). */
export const dayStartMs = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

/** The close-time range of `window` at `nowMs`: [T0 − n days, T0), or everything for FULL. */
export function windowBounds(window: Window, nowMs: number): WindowBounds {
  if (window === 'FULL') return { fromMs: -Infinity, toMs: Infinity };
  const t0 = dayStartMs(nowMs);
  return { fromMs: t0 - WINDOW_DAYS[window] * DAY_MS, toMs: t0 };
}

/** Whether a position closed at `closeTimeMs` belongs to the window; open positions never do. */
export const inWindow = (closeTimeMs: number | null, bounds: WindowBounds): boolean =>
  closeTimeMs !== null && closeTimeMs >= bounds.fromMs && closeTimeMs < bounds.toMs;
