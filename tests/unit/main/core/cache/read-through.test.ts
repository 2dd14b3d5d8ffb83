import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-db';
import { Connectivity } from '../../../../../src/main/core/cache/connectivity';
import { ReadThrough } from '../../../../../src/main/core/cache/read-through';
import { ResponseCache } from '../../../../../src/main/core/cache/response-cache';
import { dispatch } from '../../../../../src/main/core/dispatch';
import { CoreError } from '../../../../../src/main/core/errors';
import { CoreEvents } from '../../../../../src/main/core/events';
import type { Handlers } from '../../../../../src/main/core/handlers/handlers';
import type { EventName } from '../../../../../src/shared';
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

function world() {
  const db = openCacheDatabase(':memory:');
  const events = new CoreEvents();
  const seen: { event: EventName; payload: unknown }[] = [];
  events.onAny((event, payload) => seen.push({ event, payload }), ['data:fresh', 'connection:state']);
  const connectivity = new Connectivity(events, 'p1');
  const cache = new ResponseCache(db);
  let profile = 'p1';
  const reads = new ReadThrough({ cache, events, connectivity, profileId: () => profile });
  return { db, events, seen, connectivity, cache, reads, use: (id: string) => (profile = id) };
}

const offline = () => Promise.reject(new CoreError('OFFLINE', 'connect ECONNREFUSED'));

describe('ReadThrough behind dispatch (the IPC handlers)', () => {
  it('stores by the validated request, and pushes data:fresh under the key of the request as sent', async () => {
    const w = world();
    const handlers = {
      'live:top': (request: unknown) => w.reads.read('live:top', request, async () => ({ n: 1 })),
    } as unknown as Handlers;
    const first = await dispatch(handlers, 'live:top', {});
    expect(first).toMatchObject({ ok: true, value: { data: { n: 1 }, freshness: { fromCache: false } } });
    // Same request with its defaults spelt out: the same cache entry.
    const second = await dispatch(handlers, 'live:top', { limit: 100, side: 'BOTH' });
    expect(second).toMatchObject({ ok: true, value: { freshness: { fromCache: true, stale: false } } });
    await vi.waitFor(() => expect(w.seen).toHaveLength(2));
    expect(w.seen.at(-1)).toMatchObject({
      event: 'data:fresh',
      payload: { channel: 'live:top', key: requestKey('live:top', { limit: 100, side: 'BOTH' }) },
    });
    expect(w.cache.usage().entries).toBe(1);
  });

  it('answers the cache marked stale once the service is known gone, and OFFLINE with nothing cached', async () => {
    const w = world();
    await w.reads.read('copyTrades:list', {}, async () => ['a']);
    const hit = await w.reads.read('copyTrades:list', {}, offline);
    expect(hit.freshness.stale).toBe(false); // not known yet: the refresh finds out
    await vi.waitFor(() => expect(w.connectivity.current()).toBe('offline'));
    expect((await w.reads.read('copyTrades:list', {}, offline)).freshness).toMatchObject({
      stale: true,
      fromCache: true,
    });
    await expect(w.reads.read('copyTrades:list', { status: 'RUNNING' }, offline)).rejects.toMatchObject({
      code: 'OFFLINE',
      message: expect.stringMatching(/not been cached yet/),
    });
    // Refusals are not "offline": they pass through and leave the state alone.
    await expect(
      w.reads.read('wallets:list', {}, () => Promise.reject(new CoreError('NOT_LOGGED_IN', 'log in'))),
    ).rejects.toMatchObject({ code: 'NOT_LOGGED_IN' });
  });

  it('readFresh asks the service first, and falls back to the cache only when it is unreachable', async () => {
    const w = world();
    await w.reads.readFresh('wallets:list', {}, async () => 1);
    expect(await w.reads.readFresh('wallets:list', {}, async () => 2)).toMatchObject({
      data: 2,
      freshness: { fromCache: false },
    });
    expect(await w.reads.readFresh('wallets:list', {}, offline)).toMatchObject({
      data: 2,
      freshness: { fromCache: true, stale: true },
    });
  });

  it('keeps answers per profile, and invalidates one profile’s channels', async () => {
    const w = world();
    await w.reads.read('copyTrades:list', {}, async () => 'p1 trades');
    await w.reads.read('wallets:list', {}, async () => 'p1 wallets');
    w.use('p2');
    expect((await w.reads.read('copyTrades:list', {}, async () => 'p2 trades')).data).toBe('p2 trades');
    w.reads.invalidate(['copyTrades:list']);
    w.use('p1');
    expect((await w.reads.read('copyTrades:list', {}, offline)).data).toBe('p1 trades');
    w.use('p2');
    await expect(w.reads.read('copyTrades:list', {}, offline)).rejects.toMatchObject({ code: 'OFFLINE' });
  });
});

describe('the cache size limit', () => {
  it('evicts the least recently used answers after each write, down to the limit', async () => {
    const db = openCacheDatabase(':memory:');
    let clock = 0;
    const cache = new ResponseCache(db, () => (clock += 1));
    const events = new CoreEvents();
    const reads = new ReadThrough({
      cache,
      events,
      connectivity: new Connectivity(events, 'p1'),
      profileId: () => 'p1',
      afterWrite: () => cache.evictTo(3_000),
    });
    const page = (n: number) => async () => ({ n, filler: 'x'.repeat(900) });
    for (const n of [1, 2, 3]) await reads.read('live:top', { limit: n }, page(n));
    await reads.read('live:top', { limit: 1 }, page(1)); // used again: now the most recent
    await vi.waitFor(() => expect(cache.usage().entries).toBe(3));
    await reads.read('live:top', { limit: 4 }, page(4));
    expect(cache.usage().bytes).toBeLessThanOrEqual(3_000);
    expect(cache.get('p1', requestKey('live:top', { limit: 2 }))).toBeNull();
    expect(cache.get('p1', requestKey('live:top', { limit: 1 }))).not.toBeNull();
    expect(cache.get('p1', requestKey('live:top', { limit: 4 }))).not.toBeNull();
  });
});
