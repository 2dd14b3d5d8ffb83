// The Live page's filters as typed, and the request of the three feeds they make.
import type { LiveFeedRequest } from '@shared/ipc/schemas/live';

export type LiveSide = 'BOTH' | 'LONG' | 'SHORT';

/** What the filter bar holds: text as typed, so a half-typed size does not refetch. */
export interface LiveFilters {
  /** One protocol, or '' for all. */
  protocol: string;
  pair: string;
  side: LiveSide;
  /** Minimum size in USD, as typed. */
  minSize: string;
}

export const EMPTY_LIVE_FILTERS: LiveFilters = { protocol: '', pair: '', side: 'BOTH', minSize: '' };

/** Rows per feed: enough to fill a tall screen, few enough to re-read every few seconds. */
const LIVE_LIMIT = 50;

/** Why the minimum size cannot be used, or null when it can (empty means no minimum). */
export function minSizeProblem(text: string): string | null {
  const t = text.trim().replace(/[,_$]/g, '');
  if (t === '') return null;
  if (!/^\d+(\.\d+)?$/.test(t)) return 'Enter a size in USD, e.g. 10000.';
  return null;
}

/** `btc/usd ` → `BTC/USD`; `btc` → `BTC` (the service matches pairs exactly). */
const normalizePair = (pair: string): string => pair.trim().toUpperCase();

/**
 * The feeds' request. A minimum size that cannot be read is left out (the bar shows why), so
 * the feeds keep showing the last good filter rather than nothing.
 */
export function liveRequest(filters: LiveFilters, limit = LIVE_LIMIT): LiveFeedRequest {
  const request: LiveFeedRequest = {
    protocols: filters.protocol ? [filters.protocol] : [],
    side: filters.side,
    limit,
  };
  const pair = normalizePair(filters.pair);
  if (pair) request.pair = pair;
  if (filters.minSize.trim() !== '' && minSizeProblem(filters.minSize) === null) {
    request.minSize = Number(filters.minSize.trim().replace(/[,_$]/g, ''));
  }
  return request;
}

/** True when any filter narrows the feeds. */
export const isFiltered = (f: LiveFilters): boolean =>
  f.protocol !== '' || f.pair.trim() !== '' || f.side !== 'BOTH' || f.minSize.trim() !== '';

/** Distinct pairs seen in rows, sorted, for the pair box's suggestions. */
export function pairsOf(rows: readonly { pair: string }[]): string[] {
  return [...new Set(rows.map((r) => r.pair))].sort((a, b) => a.localeCompare(b));
}
