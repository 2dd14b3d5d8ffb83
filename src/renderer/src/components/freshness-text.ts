import type { Freshness } from '@shared/ipc/schemas/freshness';
import { formatAge } from '@renderer/format/age';

export type FreshnessTone = 'live' | 'cached' | 'stale' | 'offline-data' | 'unknown';

/** How a read's freshness is told: a short label, a tone, and a sentence for the tooltip. */
export interface FreshnessText {
  tone: FreshnessTone;
  label: string;
  detail: string;
}

/**
 * Words for a cache-first answer (docs/architecture.md, Reads go cache-first):
 * - live: fetched for this request (or refreshed since);
 * - cached N min ago: served from the local cache while a refresh runs;
 * - offline: the service could not be reached, the figures are the last known;
 * - downloaded: a dataset saved for offline use answered.
 */
export function describeFreshness(
  freshness: Freshness | null,
  options: { origin?: 'service' | 'downloaded'; now?: number } = {},
): FreshnessText {
  const now = options.now ?? Date.now();
  if (!freshness) return { tone: 'unknown', label: 'Loading…', detail: 'Waiting for the first answer.' };
  const age = formatAge(freshness.fetchedAt, now);
  if (options.origin === 'downloaded') {
    return {
      tone: 'offline-data',
      label: `Downloaded · as of ${age} ago`,
      detail: `From datasets downloaded for offline use; their figures are as of ${age} ago.`,
    };
  }
  if (freshness.stale) {
    return {
      tone: 'stale',
      label: `Offline · as of ${age} ago`,
      detail: `The service cannot be reached: these are the last figures known, from ${age} ago.`,
    };
  }
  if (freshness.fromCache) {
    return {
      tone: 'cached',
      label: `Cached ${age} ago`,
      detail: `Shown from the local cache (fetched ${age} ago) while a fresh copy is fetched.`,
    };
  }
  return { tone: 'live', label: 'Live', detail: `Fetched from the service ${age} ago.` };
}
