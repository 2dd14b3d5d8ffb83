// The index's search against a plain reference (filter every record by SQL's NULL rules, sort
// by value, then id, then population) over columns of every narrow form: float64 and float32
// codes as well as integer ones, with missing values, -0, ties, and bounds on neighbouring
// doubles (a strict bound over float codes is the next double, conditions.ts). The integration
// property tests compare with SQLite, but their columns are narrow integers.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  orderAll,
  Population,
  searchPopulations,
  type IndexCondition,
  type SortTerm,
} from '../../../../src/shared/statistics-index';

const next = (x: number, up: boolean): number => {
  const f = new Float64Array([x]);
  const i = new BigInt64Array(f.buffer);
  if (x === 0) return up ? Number.MIN_VALUE : -Number.MIN_VALUE;
  i[0] = i[0]! + (x > 0 === up ? 1n : -1n);
  return f[0]!;
};

/**
 * Values per column: float64 (unrounded), float32, 16-bit and 32-bit integers, each with NaN;
 * each form twice, so that a search can bound more fields than it may sort (FRESH_ORDERS).
 */
const FORMS: Record<string, number[]> = {
  f64: [NaN, -0, 0, 0.1, 0.30000000000000004, 7.123456789, -1.5, 2.5e10, 1e-300],
  f32: [NaN, 0, 0.5, 1.25, Math.fround(0.1), Math.fround(3.3), -2],
  i16: [NaN, 0, 1, 2, 3, -7, 250],
  i32: [NaN, 0, 100_000, 2_000_000, -3, 1_000_000_000],
};
const POOLS: Record<string, number[]> = Object.fromEntries(
  Object.entries(FORMS).flatMap(([form, pool]) => [
    [form, pool],
    [`${form}b`, pool],
  ]),
);
const FIELDS = Object.keys(POOLS);
const KEYS = ['P|D7', 'P|D30', 'Q|D7'];

const populationArb = fc
  .tuple(
    fc.integer({ min: 0, max: 40 }),
    fc.array(fc.nat(), { minLength: 8 * 40, maxLength: 8 * 40 }),
    fc.uniqueArray(fc.integer({ min: 0, max: 255 }), { minLength: 40, maxLength: 40 }),
  )
  .map(([size, picks, idBytes]) => ({ size, picks, ids: idBytes.sort((a, b) => a - b) }));

function population(key: string, spec: { size: number; picks: number[]; ids: number[] }): Population {
  const numbers: Record<string, Float64Array> = {};
  FIELDS.forEach((field, f) => {
    const pool = POOLS[field]!;
    numbers[field] = Float64Array.from(
      { length: spec.size },
      (_, i) => pool[spec.picks[f * 40 + i]! % pool.length]!,
    );
  });
  const ids = spec.ids.slice(0, spec.size).map((b) => b.toString(16).padStart(2, '0'));
  const [protocol, type] = key.split('|') as [string, string];
  return new Population(key, { constants: { protocol, type }, texts: { id: ids, account: ids }, numbers });
}

const valueArb = (field: string) =>
  fc
    .tuple(fc.constantFrom(...POOLS[field]!.filter((v) => v === v)), fc.constantFrom(-1, 0, 1))
    .map(([v, step]) => (step === 0 ? v : next(v, step > 0)));

const fieldConditionArb: fc.Arbitrary<IndexCondition> = fc.constantFrom(...FIELDS).chain((field) =>
  fc
    .tuple(valueArb(field), valueArb(field), fc.integer({ min: 0, max: 9 }))
    .map(([a, b, shape]): IndexCondition => {
      const [lo, hi] = a <= b ? [a, b] : [b, a];
      switch (shape) {
        case 0:
          return { field, gte: lo, lte: hi };
        case 1:
          return { field, gt: lo, lt: hi };
        case 2:
          return { field, gt: a };
        case 3:
          return { field, lt: b };
        case 4:
          return { field, match: a };
        case 5:
          return { field, match: null };
        case 6:
          return { field, in: [a, b] };
        case 7:
          return { field, nin: [a] };
        case 8:
          return { field, exists: a > 0 };
        default:
          return { field, gte: a, nin: [b] };
      }
    }),
);
const conditionArb: fc.Arbitrary<IndexCondition> = fc.oneof(
  { weight: 5, arbitrary: fieldConditionArb },
  { weight: 1, arbitrary: fc.constantFrom(...KEYS).map((k) => ({ field: 'type', match: k.split('|')[1]! })) },
  {
    weight: 1,
    arbitrary: fc.array(fieldConditionArb, { minLength: 1, maxLength: 2 }).map((or) => ({ or })),
  },
);
const sortArb: fc.Arbitrary<SortTerm[]> = fc
  .uniqueArray(fc.constantFrom(...FIELDS, 'id'), { minLength: 1, maxLength: 2 })
  .chain((fields) => fc.tuple(...fields.map((field) => fc.boolean().map((desc) => ({ field, desc })))))
  .map((terms) => [
    ...terms,
    ...(terms.some((t) => t.field === 'id') ? [] : [{ field: 'id', desc: false }]),
    { field: 'protocol', desc: false },
    { field: 'type', desc: false },
  ]);

