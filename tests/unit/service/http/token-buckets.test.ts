// The token buckets behind the rate limit and the search budget (src/service/http/token-buckets.ts).
import { describe, expect, it } from 'vitest';
import { TokenBuckets } from '../../../../src/service/http/token-buckets';

describe('token buckets', () => {
  it('start full, refill at the rate up to the burst, and refill from below zero', () => {
    const buckets = new TokenBuckets(100, 1_000);
    expect(buckets.held('a', 0)).toBe(1_000);
    buckets.take('a', 1_600, 0);
    expect(buckets.held('a', 0)).toBe(-600);
    expect(buckets.waitS('a', 0, 0)).toBe(6);
    expect(buckets.held('a', 2_500)).toBe(-350);
    expect(buckets.held('a', 60_000)).toBe(1_000);
    expect(buckets.held('b', 0)).toBe(1_000);
    // A clock that goes back refills nothing, then or when it comes forward again.
    buckets.take('b', 10, 5_000);
    expect(buckets.held('b', 4_000)).toBe(990);
    buckets.take('b', 10, 4_000);
    expect(buckets.held('b', 5_000)).toBe(980);
  });

  it('asks at least a second even when a fraction is missing', () => {
    const buckets = new TokenBuckets(50, 100);
    buckets.take('a', 100, 0);
    expect(buckets.waitS('a', 1, 0)).toBe(1);
    buckets.take('a', 200, 0);
    expect(buckets.waitS('a', 1, 0)).toBe(5);
  });

  it('forgets full buckets past 10,000 keys and keeps the ones still owed', () => {
    const buckets = new TokenBuckets(1, 10);
    buckets.take('owes', 20, 0);
    for (let i = 0; i < 10_001; i += 1) buckets.take(`k${i}`, 1, 0);
    // 20 s later every k… bucket is full again; the next key past the cap drops them.
    buckets.take('late', 1, 20_000);
    expect(buckets.size).toBeLessThan(10);
    expect(buckets.held('owes', 20_000)).toBe(10);
    buckets.take('owes2', 100, 20_000);
    for (let i = 0; i < 10_001; i += 1) buckets.take(`m${i}`, 1, 20_000);
    expect(buckets.held('owes2', 20_000)).toBe(-90);
  });
});
