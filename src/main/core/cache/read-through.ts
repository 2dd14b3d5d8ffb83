import { requestKey, type Cached, type Channel } from '../../../shared';
import { CoreError } from '../errors';
import type { CoreEvents } from '../events';
import type { Connectivity } from './connectivity';
import type { ResponseCache } from './response-cache';

/** What a cache-first read needs from the core. */
export interface ReadThroughDeps {
  cache: ResponseCache;
  events: CoreEvents;
  connectivity: Connectivity;
  /** The active profile at the moment of the call (answers are cached per profile). */
  profileId: () => string;
  /** Called after each write to the cache, e.g. to evict past the size limit. */
  afterWrite?: () => void;
  now?: () => Date;
}

/**
 * Cache-first reads (ARCHITECTURE.md): with a cached answer, return it at once marked with its
 * age and refresh in the background, pushing the fresh answer as `data:fresh`; without one, ask
 * the service. When the service cannot be reached the cached answer is returned marked stale;
 * with nothing cached the caller gets an OFFLINE error that says so.
 */
export class ReadThrough {
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: ReadThroughDeps) {}

  async read<T>(channel: Channel, request: unknown, fetch: () => Promise<T>): Promise<Cached<T>> {
    const profileId = this.deps.profileId();
    const key = requestKey(channel, request);
    const hit = this.deps.cache.get(profileId, key);
    if (hit) {
      void this.refresh(profileId, channel, key, fetch).catch(() => undefined);
      return {
        data: hit.value as T,
        freshness: { fetchedAt: hit.fetchedAt, fromCache: true, stale: !this.deps.connectivity.isOnline() },
      };
    }
    try {
      const data = await this.fetchAndStore(profileId, channel, key, fetch);
      return { data, freshness: { fetchedAt: this.nowIso(), fromCache: false, stale: false } };
    } catch (error) {
      if (isUnreachable(error))
        throw new CoreError(
          'OFFLINE',
          `The service cannot be reached and this view has not been cached yet (${(error as Error).message})`,
        );
      throw error;
    }
  }

  /** Refreshes one key in the background (one refresh per key at a time) and pushes the result. */
  private async refresh<T>(
    profileId: string,
    channel: Channel,
    key: string,
    fetch: () => Promise<T>,
  ): Promise<void> {
    if (this.inFlight.has(key)) return;
    const job = this.fetchAndStore(profileId, channel, key, fetch);
    this.inFlight.set(key, job);
    try {
      const data = await job;
      if (profileId !== this.deps.profileId()) return; // the user switched profile meanwhile
      this.deps.events.emit('data:fresh', {
        channel,
        key,
        value: { data, freshness: { fetchedAt: this.nowIso(), fromCache: false, stale: false } },
      });
    } finally {
      this.inFlight.delete(key);
    }
  }

  private async fetchAndStore<T>(
    profileId: string,
    channel: Channel,
    key: string,
    fetch: () => Promise<T>,
  ): Promise<T> {
    try {
      const data = await fetch();
      this.deps.connectivity.reportSuccess();
      this.deps.cache.put(profileId, key, channel, data, this.nowIso());
      this.deps.afterWrite?.();
      return data;
    } catch (error) {
      if (isUnreachable(error)) this.deps.connectivity.reportUnreachable((error as Error).message);
      throw error;
    }
  }

  private nowIso(): string {
    return (this.deps.now?.() ?? new Date()).toISOString();
  }
}

/** True for failures that mean "the service did not answer" rather than "the service said no". */
export function isUnreachable(error: unknown): boolean {
  return error instanceof CoreError && (error.code === 'OFFLINE' || error.code === 'TIMEOUT');
}