/** A value of a record: a number (NaN when missing) or a text. */
function valueOf(p: Population, row: number, field: string): number | string {
  const kind = p.kindOf(field);
  if (kind === 'number') return p.number(field).at(row);
  return kind === 'text' ? p.text(field).at(row) : p.constant(field);
}

/** SQL's rules: NULL (NaN) fails every comparison, `in` and `nin`; `match: null` picks it. */
function holds(c: IndexCondition, p: Population, row: number): boolean {
  if ('or' in c) return c.or.some((m) => holds(m, p, row));
  const x = valueOf(p, row, c.field);
  const present = x === x;
  if (c.match === null && present) return false;
  if (c.match !== undefined && c.match !== null && !(present && x === c.match)) return false;
  if (c.in && !(present && c.in.some((v) => v === x))) return false;
  if (c.nin && c.nin.length > 0 && !(present && !c.nin.includes(null) && !c.nin.some((v) => v === x)))
    return false;
  if (c.gte !== undefined && !(present && x >= c.gte)) return false;
  if (c.gt !== undefined && !(present && x > c.gt)) return false;
  if (c.lte !== undefined && !(present && x <= c.lte)) return false;
  if (c.lt !== undefined && !(present && x < c.lt)) return false;
  return c.exists === undefined || c.exists === present;
}

/** The reference order: values (a missing number below every number), then id, then key. */
function compare(sort: readonly SortTerm[]) {
  const key = (v: number | string) => (typeof v === 'number' && v !== v ? -Infinity : v);
  return (a: { p: Population; row: number }, b: { p: Population; row: number }): number => {
    for (const t of sort) {
      const x = key(valueOf(a.p, a.row, t.field));
      const y = key(valueOf(b.p, b.row, t.field));
      if (x !== y) return (x < y ? -1 : 1) * (t.desc ? -1 : 1);
    }
    const x = a.p.tie(a.row);
    const y = b.p.tie(b.row);
    if (x !== y) return x < y ? -1 : 1;
    return a.p.key < b.p.key ? -1 : a.p.key > b.p.key ? 1 : 0;
  };
}

const name = (p: Population, row: number) => `${p.key}|${p.tie(row)}`;

/**
 * A property over three random populations: the index's page (and, with `fullOrder`, its whole
 * order) equals a plain filter and sort of every record.
 */
function answersAsPlainFilter(conditionsArb: fc.Arbitrary<IndexCondition[]>, fullOrder: boolean): void {
  fc.assert(
    fc.property(
      fc.tuple(populationArb, populationArb, populationArb),
      conditionsArb,
      sortArb,
      fc.integer({ min: 0, max: 30 }),
      fc.integer({ min: 1, max: 30 }),
      (specs, conditions, sort, offset, limit) => {
        const pops = KEYS.map((key, i) => population(key, specs[i]!));
        const expected = pops
          .flatMap((p) => Array.from({ length: p.size }, (_, row) => ({ p, row })))
          .filter(({ p, row }) => conditions.every((c) => holds(c, p, row)))
          .sort(compare(sort));
        const page = searchPopulations(pops, { conditions, sort, offset, limit });
        expect(page.total).toBe(expected.length);
        expect(page.refs.map((r) => name(r.population, r.row))).toEqual(
          expected.slice(offset, offset + limit).map((r) => name(r.p, r.row)),
        );
        if (!fullOrder) return;
        expect(orderAll(pops, conditions, sort).map((r) => name(r.population, r.row))).toEqual(
          expected.map((r) => name(r.p, r.row)),
        );
      },
    ),
    { numRuns: 400 },
  );
}

describe('the index search over float and integer codes', () => {
  it('answers as a plain filter and sort does: pages, totals and the full order', () => {
    answersAsPlainFilter(fc.array(conditionArb, { maxLength: 3 }), true);
  });

  it('answers alike when a search bounds more fields than it may sort', () => {
    // Wide bounds over up to 8 fields: past FRESH_ORDERS a bound is checked by reading its codes,
    // as bits (searchBits) or record by record (matchingView); an `or` past it takes the latter.
    const wideArb = fc
      .constantFrom(...FIELDS)
      .chain((field) =>
        fc
          .tuple(valueArb(field), fc.boolean())
          .map(([v, low]): IndexCondition => (low ? { field, gte: v } : { field, lte: v })),
      );
    const mixed = fc.oneof({ weight: 6, arbitrary: wideArb }, { weight: 1, arbitrary: conditionArb });
    answersAsPlainFilter(fc.array(mixed, { minLength: 5, maxLength: 10 }), false);
  });

  it('holds the columns in every form the property relies on', () => {
    const p = population('P|D7', {
      size: 40,
      picks: Array.from({ length: 320 }, (_, i) => i),
      ids: [...Array(40).keys()],
    });
    expect(FIELDS.map((f) => p.number(f).kind)).toEqual([
      'float64',
      'float64',
      'float32',
      'float32',
      'int16',
      'int16',
      'int32',
      'int32',
    ]);
  });
});
