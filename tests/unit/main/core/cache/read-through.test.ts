import { afterEach, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-db';
import { Connectivity } from '../../../../../src/main/core/cache/connectivity';
import { ReadThrough } from '../../../../../src/main/core/cache/read-through';
import { ResponseCache } from '../../../../../src/main/core/cache/response-cache';
import { CoreError } from '../../../../../src/main/core/errors';
import { CoreEvents } from '../../../../../src/main/core/events';
import { requestKey } from '../../../../../src/shared/ipc/request-key';

const unreachable = () => Promise.reject(new CoreError('OFFLINE', 'connection refused'));

describe('ReadThrough', () => {
  let db: Database.Database;
  afterEach(() => db?.close());

  function setup() {
    db = openCacheDatabase(':memory:');
    const events = new CoreEvents();
    const seen: { event: string; payload: unknown }[] = [];
    events.onAny((event, payload) => seen.push({ event, payload }), ['data:fresh', 'connection:state']);
    const connectivity = new Connectivity(events, 'local');
    const reads = new ReadThrough({
      cache: new ResponseCache(db),
      events,
      connectivity,
      profileId: () => 'local',
    });
    return { reads, seen, connectivity };
  }

  it('asks the service on a miss, then answers from the cache and pushes the refresh', async () => {
    const { reads, seen } = setup();
    const first = await reads.read('tokens:list', {}, () => Promise.resolve({ n: 1 }));
    expect(first.data).toEqual({ n: 1 });
    expect(first.freshness).toMatchObject({ fromCache: false, stale: false });

    let resolve!: (v: { n: number }) => void;
    const second = await reads.read('tokens:list', {}, () => new Promise((r) => (resolve = r)));
    expect(second.data).toEqual({ n: 1 });
    expect(second.freshness).toMatchObject({ fromCache: true, stale: false });
    resolve({ n: 2 });
    await new Promise((r) => setTimeout(r, 10));
    const fresh = seen.filter((s) => s.event === 'data:fresh');
    expect(fresh).toHaveLength(1);
    expect(fresh[0]?.payload).toMatchObject({
      channel: 'tokens:list',
      key: requestKey('tokens:list', {}),
      value: { data: { n: 2 }, freshness: { fromCache: false, stale: false } },
    });
  });

  it('offline: answers the cached data marked stale, or OFFLINE when nothing is cached', async () => {
    const { reads, seen, connectivity } = setup();
    await reads.read('tokens:list', {}, () => Promise.resolve({ n: 1 }));
    await reads.read('tokens:list', {}, unreachable); // the background refresh fails
    await new Promise((r) => setTimeout(r, 10));
    expect(connectivity.current()).toBe('offline');
    // The view showing the cached answer is told it is stale now.
    expect(seen.filter((s) => s.event === 'data:fresh').at(-1)?.payload).toMatchObject({
      value: { data: { n: 1 }, freshness: { fromCache: true, stale: true } },
    });
    const stale = await reads.read('tokens:list', {}, unreachable);
    expect(stale).toMatchObject({ data: { n: 1 }, freshness: { fromCache: true, stale: true } });
    await expect(reads.read('wallets:list', {}, unreachable)).rejects.toMatchObject({ code: 'OFFLINE' });
    expect(
      seen.some(
        (s) => s.event === 'connection:state' && (s.payload as { state: string }).state === 'offline',
      ),
    ).toBe(true);
  });

  it('passes the service refusing a request through, without calling it offline', async () => {
    const { reads, connectivity } = setup();
    const refusal = new CoreError('VALIDATION_FAILED', 'limit must be at most 500');
    await expect(reads.read('leaderboard:page', {}, () => Promise.reject(refusal))).rejects.toBe(refusal);
    expect(connectivity.current()).not.toBe('offline');
  });
});
