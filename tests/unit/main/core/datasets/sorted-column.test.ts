// The bitmap index of a column (sorted-column.ts): a bound as a new set, and a bound narrowing a
// set in place, which a filter of several bounds uses after its first. Big enough columns that a
// bound falls inside a step of the kept sets (the partial step is set by hand).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  countBits,
  emptyBits,
  hasBit,
  intersect,
  SortedColumn,
} from '../../../../../src/main/core/datasets/sorted-column';

/** A column of `n` values drawn from a few (ties) with nulls (NaN), and a random set over it. */
const columnArb = fc.integer({ min: 1, max: 3000 }).chain((n) =>
  fc.record({
    values: fc.array(fc.oneof(fc.constant(NaN), fc.integer({ min: -20, max: 20 })), {
      minLength: n,
      maxLength: n,
    }),
    members: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
    bound: fc.integer({ min: -22, max: 22 }).map((b) => b / 2),
    strict: fc.boolean(),
  }),
);

describe('SortedColumn bounds', () => {
  it('narrow a set in place exactly as intersecting it with the bound’s new set', () => {
    fc.assert(
      fc.property(columnArb, ({ values, members, bound, strict }) => {
        const column = new SortedColumn(Float64Array.from(values));
        const start = emptyBits(values.length);
        members.forEach((m, i) => {
          if (m) start[i >>> 5] = (start[i >>> 5] as number) | (1 << (i & 31));
        });
        for (const atLeast of [true, false]) {
          const expected = start.slice();
          intersect(expected, atLeast ? column.atLeast(bound, strict) : column.atMost(bound, strict));
          const inPlace = start.slice();
          if (atLeast) column.andAtLeast(inPlace, bound, strict);
          else column.andAtMost(inPlace, bound, strict);
          expect(inPlace).toEqual(expected);
          // And the sets are what the values say (nulls fail every bound).
          values.forEach((v, i) => {
            const passes =
              !Number.isNaN(v) &&
              (atLeast ? (strict ? v > bound : v >= bound) : strict ? v < bound : v <= bound);
            expect(hasBit(inPlace, i)).toBe(members[i]! && passes);
          });
          expect(countBits(inPlace)).toBe(values.filter((v, i) => hasBit(inPlace, i) && v === v).length);
        }
      }),
      { numRuns: 60 },
    );
  });
});
