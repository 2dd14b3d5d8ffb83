import { requestKey, type Cached, type Channel } from '../../../shared';
import { CoreError } from '../errors';
import type { CoreEvents } from '../events';
import type { Connectivity } from './connectivity';
import { requestScope } from './request-scope';
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

/** A background refresh under way, and the event keys of the views waiting for it. */
interface Refresh {
  job: Promise<unknown>;
  eventKeys: Set<string>;
}

/**
 * Cache-first reads (docs/architecture.md): with a cached answer, return it at once marked with its
 * age and refresh in the background, pushing the fresh answer as `data:fresh`; without one, ask
 * the service. When the service cannot be reached the cached answer is returned marked stale;
 * with nothing cached the caller gets an OFFLINE error that says so.
 *
 * Answers are stored under the key of the validated request, so that `{}` and the same request
 * with its defaults spelt out share one entry; `data:fresh` carries the key of the request as
 * the renderer sent it (from the dispatcher's request scope), which is the one its view knows.
 */
export class ReadThrough {
  private readonly inFlight = new Map<string, Refresh>();

  constructor(private readonly deps: ReadThroughDeps) {}

  async read<T>(channel: Channel, request: unknown, fetch: () => Promise<T>): Promise<Cached<T>> {
    const profileId = this.deps.profileId();
    const key = requestKey(channel, request);
    const hit = this.deps.cache.get(profileId, key);
    if (hit) {
      this.refresh(profileId, channel, key, eventKeyOf(channel, key), fetch);
      return {
        data: hit.value as T,
        freshness: { fetchedAt: hit.fetchedAt, fromCache: true, stale: !this.deps.connectivity.isOnline() },
      };
    }
    try {
      const data = await this.fetchAndStore(profileId, channel, key, fetch);
      return { data, freshness: { fetchedAt: this.nowIso(), fromCache: false, stale: false } };
    } catch (error) {
      throw offlineWithoutCache(error);
    }
  }

  /**
   * Network first: asks the service, and only when it cannot be reached answers the cached
   * value, marked stale. For views where an old value would mislead while the service is up
   * (a balance before a withdrawal).
   */
  async readFresh<T>(channel: Channel, request: unknown, fetch: () => Promise<T>): Promise<Cached<T>> {
    const profileId = this.deps.profileId();
    const key = requestKey(channel, request);
    try {
      const data = await this.fetchAndStore(profileId, channel, key, fetch);
      return { data, freshness: { fetchedAt: this.nowIso(), fromCache: false, stale: false } };
    } catch (error) {
      if (!isUnreachable(error)) throw error;
      const hit = this.deps.cache.get(profileId, key);
      if (!hit) throw offlineWithoutCache(error);
      return { data: hit.value as T, freshness: { fetchedAt: hit.fetchedAt, fromCache: true, stale: true } };
    }
  }

  /** Forgets the cached answers of `channels` for the active profile (after a write changed them). */
  invalidate(channels: readonly Channel[]): void {
    this.deps.cache.clearChannels(this.deps.profileId(), channels);
  }

  /** Refreshes one key in the background (one refresh per key at a time) and pushes the result. */
  private refresh<T>(
    profileId: string,
    channel: Channel,
    key: string,
    eventKey: string,
    fetch: () => Promise<T>,
  ): void {
    const running = this.inFlight.get(`${profileId}\n${key}`);
    if (running) return void running.eventKeys.add(eventKey);
    const refresh: Refresh = {
      job: this.fetchAndStore(profileId, channel, key, fetch),
      eventKeys: new Set([eventKey]),
    };
    this.inFlight.set(`${profileId}\n${key}`, refresh);
    refresh.job
      .then((data) => {
        if (profileId !== this.deps.profileId()) return; // the user switched profile meanwhile
        const value = { data, freshness: { fetchedAt: this.nowIso(), fromCache: false, stale: false } };
        for (const k of refresh.eventKeys) this.deps.events.emit('data:fresh', { channel, key: k, value });
      })
      // A failed refresh leaves the cached answer. When the service is unreachable the views
      // showing that answer are told it is now stale, so they can say "offline".
      .catch((error: unknown) => {
        if (!isUnreachable(error) || profileId !== this.deps.profileId()) return;
        const hit = this.deps.cache.get(profileId, key);
        if (!hit) return;
        const value = {
          data: hit.value,
          freshness: { fetchedAt: hit.fetchedAt, fromCache: true, stale: true },
        };
        for (const k of refresh.eventKeys) this.deps.events.emit('data:fresh', { channel, key: k, value });
      })
      .finally(() => this.inFlight.delete(`${profileId}\n${key}`));
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
      // The answer belongs to the profile that asked, even if the user switched meanwhile.
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

/** The key the renderer knows this read by: its own request's, when the call came through dispatch. */
function eventKeyOf(channel: Channel, cacheKey: string): string {
  const scope = requestScope.getStore();
  return scope?.channel === channel ? requestKey(channel, scope.request) : cacheKey;
}

function offlineWithoutCache(error: unknown): unknown {
  if (!isUnreachable(error)) return error;
  return new CoreError(
    'OFFLINE',
    `The service cannot be reached and this view has not been cached yet (${(error as Error).message})`,
  );
}

/** True for failures that mean "the service did not answer" rather than "the service said no". */
export function isUnreachable(error: unknown): boolean {
  return error instanceof CoreError && (error.code === 'OFFLINE' || error.code === 'TIMEOUT');
}
