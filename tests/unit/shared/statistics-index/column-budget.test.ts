// The budget of what populations hold and can make again (docs/statistics.md, "The budget of
// columns held"): columns from a source and permutations are released least recently used first,
// never during the query using them, and read back exactly when next named.
import { describe, expect, it } from 'vitest';
import {
  ColumnBudget,
  Population,
  searchPopulations,
  type ColumnSource,
  type IndexCondition,
} from '../../../../src/shared/statistics-index';

const SIZE = 64;
const FIELDS = ['f0', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7'];
/** Field f<k> of record i: a float64 (not narrowable) with ties and missing values. */
const valueOf = (k: number, i: number) => (i % (k + 3) === 0 ? NaN : ((i * (k + 7)) % 11) + 0.1 * k + 1e-9);
const ids = Array.from({ length: SIZE }, (_, i) => `r${String(i).padStart(3, '0')}`);

/** A source that counts what it is asked for. */
function source(asked: string[]): ColumnSource {
  return {
    fields: new Set(FIELDS),
    numbers(_population, fields) {
      asked.push(...fields);
      return Object.fromEntries(
        fields.map((f) => [f, Float64Array.from({ length: SIZE }, (_, i) => valueOf(Number(f.slice(1)), i))]),
      );
    },
  };
}

function population(key: string, budget: ColumnBudget | null, asked: string[]): Population {
  return new Population(
    key,
    {
      constants: { protocol: key.split('|')[0]!, type: key.split('|')[1]! },
      texts: { id: ids, account: ids.map((i) => `0x${i}`) },
      numbers: { held: Float64Array.from({ length: SIZE }, (_, i) => i % 5) },
    },
    'id',
    source(asked),
    budget,
  );
}

const query = (pops: Population[], sortField: string, desc: boolean, conditions: IndexCondition[]) =>
  searchPopulations(pops, {
    conditions,
    sort: [
      { field: sortField, desc },
      { field: 'id', desc: false },
    ],
    offset: 3,
    limit: 20,
  });

describe('the column budget', () => {
  it('keeps held bytes within the budget between queries, answers equal to an unbounded index', () => {
    // A column of 64 doubles is 512 bytes and its permutation 128: room for about two fields.
    const budget = new ColumnBudget(1400);
    const bounded = [population('X|D7', budget, []), population('Y|D7', budget, [])];
    const unbounded = [population('X|D7', null, []), population('Y|D7', null, [])];
    for (let q = 0; q < 60; q += 1) {
      const a = FIELDS[q % FIELDS.length]!;
      const b = FIELDS[(q * 3 + 1) % FIELDS.length]!;
      const conditions: IndexCondition[] = [
        { field: a, gte: (q % 7) + 0.5 },
        { field: 'held', lte: 3 },
      ];
      const got = query(bounded, b, q % 2 === 0, conditions);
      const want = query(unbounded, b, q % 2 === 0, conditions);
      expect(got.total).toBe(want.total);
      expect(got.refs.map((r) => `${r.population.key}/${r.row}`)).toEqual(
        want.refs.map((r) => `${r.population.key}/${r.row}`),
      );
      // Within a query the held parts may exceed the budget (they are in use); not once it ends.
      budget.beginQuery();
      const held = bounded.reduce((sum, p) => sum + p.bytes(), 0);
      const fixed = bounded.reduce((sum, p) => sum + p.number('held').byteLength, 0);
      const texts = bounded.reduce((sum, p) => sum + p.bytesByKind().texts, 0);
      expect(budget.heldBytes).toBeLessThanOrEqual(1400);
      expect(held - fixed - texts).toBe(budget.heldBytes);
    }
    expect(budget.released).toBeGreaterThan(0);
  });

  it('releases the least recently used part, reads it back when named, never mid-query', () => {
    const asked: string[] = [];
    const budget = new ColumnBudget(2 * 512);
    const p = population('X|D7', budget, asked);
    p.prepare(['f0', 'f1']);
    expect(asked).toEqual(['f0', 'f1']);
    // One query names f0 and f2: f1 (used least recently) goes; f0, used by this query, stays.
    budget.beginQuery();
    p.prepare(['f0', 'f2']);
    expect(asked).toEqual(['f0', 'f1', 'f2']);
    expect([...p.heldNumbers.keys()].sort()).toEqual(['f0', 'f2', 'held']);
    expect(budget.heldBytes).toBe(2 * 512);
    // A query naming more than the budget holds all it names until the next query begins.
    budget.beginQuery();
    p.prepare(['f3', 'f4', 'f5']);
    expect(budget.heldBytes).toBe(3 * 512);
    expect([...p.heldNumbers.keys()].sort()).toEqual(['f3', 'f4', 'f5', 'held']);
    budget.beginQuery();
    expect(budget.heldBytes).toBeLessThanOrEqual(2 * 512);
    // Released, then named again: read back from the source, exactly.
    expect(p.heldNumbers.has('f1')).toBe(false);
    expect(Array.from({ length: SIZE }, (_, i) => p.number('f1').at(i))).toEqual(
      Array.from({ length: SIZE }, (_, i) => valueOf(1, i)),
    );
    expect(asked.filter((f) => f === 'f1')).toHaveLength(2);
  });

  it('counts permutations and remakes a released one in the same order', () => {
    const budget = new ColumnBudget(512 + 128);
    const p = population('X|D7', budget, []);
    const first = Array.from(p.ascending('f0'));
    budget.beginQuery();
    p.ascending('f1');
    budget.beginQuery();
    expect(budget.heldBytes).toBeLessThanOrEqual(512 + 128);
    expect(Array.from(p.ascending('f0'))).toEqual(first);
    // The column that is always held is outside the budget.
    expect(p.heldNumbers.has('held')).toBe(true);
  });
});
