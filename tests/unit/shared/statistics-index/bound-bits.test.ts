// The bitmap intersection of plain numeric bounds (bound-bits.ts) against the index's record by
// record matching (matchingRecords) and its pages (pageOfMatches): the same records, the same
// count and the same page, over columns of every narrow form with ties and missing values.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  boundMatches,
  matchingRecords,
  pageOfMatches,
  Population,
  searchBits,
  StretchBitmaps,
  type IndexCondition,
} from '../../../../src/shared/statistics-index';

/** Column values of each narrow form: small integers (int16), cents (int32), fractions (float64). */
const forms = {
  small: fc.constantFrom(NaN, -3, 0, 1, 1, 2, 7, 40),
  cents: fc.constantFrom(NaN, -125_000.25, 0, 99_999.99, 12.5, 12.5, 3_000_000),
  fractions: fc.constantFrom(NaN, -0.1, 1 / 3, 1 / 3, 2.718281828, 1e-9, 5e12),
};
const fields = Object.keys(forms) as (keyof typeof forms)[];

const populationArb = fc.integer({ min: 1, max: 400 }).chain((n) =>
  fc.record({
    small: fc.array(forms.small, { minLength: n, maxLength: n }),
    cents: fc.array(forms.cents, { minLength: n, maxLength: n }),
    fractions: fc.array(forms.fractions, { minLength: n, maxLength: n }),
  }),
);

const boundValue = fc.constantFrom(-200_000, -3, -0.1, 0, 1, 1 / 3, 2, 12.5, 40, 99_999.99, 1e13);
/** One bound mostly (a leaderboard's ranges), sometimes several (often empty together). */
const oneBoundArb: fc.Arbitrary<IndexCondition> = fc
  .tuple(fc.constantFrom(...fields), fc.constantFrom('gte', 'gt', 'lte', 'lt', 'match'), boundValue)
  .map(([field, op, v]) => ({ field, [op]: v }));
const boundsArb: fc.Arbitrary<IndexCondition> = fc
  .record(
    {
      field: fc.constantFrom(...fields),
      gte: boundValue,
      gt: boundValue,
      lte: boundValue,
      lt: boundValue,
      match: boundValue,
    },
    { requiredKeys: ['field'] },
  )
  .filter((c) => ['gte', 'gt', 'lte', 'lt', 'match'].some((op) => op in c));
const conditionArb = fc.oneof({ arbitrary: oneBoundArb, weight: 4 }, { arbitrary: boundsArb, weight: 1 });

function populationOf(columns: Record<string, number[]>): Population {
  const n = (columns.small as number[]).length;
  return new Population(
    'P|D30',
    {
      constants: { protocol: 'P' },
      texts: { id: Array.from({ length: n }, (_, i) => i.toString(16).padStart(24, '0')) },
      numbers: Object.fromEntries(Object.entries(columns).map(([f, v]) => [f, Float64Array.from(v)])),
    },
    'id',
  );
}

describe('bounds as bitmaps', () => {
  it('match what the index matches record by record, with the same pages', () => {
    let answered = 0;
    fc.assert(
      fc.property(
        populationArb,
        fc.array(conditionArb, { minLength: 1, maxLength: 3 }),
        fc.constantFrom(...fields),
        fc.boolean(),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 1, max: 60 }),
        fc.boolean(),
        (columns, conditions, sortField, desc, offset, limit, keep) => {
          const population = populationOf(columns);
          // With kept cumulative bitmaps (asked twice: made, then reused) or without.
          const kept = keep ? new StretchBitmaps() : null;
          if (kept) boundMatches(population, conditions, kept);
          const bits = boundMatches(population, conditions, kept);
          const expected = matchingRecords(population, conditions);
          if (bits === null) {
            // Declined only when the narrowest bound keeps under a sixteenth of the records.
            expect(expected.length * 16).toBeLessThan(population.size);
            return;
          }
          answered += 1;
          expect(bits.count).toBe(expected.length);
          expect([...bits.records()]).toEqual([...expected].sort((a, b) => a - b));
          const sort = [
            { field: sortField, desc },
            { field: 'id', desc: false },
          ];
          expect(bits.page(population, sort, offset, limit)).toEqual(
            pageOfMatches(population, expected, sort, offset, limit),
          );
        },
      ),
      { numRuns: 400 },
    );
    // The property held for answers given, not only for answers declined.
    expect(answered).toBeGreaterThan(100);
  });

  it('declines anything but plain numeric bounds', () => {
    const population = populationOf({ small: [1, 2, 3, 4], cents: [1, 2, 3, 4], fractions: [1, 2, 3, 4] });
    expect(boundMatches(population, [{ field: 'small', gte: 1 }])?.count).toBe(4);
    for (const c of [
      { field: 'small', in: [1, 2] },
      { field: 'small', gte: 1, nin: [3] },
      { field: 'small', exists: true },
      { field: 'small', match: null },
      { field: 'id', gte: '0' },
      { field: 'protocol', match: 'P' },
      { or: [{ field: 'small', gte: 1 }] },
    ] as IndexCondition[])
      expect(boundMatches(population, [{ field: 'small', gte: 1 }, c])).toBeNull();
  });
});

