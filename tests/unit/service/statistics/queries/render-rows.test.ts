// numberJson (src/service/statistics/queries/render-rows.ts) writes the percentiles of the public
// filter's `ranking` by hand: it must write exactly what JSON.stringify writes, for every double.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { numberJson } from '../../../../../src/service/statistics/queries/render-rows';

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
