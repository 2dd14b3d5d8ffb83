// numberJson (src/service/statistics/queries/render-rows.ts) writes the percentiles of the public
// filter's `ranking` by hand: it must write exactly what JSON.stringify writes, for every double.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  numberJson,
  percentileColumn,
  writePercentile,
} from '../../../../../src/service/statistics/queries/render-rows';
import { NumberColumn } from '../../../../../src/shared/statistics-index/number-column';

describe('numberJson', () => {
  it('writes what JSON.stringify writes: two-decimal values, their neighbours, any double', () => {
    const hundredths = fc.integer({ min: -1_000, max: 100_000_000_000 }).map((k) => k / 100);
    const near = hundredths.map((v) => v + Number.EPSILON * Math.max(1, Math.abs(v)));
    fc.assert(
      fc.property(
        fc.oneof(hundredths, near, fc.double(), fc.constantFrom(-0, 0, NaN, 1e9, 999_999_999.99)),
        (v) => {
          expect(numberJson(v)).toBe(JSON.stringify(v));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it('writes every percentile of 0 to 100 in steps of 0.01 as JSON.stringify does', () => {
    for (let k = 0; k <= 10_000; k += 1) expect(numberJson(k / 100)).toBe(JSON.stringify(k / 100));
  });
});

// writePercentile copies a percentile's JSON from a table of bytes, found from the column's code:
// it must write exactly the text numberJson writes (JSON.stringify's), whatever form the column
// holds (docs/statistics.md, "Narrow columns"), and fall back for anything outside the table.
describe('writePercentile', () => {
  /** What writePercentile writes for each row of `column`, as text. */
  const written = (column: NumberColumn): string[] => {
    const percentile = percentileColumn(column);
    const out = Buffer.alloc(64);
    return Array.from({ length: column.length }, (_, row) => {
      out.fill(0x20);
      const end = writePercentile(out, 8, percentile, row);
      return out.toString('latin1', 8, end);
    });
  };
  const expected = (column: NumberColumn): string[] =>
    Array.from({ length: column.length }, (_, row) => JSON.stringify(column.at(row)) ?? 'null');

  it('writes every code of 0.00 to 100.00 as JSON.stringify does, at scale 100, 10 and 1', () => {
    const every = (scale: number, Codes: typeof Int16Array | typeof Int32Array, nanCode: number) => {
      const codes = new Codes(100 * scale + 2);
      for (let k = 0; k <= 100 * scale; k += 1) codes[k] = k;
      codes[100 * scale + 1] = nanCode;
      return new NumberColumn(codes, scale, 0, nanCode);
    };
    for (const column of [
      every(100, Int16Array, -32_768),
      every(10, Int16Array, -32_768),
      every(1, Int16Array, -32_768),
      every(100, Int32Array, -2_147_483_648),
    ]) {
      const texts = written(column);
      expect(texts).toEqual(expected(column));
      expect(texts.at(-1)).toBe('null');
    }
    // The index's own narrowing of every percentile: int16 at scale 100.
    const narrowed = NumberColumn.of(Float64Array.from({ length: 10_001 }, (_, k) => k / 100));
    expect(narrowed.kind).toBe('int16');
    expect(written(narrowed)).toEqual(expected(narrowed));
  });

  it('writes odd values and other forms as JSON.stringify does', () => {
    const odd = [NaN, -0, 0, 1e-7, 100.005, 100.01, 100, -0.01, 99.99, 0.1 + 0.2, 1e9, -1e300, 5e-324, 12.5];
    const float64 = NumberColumn.of(Float64Array.from(odd));
    expect(float64.kind).toBe('float64');
    const float32 = NumberColumn.of(Float64Array.from([0.5, 100, NaN, 1 / 1024, 2 ** 100, -(2 ** -20), 101]));
    expect(float32.kind).toBe('float32');
    // Codes out of 0–100, a scale the table cannot serve, and integers counted from an offset.
    const outside = new NumberColumn(Int16Array.from([-1, 10_001, 20_000, -32_768]), 100, 0, -32_768);
    const thousandths = NumberColumn.of(Float64Array.from([0.001, 99.999, 50, 100]));
    expect(thousandths.scale).toBe(1000);
    const offset = new NumberColumn(Int16Array.from([0, 5, 100]), 1, 1_000, -32_768);
    for (const column of [float64, float32, outside, thousandths, offset])
      expect(written(column)).toEqual(expected(column));
    expect(written(float64).slice(0, 2)).toEqual(['null', '0']);
  });
});
