// The shared columnar statistics index (src/shared/statistics-index) on small hand-made
// populations: SQLite's NULL rules, the documented tie order in both directions, and
// generations that never change under a reader (docs/statistics.md, "The columnar index").
import { describe, expect, it } from 'vitest';
import {
  FRESH_ORDERS,
  IndexGeneration,
  Population,
  type ColumnSource,
  matchingRecords,
  orderAll,
  searchPopulations,
  type IndexCondition,
} from '../../../../src/shared/statistics-index';

/** A population of records a..f (ids in order) with `pnl` values, NaN for a missing one. */
function population(key: string, pnl: number[], ids = ['a', 'b', 'c', 'd', 'e', 'f']): Population {
  return new Population(key, {
    constants: { protocol: key.split('|')[0]!, type: key.split('|')[1]! },
    texts: { id: ids.slice(0, pnl.length), account: ids.slice(0, pnl.length).map((i) => `0x${i}`) },
    numbers: { pnl: Float64Array.from(pnl) },
  });
}

const ids = (p: Population, rows: ArrayLike<number>) => Array.from(rows, (r) => p.tie(r));
const page = (pops: Population[], field: string, desc: boolean, conditions: IndexCondition[] = []) =>
  searchPopulations(pops, {
    conditions,
    sort: [
      { field, desc },
      { field: 'id', desc: false },
    ],
    offset: 0,
    limit: 10,
  }).refs.map((r) => r.population.tie(r.row));

