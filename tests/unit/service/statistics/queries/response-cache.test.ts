import { describe, expect, it } from 'vitest';
import { ResponseCache } from '../../../../../src/service/statistics/queries/response-cache';

/** Asks each key twice, so that its answer is kept (an answer is kept from its key's second ask). */
const askTwice = (cache: ResponseCache, keys: string[], answer: (key: string) => string) => {
  for (const key of keys) for (let i = 0; i < 2; i += 1) cache.getOrCompute(key, () => answer(key));
};

describe('ResponseCache', () => {
  it('holds at most its byte budget, dropping the least recently used first', () => {
    const cache = new ResponseCache(100, 1_000);
    askTwice(cache, ['a', 'b', 'c'], () => 'x'.repeat(400));
    expect(cache.bytes).toBeLessThanOrEqual(1_000);
    expect(cache.size).toBe(2);
    cache.getOrCompute('b', () => 'never');
    expect(cache.hits).toBe(1);
  });

  it('answers but never keeps an answer bigger than the whole budget', () => {
    const cache = new ResponseCache(100, 1_000);
    expect(cache.getOrCompute('big', () => 'y'.repeat(2_000)).length).toBe(2_000);
    expect(cache.getOrCompute('big', () => 'y'.repeat(2_000)).length).toBe(2_000);
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it('holds at most its entry count', () => {
    const cache = new ResponseCache(2, 1_000_000);
    askTwice(cache, ['a', 'b', 'c'], (key) => key);
    expect(cache.size).toBe(2);
  });

  it('keeps no answer of a key asked once, so a stream of new queries leaves the cache as it was', () => {
    const cache = new ResponseCache(100, 1_000_000);
    askTwice(cache, ['kept'], () => 'kept answer');
    for (let i = 0; i < 5_000; i += 1) cache.getOrCompute(`new query ${i}`, () => 'z'.repeat(100));
    expect(cache.size).toBe(1);
    expect(cache.notAdmitted).toBe(5_001);
    expect(cache.getOrCompute('kept', () => 'recomputed').toString()).toBe('kept answer');
  });

  it('answers a key from its third ask on: computed twice, then kept', () => {
    const cache = new ResponseCache(100, 1_000_000);
    let computed = 0;
    const ask = () => cache.getOrCompute('q', () => `answer ${(computed += 1)}`).toString();
    expect([ask(), ask(), ask(), ask()]).toEqual(['answer 1', 'answer 2', 'answer 2', 'answer 2']);
    expect(computed).toBe(2);
    expect(cache.hits).toBe(2);
  });
});
