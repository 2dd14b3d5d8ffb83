// Narrow columns of the statistics index (docs/statistics.md, "Narrow columns"): every value
// reads back as the very double it was, and a bound over the codes keeps exactly the records a
// bound over the doubles keeps, whatever form the column took.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  NumberColumn,
  Population,
  compareTexts,
  sortedIndexes,
  textColumn,
} from '../../../../src/shared/statistics-index';

const cents = fc.integer({ min: -5_000_000, max: 10_000_000 }).map((k) => k / 100);
const percentile = fc.integer({ min: 0, max: 10_000 }).map((k) => Math.round(k) / 100);
const anyDouble = fc.double({ noNaN: true, noDefaultInfinity: true });
const small = fc.integer({ min: -300, max: 300 });
const time = fc.integer({ min: 0, max: 10 * 86_400_000 }).map((k) => 1_700_000_000_000 + k);
const withMissing = (value: fc.Arbitrary<number>) =>
  fc.oneof({ weight: 9, arbitrary: value }, { weight: 1, arbitrary: fc.constant(NaN) });
/** A column drawn from one kind of value, with missing values. */
const column = fc
  .oneof(cents, percentile, anyDouble, small, time, fc.constantFrom(0.5, 0.25, -2.5, 1234.5))
  .chain(() =>
    fc.oneof(
      fc.array(withMissing(cents), { minLength: 1, maxLength: 60 }),
      fc.array(withMissing(percentile), { minLength: 1, maxLength: 60 }),
      fc.array(withMissing(anyDouble), { minLength: 1, maxLength: 60 }),
      fc.array(withMissing(small), { minLength: 1, maxLength: 60 }),
      fc.array(withMissing(time), { minLength: 1, maxLength: 60 }),
    ),
  );
const bound = fc.oneof(cents, percentile, anyDouble, small, time, fc.constantFrom(-Infinity, Infinity));

const same = (a: number, b: number) => a === b || (Number.isNaN(a) && Number.isNaN(b));

describe('NumberColumn', () => {
  it('picks the narrowest exact form: 16-bit percentiles, 32-bit cents, offset times, float64 otherwise', () => {
    expect(NumberColumn.of(Float64Array.from([0, 37.25, 100, NaN])).kind).toBe('int16');
    expect(NumberColumn.of(Float64Array.from([-50_000.01, 99_999.99])).kind).toBe('int32');
    expect(NumberColumn.of(Float64Array.from([1_700_000_000_000, 1_700_000_000_500])).kind).toBe('int16');
    expect(NumberColumn.of(Float64Array.from([0.1 + 0.2, 1]))).toMatchObject({ kind: 'float64' });
    expect(NumberColumn.of(Float64Array.from([0.5, 2 ** 70, NaN])).kind).toBe('float32');
  });

  it('reads every value back exactly, and bounds over codes keep what bounds over values keep', () => {
    fc.assert(
      fc.property(column, bound, bound, fc.boolean(), fc.boolean(), (values, a, b, loStrict, hiStrict) => {
        const doubles = Float64Array.from(values);
        const narrow = NumberColumn.of(doubles);
        expect(narrow.length).toBe(values.length);
        values.forEach((v, i) => expect(same(narrow.at(i), v)).toBe(true));
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const byValue = values.map((v) => (loStrict ? v > lo : v >= lo) && (hiStrict ? v < hi : v <= hi));
        const c = narrow.codeBound(lo, loStrict, hi, hiStrict);
        const byCode = Array.from(
          narrow.codes,
          (x) => (c.loStrict ? x > c.lo : x >= c.lo) && (c.hiStrict ? x < c.hi : x <= c.hi),
        );
        expect(byCode).toEqual(byValue);
      }),
      { numRuns: 400 },
    );
  });

  it('gathers kept codes and fresh values, widening the form when a fresh value needs it', () => {
    const narrow = NumberColumn.of(Float64Array.from([1, 2, NaN]));
    expect(narrow.kind).toBe('int16');
    const kept = narrow.gather([2, -1, 0], () => 40_000);
    expect(kept.kind).toBe('int32');
    expect(Array.from({ length: 3 }, (_, i) => kept.at(i))).toEqual([NaN, 40_000, 1]);
    const same16 = narrow.gather([1, -1], () => 7);
    expect(same16.kind).toBe('int16');
    expect([same16.at(0), same16.at(1)]).toEqual([2, 7]);
    const tenths = narrow.gather([0, -1], () => 0.1);
    expect(tenths).toMatchObject({ kind: 'int16', scale: 10 });
    expect([tenths.at(0), tenths.at(1)]).toEqual([1, 0.1]);
    const wide = narrow.gather([0, -1], () => Math.PI);
    expect(wide.kind).toBe('float64');
    expect([wide.at(0), wide.at(1)]).toEqual([1, Math.PI]);
  });
});

describe('text columns', () => {
  it('holds hex ids as bytes, in text order, and anything else as strings', () => {
    const ids = textColumn(['00ff', '0a10', 'ff00']);
    expect(ids.byteLength).toBe(6);
    expect([ids.at(0), ids.at(1), ids.at(2)]).toEqual(['00ff', '0a10', 'ff00']);
    expect(ids.is(1, '0a10')).toBe(true);
    expect(ids.is(1, '0A10')).toBe(false);
    expect(compareTexts(ids, 0, ids, 1)).toBe(-1);
    expect(compareTexts(ids, 2, textColumn(['fe']), 0)).toBe(1);
    const mixed = textColumn(['0x12', 'ab']);
    expect(mixed.at(0)).toBe('0x12');
    const gathered = ids.gather([0, -1], () => 'not hex');
    expect([gathered.at(0), gathered.at(1)]).toEqual(['00ff', 'not hex']);
  });

  it('compares any two hex texts as their strings compare', () => {
    const hex = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 4, maxLength: 4 });
    fc.assert(
      fc.property(hex, hex, (a, b) => {
        const x = textColumn([a]);
        const y = textColumn([b]);
        expect(compareTexts(x, 0, y, 0)).toBe(a < b ? -1 : a > b ? 1 : 0);
      }),
    );
  });

  it("sorts a column by its codes into the doubles' order: missing first, ties by record", () => {
    fc.assert(
      fc.property(column, (values) => {
        const doubles = Float64Array.from(values);
        const ids = values.map((_, i) => String(i).padStart(3, '0'));
        const p = new Population('X|D7', {
          constants: { protocol: 'X', type: 'D7' },
          texts: { id: ids },
          numbers: { v: doubles },
        });
        expect(Array.from(p.ascending('v'))).toEqual(Array.from(sortedIndexes(doubles)));
      }),
      { numRuns: 400 },
    );
  });
});
