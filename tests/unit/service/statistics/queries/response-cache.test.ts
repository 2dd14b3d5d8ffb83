import { describe, expect, it } from 'vitest';
import { ResponseCache } from '../../../../../src/service/statistics/queries/response-cache';

describe('ResponseCache', () => {
  it('holds at most its byte budget, dropping the least recently used first', () => {
    const cache = new ResponseCache(100, 1_000);
    for (const key of ['a', 'b', 'c']) cache.getOrCompute(key, () => 'x'.repeat(400));
    expect(cache.bytes).toBeLessThanOrEqual(1_000);
    expect(cache.size).toBe(2);
    cache.getOrCompute('b', () => 'never');
    expect(cache.hits).toBe(1);
  });

  it('answers but never keeps an answer bigger than the whole budget', () => {
    const cache = new ResponseCache(100, 1_000);
    expect(cache.getOrCompute('big', () => 'y'.repeat(2_000)).length).toBe(2_000);
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it('holds at most its entry count', () => {
    const cache = new ResponseCache(2, 1_000_000);
    for (const key of ['a', 'b', 'c']) cache.getOrCompute(key, () => key);
    expect(cache.size).toBe(2);
  });
});
