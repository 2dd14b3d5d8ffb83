import { afterEach, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-db';
import { ResponseCache } from '../../../../../src/main/core/cache/response-cache';

describe('ResponseCache', () => {
  let db: Database.Database;
  afterEach(() => db?.close());

  function cacheAt(clock: { t: number }) {
    db = openCacheDatabase(':memory:');
    return new ResponseCache(db, () => clock.t);
  }

  it('keeps answers per profile', () => {
    const cache = cacheAt({ t: 1 });
    cache.put('local', 'k', 'tokens:list', { a: 1 }, '2026-01-01T00:00:00.000Z');
    cache.put('remote', 'k', 'tokens:list', { a: 2 }, '2026-01-02T00:00:00.000Z');
    expect(cache.get('local', 'k')).toEqual({ value: { a: 1 }, fetchedAt: '2026-01-01T00:00:00.000Z' });
    expect(cache.get('remote', 'k')?.value).toEqual({ a: 2 });
    cache.clear('remote');
    expect(cache.get('remote', 'k')).toBeNull();
    expect(cache.get('local', 'k')).not.toBeNull();
  });

  it('evicts the least recently used answers first, down to the limit', () => {
    const clock = { t: 1 };
    const cache = cacheAt(clock);
    for (const key of ['a', 'b', 'c']) {
      clock.t += 1;
      cache.put('p', key, 'x', 'y'.repeat(100), 'now');
    }
    clock.t += 1;
    cache.get('p', 'a'); // a is now the most recently used
    const one = cache.usage().bytes / 3;
    expect(cache.evictTo(Math.ceil(one * 2))).toBe(1);
    expect(cache.get('p', 'b')).toBeNull();
    expect(cache.get('p', 'a')).not.toBeNull();
    expect(cache.get('p', 'c')).not.toBeNull();
    expect(cache.evictTo(10_000_000)).toBe(0);
  });

  it('counts its bytes through replaced answers, evictions and clears, as the table sums them', () => {
    const clock = { t: 1 };
    const cache = cacheAt(clock);
    const put = (key: string, size: number, channel = 'x') => {
      clock.t += 1;
      cache.put('p', key, channel, 'y'.repeat(size), 'now');
    };
    put('a', 100);
    put('b', 100);
    expect(cache.evictTo(10_000_000)).toBe(0); // counts the table once
    put('a', 1000); // replaced: bigger
    put('c', 100, 'other');
    put('b', 10); // replaced: smaller
    // The limit keeps a, b and c only if b's replacement was counted as smaller.
    expect(cache.evictTo(cache.usage().bytes)).toBe(0);
    expect(cache.evictTo(cache.usage().bytes - 1)).toBe(1);
    expect(cache.get('p', 'a')).toBeNull();
    cache.clearChannels('p', ['other']);
    expect(cache.usage().entries).toBe(1);
    expect(cache.evictTo(cache.usage().bytes)).toBe(0);
    expect(cache.evictTo(cache.usage().bytes - 1)).toBe(1);
    expect(cache.usage()).toEqual({ bytes: 0, entries: 0 });
  });
});
