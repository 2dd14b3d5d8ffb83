// What points in time hold in memory (src/service/statistics/index/pit-memory.ts;
// docs/statistics.md, "Search-after"): kept orders at 5 bytes a record within a count and a byte
// bound, and the columns older pinned generations hold beyond the current one, counted once.
import { describe, expect, it } from 'vitest';
import { IndexGeneration, Population, type RecordRef } from '../../../../../src/shared/statistics-index';
import {
  KeptOrder,
  KeptOrders,
  oldestToDrop,
  pinnedBytes,
} from '../../../../../src/service/statistics/index/pit-memory';

function population(key: string, size: number, seed = 1): Population {
  const ids = Array.from({ length: size }, (_, i) => i.toString(16).padStart(24, '0'));
  return new Population(key, {
    constants: { protocol: key.split('|')[0]!, type: key.split('|')[1]! },
    texts: { id: ids, account: ids.map((id) => `0x${id}`) },
    numbers: {
      pnl: Float64Array.from(ids, (_, i) => (i * 7919 + seed) % 1000),
      'ranking.pnl': Float64Array.from(ids, (_, i) => ((i + seed) % 100) / 1.25),
    },
  });
}

/** A re-ranked copy, as the live market's refresh makes: new percentiles, every other column shared. */
const reranked = (p: Population, seed: number) =>
  p.withNumbers({
    'ranking.pnl': Float64Array.from({ length: p.size }, (_, i) => ((i * seed) % 100) / 1.25),
  });

const generation = (...populations: Population[]) =>
  new IndexGeneration(new Map(populations.map((p) => [p.key, p])));

describe('a kept order', () => {
  it('gives back every record in order, at 5 bytes a record', () => {
    const a = population('X|D7', 300);
    const b = population('Y|D7', 200);
    const refs: RecordRef[] = [];
    for (let i = 0; i < 500; i += 1)
      refs.push(i % 5 < 3 ? { population: a, row: (i * 37) % 300 } : { population: b, row: (i * 11) % 200 });
    const order = KeptOrder.of(refs);
    expect(order.length).toBe(500);
    expect(order.byteLength).toBe(500 * 5);
    expect(Array.from({ length: 500 }, (_, i) => order.at(i))).toEqual(refs);
    expect(order.slice(498, 600)).toEqual(refs.slice(498));
  });

  it('keeps at most its count and its bytes, the least recently used going first', () => {
    const p = population('X|D7', 100);
    const refs = (n: number) => Array.from({ length: n }, (_, row) => ({ population: p, row }));
    const kept = new KeptOrders(3, 1000);
    let made = 0;
    const get = (key: string, n: number) =>
      kept.get(key, () => {
        made += 1;
        return refs(n);
      });
    get('a', 100);
    get('b', 50);
    get('a', 100);
    expect(made).toBe(2);
    // 500 + 250 + 300 bytes pass the bound: b, the least recently used, goes.
    get('c', 60);
    expect(kept.heldBytes).toBe(800);
    get('b', 50);
    expect(made).toBe(4);
    expect(kept.heldBytes).toBeLessThanOrEqual(1000);
    expect(kept.size).toBeLessThanOrEqual(3);
    // One order over the bound alone is answered and not kept.
    const big = get('d', 201);
    expect(big.length).toBe(201);
    get('d', 201);
    expect(made).toBe(6);
    expect(kept.heldBytes).toBeLessThanOrEqual(1000);
  });
});

describe('pinned generations', () => {
  const x = population('X|D7', 1000);
  const y = population('Y|D7', 1000, 2);
  const rankingBytes = x.number('ranking.pnl').byteLength;

  it('count only the columns the current generation does not share, each once', () => {
    const g1 = generation(x, y);
    const x2 = reranked(x, 3);
    const g2 = generation(x2, y);
    const g3 = generation(reranked(x2, 7), y);
    expect(pinnedBytes(g3, [g3])).toBe(0);
    // g1 and g2 each hold an x whose percentile column g3 replaced; ids, accounts, pnl and y are shared.
    expect(pinnedBytes(g3, [g1])).toBe(rankingBytes);
    expect(pinnedBytes(g3, [g1, g2, g1])).toBe(2 * rankingBytes);
  });

  it('let the oldest go until the rest fit, never the newest', () => {
    const pinned: IndexGeneration[] = [];
    let p = x;
    for (let seed = 3; seed < 13; seed += 1) {
      p = reranked(p, seed);
      pinned.push(generation(p, y));
    }
    const current = generation(reranked(p, 97), y);
    expect(oldestToDrop(pinned, current, 10 * rankingBytes)).toBe(0);
    expect(oldestToDrop(pinned, current, 4 * rankingBytes)).toBe(6);
    expect(pinnedBytes(current, pinned.slice(6))).toBe(4 * rankingBytes);
    expect(oldestToDrop(pinned, current, 0)).toBe(9);
    expect(oldestToDrop([], current, 0)).toBe(0);
  });
});
