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
 * en-US), with the year only when it is not this one. Month names come from `Intl`.
 */
export function formatShortTime(iso: string | null, seconds = false): string {
  if (!iso) return '—';
  const date = parse(iso);
  if (!date) return iso;
  const otherYear = date.getFullYear() !== new Date().getFullYear();
  return dateFormat({
    day: 'numeric',
    month: 'short',
    ...(otherYear ? { year: 'numeric' } : {}),
    hour: '2-digit',
    minute: '2-digit',
    ...(seconds ? { second: '2-digit' } : {}),
  }).format(date);
}

/** A day in the user's locale, for chart axes and day headers: `21 Nov 2025` in en-GB. */
export function formatDay(date: Date): string {
  return dateFormat({ day: 'numeric', month: 'short', year: 'numeric' }).format(date);
}

/** A UTC calendar day (the PnL series' days are UTC days) in the user's locale. */
export function formatUtcDay(date: Date): string {
  return dateFormat({ day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(date);
}
