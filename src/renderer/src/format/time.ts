import { dateFormat } from './locale';

const parse = (iso: string): Date | null => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

/** ISO 8601 → a full local date and time in the user's locale (`21 Nov 2025, 10:29:03` in en-GB). */
export function formatTimestamp(iso: string): string {
  const date = parse(iso);
  return date ? dateFormat({ dateStyle: 'medium', timeStyle: 'medium' }).format(date) : iso;
}

/**
 * A dense cell's time in the user's locale (`21 Nov, 06:11` in en-GB, `Nov 21, 06:11 AM` in
 * en-US). A time more than RECENT_DAYS away is written as its day with the year and no time
 * (`1 Feb 2021`): without the year it could be read as another year's, and with both the cell
 * would need a column a third wider for rows that are rare (docs/ui.md, Column widths); the full
 * time is in the cell's tooltip. Within RECENT_DAYS a day and month name one date, so last
 * December's trades still show their time in January. Month names come from `Intl`.
 */
export function formatShortTime(iso: string | null, seconds = false): string {
  if (!iso) return '—';
  const date = parse(iso);
  if (!date) return iso;
  if (Math.abs(Date.now() - date.getTime()) > RECENT_DAYS * 86_400_000)
    return dateFormat({ day: 'numeric', month: 'short', year: 'numeric' }).format(date);
  return dateFormat({
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    ...(seconds ? { second: '2-digit' } : {}),
  }).format(date);
}
const RECENT_DAYS = 300;

/** A day in the user's locale, for chart axes and day headers: `21 Nov 2025` in en-GB. */
export function formatDay(date: Date): string {
  return dateFormat({ day: 'numeric', month: 'short', year: 'numeric' }).format(date);
}

/** A UTC calendar day (the PnL series' days are UTC days) in the user's locale. */
export function formatUtcDay(date: Date): string {
  return dateFormat({ day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(date);
}