describe('bounds past the orders one search may make', () => {
  // searchBits sorts at most FRESH_ORDERS (4) new columns a search; bounds on further columns are
  // checked by reading their codes: skipped when they keep every record, applied from the
  // narrowest, the few records outside a wide one cleared in one pass, stopping once none is left.
  const n = 320;
  const column = (mul: number) => Array.from({ length: n }, (_, i) => ((i * mul) % 101) - 50);
  const columns = Object.fromEntries(
    ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((f, k) => [f, column(7 + 6 * k)]),
  ) as Record<string, number[]>;
  // A smallest and a largest value held by one record each.
  (columns.f as number[])[0] = -1000;
  (columns.h as number[])[5] = 1000;
  const fresh = () =>
    new Population(
      'P|D30',
      {
        constants: { protocol: 'P' },
        texts: { id: Array.from({ length: n }, (_, i) => i.toString(16).padStart(24, '0')) },
        numbers: Object.fromEntries(Object.entries(columns).map(([f, v]) => [f, Float64Array.from(v)])),
      },
      'id',
    );
  const plain = (conditions: { field: string; gte?: number; lte?: number }[]) => {
    // every() over no condition would keep everything whatever the bounds say.
    expect(conditions.length).toBeGreaterThan(4);
    return Array.from({ length: n }, (_, row) => row).filter((row) =>
      conditions.every(
        (c) =>
          (c.gte === undefined || (columns[c.field] as number[])[row]! >= c.gte) &&
          (c.lte === undefined || (columns[c.field] as number[])[row]! <= c.lte),
      ),
    );
  };
  const rowsOf = (bits: Int32Array) =>
    Array.from({ length: n }, (_, row) => row).filter((row) => ((bits[row >>> 5]! >>> (row & 31)) & 1) === 1);
  // Four wide bounds the search sorts, then the unsorted ones under test.
  const sortedFour = ['a', 'b', 'c', 'd'].map((field) => ({ field, gte: -45 }));

  it('keeps what a plain filter keeps, whichever way each unsorted bound is applied', () => {
    const cases: { field: string; gte?: number; lte?: number }[][] = [
      // every record (skipped), all but one (cleared in one pass), about a third (set bits read)
      [
        { field: 'e', gte: -50 },
        { field: 'f', gte: -999 },
        { field: 'g', lte: -17 },
      ],
      // all but one, then about two thirds
      [
        { field: 'h', lte: 999 },
        { field: 'e', lte: 17 },
      ],
      // two unsorted bounds that together keep nothing, then one that keeps all but one
      [
        { field: 'e', lte: -20 },
        { field: 'e', gte: 20 },
        { field: 'f', gte: -999 },
      ],
    ];
    // How many of the 320 records the plain filter keeps in each case: some but not all, or none.
    const keeps = [88, 187, 0];
    for (const unsorted of cases) {
      const conditions = [...sortedFour, ...unsorted];
      const found = searchBits(fresh(), conditions);
      expect(found).not.toBeNull();
      const expected = plain(conditions);
      expect(expected.length).toBe(keeps[cases.indexOf(unsorted)]);
      expect(found!.count).toBe(expected.length);
      expect(rowsOf(found!.bits)).toEqual(expected);
    }
  });
});