describe('the statistics index', () => {
  const p = population('X|D7', [5, NaN, 5, 1, NaN, 5]);

  it('sorts missing values first ascending and last descending, ties by id both ways', () => {
    expect(page([p], 'pnl', false)).toEqual(['b', 'e', 'd', 'a', 'c', 'f']);
    expect(page([p], 'pnl', true)).toEqual(['a', 'c', 'f', 'd', 'b', 'e']);
  });

  it('gives the same order by a partial sort when matches are few', () => {
    // Two matches of six: below the walk's density, so the heap path orders them.
    const few: IndexCondition[] = [{ field: 'id', in: ['f', 'a'] }];
    expect(page([p], 'pnl', true, few)).toEqual(['a', 'f']);
  });

  it('treats a missing value as SQL NULL in every condition', () => {
    const match = (c: IndexCondition) => ids(p, matchingRecords(p, [c]));
    expect(match({ field: 'pnl', gte: 0 })).toEqual(['d', 'a', 'c', 'f']);
    expect(match({ field: 'pnl', match: null })).toEqual(['b', 'e']);
    expect(match({ field: 'pnl', exists: false })).toEqual(['b', 'e']);
    expect(match({ field: 'pnl', nin: [1] }).sort()).toEqual(['a', 'c', 'f']);
    expect(match({ field: 'pnl', nin: [1, null] })).toEqual([]);
    expect(match({ field: 'pnl', nin: [] })).toHaveLength(6);
    expect(match({ field: 'pnl', in: [] })).toEqual([]);
    expect(
      match({
        or: [
          { field: 'pnl', lt: 2 },
          { field: 'pnl', match: null },
        ],
      }).sort(),
    ).toEqual(['b', 'd', 'e']);
  });

  it('reads an `in` or `nin` list once per search, not once per record', () => {
    // 5,000 values over 200,000 records took ~20 s of the service's only thread when each record
    // read the whole list; a list read once costs the same whatever the population's size.
    const size = 2000;
    const hex = Array.from({ length: size }, (_, i) => i.toString(16).padStart(24, '0'));
    const big = new Population('X|D7', {
      constants: { protocol: 'X', type: 'D7' },
      texts: { id: hex, account: hex.map((h) => `0x${h}`) },
      numbers: { pnl: Float64Array.from(hex, (_, i) => i) },
    });
    for (const [field, op] of [
      ['id', 'in'],
      ['id', 'nin'],
      ['account', 'in'],
      ['account', 'nin'],
      ['protocol', 'in'],
    ] as const) {
      const values = Array.from({ length: 300 }, (_, i) =>
        field === 'account' ? `0x${hex[i * 6]}` : field === 'id' ? hex[i * 6]! : `P${i}`,
      );
      let reads = 0;
      const counted = new Proxy(values, {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) reads += 1;
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
      const found = matchingRecords(big, [{ field, [op]: counted }]);
      expect(reads, `${field} ${op}`).toBeLessThanOrEqual(4 * values.length);
      const expected = field === 'protocol' ? 0 : op === 'in' ? values.length : size - values.length;
      expect(found.length, `${field} ${op}`).toBe(expected);
    }
  });

  it('sorts at most FRESH_ORDERS columns no query had sorted, for one search in one population', () => {
    // One GraphQL search bounding 90 such fields sorted every one in each of 40 populations: ~3 s
    // of the service's thread at 200,000 records. The rest are checked by reading their codes.
    const size = 1000;
    const fields = Array.from({ length: 12 }, (_, f) => `m${f}`);
    const twelve = () =>
      new Population('X|D7', {
        constants: { protocol: 'X', type: 'D7' },
        texts: { id: Array.from({ length: size }, (_, i) => i.toString(16).padStart(4, '0')) },
        numbers: Object.fromEntries(
          fields.map((f, k) => [f, Float64Array.from({ length: size }, (_, i) => (i * (k + 3)) % 101)]),
        ),
      });
    const wide = twelve();
    const conditions: IndexCondition[] = fields.map((field, k) => ({ field, gte: k % 3 }));
    const sort = [{ field: 'id', desc: false }];
    const page = searchPopulations([wide], { conditions, sort, offset: 0, limit: 10 });
    expect(fields.filter((f) => wide.holdsOrder(f))).toHaveLength(FRESH_ORDERS);
    const expected = Array.from({ length: size }, (_, row) => row).filter((row) =>
      fields.every((f, k) => wide.number(f).at(row) >= k % 3),
    );
    // The bounds keep some records and leave out others, so the checks past the limit count.
    expect(expected.length).toBeGreaterThan(10);
    expect(expected.length).toBeLessThan(size);
    expect(page.total).toBe(expected.length);
    expect(page.refs.map((r) => r.row)).toEqual(expected.slice(0, 10));
    // A narrow bound among them (a few records): read record by record, with the same rule.
    const narrow = twelve();
    const few: IndexCondition[] = [...conditions, { field: 'm11', lte: 2 }];
    const fewPage = searchPopulations([narrow], { conditions: few, sort, offset: 0, limit: 10 });
    expect(fields.filter((f) => narrow.holdsOrder(f)).length).toBeLessThanOrEqual(2 * FRESH_ORDERS);
    const fewExpected = expected.filter((row) => narrow.number('m11').at(row) <= 2);
    expect(fewExpected.length).toBeGreaterThan(0);
    expect(fewPage.total).toBe(fewExpected.length);
    expect(fewPage.refs.map((r) => r.row)).toEqual(fewExpected.slice(0, 10));
  });

  it('settles a population by its shared texts and merges populations by value, then id, then key', () => {
    const q = population('Y|D7', [5, 7], ['a', 'z']);
    expect(page([p, q], 'pnl', true, [{ field: 'protocol', in: ['X', 'Y'] }])).toEqual([
      'z',
      'a',
      'a',
      'c',
      'f',
      'd',
      'b',
      'e',
    ]);
    expect(page([p, q], 'pnl', true, [{ field: 'protocol', match: 'Y' }])).toEqual(['z', 'a']);
    expect(
      orderAll(
        [q, p],
        [],
        [
          { field: 'pnl', desc: true },
          { field: 'id', desc: false },
        ],
      ).map((r) => r.population.key),
    ).toEqual(['Y|D7', 'X|D7', 'Y|D7', 'X|D7', 'X|D7', 'X|D7', 'X|D7', 'X|D7']);
  });

  it('refuses records out of id order, and keeps a generation unchanged under a swap', () => {
    expect(() => population('X|D7', [1, 2], ['b', 'a'])).toThrow(/ascending id order/);
    const first = new IndexGeneration(new Map([['X|D7', p]]));
    const second = first.with(new Map([['X|D7', population('X|D7', [9])]]));
    expect(first.get('X|D7')).toBe(p);
    expect(second.get('X|D7')?.size).toBe(1);
    expect(first.with(new Map([['X|D7', null]])).all()).toEqual([]);
  });

  it('replaces columns without copying the others or their permutations', () => {
    const q = new Population('X|D7', {
      constants: { protocol: 'X', type: 'D7' },
      texts: { id: ['a', 'b'], account: ['0xa', '0xb'] },
      numbers: { pnl: Float64Array.from([2, 1]), roi: Float64Array.from([1, 2]) },
    });
    const before = q.ascending('pnl');
    const next = q.withNumbers({ roi: Float64Array.from([3, 0]) });
    expect(next.ascending('pnl')).toBe(before);
    expect(Array.from(next.ascending('roi'))).toEqual([1, 0]);
  });

  it('asks its source for the columns a query names, once, all of a query at once', () => {
    const values: Record<string, number[]> = { pnl: [5, NaN, 1], roi: [2, 2, 1], fee: [0, 1, 0] };
    const asked: string[][] = [];
    let current = true;
    const source: ColumnSource = {
      fields: new Set(Object.keys(values)),
      numbers(_population, fields) {
        if (!current) throw new Error('gone');
        asked.push([...fields]);
        return Object.fromEntries(fields.map((f) => [f, Float64Array.from(values[f]!)]));
      },
    };
    const q = new Population(
      'X|D7',
      { constants: { protocol: 'X', type: 'D7' }, texts: { id: ['a', 'b', 'c'] }, numbers: {} },
      'id',
      source,
    );
    expect(q.kindOf('roi')).toBe('number');
    expect(q.kindOf('nothing')).toBeUndefined();
    expect(page([q], 'pnl', true, [{ field: 'roi', gte: 1 }])).toEqual(['a', 'c', 'b']);
    expect(asked).toEqual([['pnl', 'roi']]);
    expect(page([q], 'roi', false, [{ field: 'pnl', exists: true }])).toEqual(['c', 'a']);
    expect(asked).toHaveLength(1);
    expect(q.bytesByKind().int16).toBe(2 * 3 * 2);
    // A copy with a column dropped asks for it again; a column read without keeping it is not held.
    const next = q.withNumbers({}, ['pnl']);
    expect(next.heldNumbers.has('pnl')).toBe(false);
    expect(next.unheld('fee').at(1)).toBe(1);
    expect(next.heldNumbers.has('fee')).toBe(false);
    expect(asked).toHaveLength(2);
    current = false;
    expect(() => next.number('pnl')).toThrow('gone');
    expect(q.number('pnl').at(0)).toBe(5);
  });
});
