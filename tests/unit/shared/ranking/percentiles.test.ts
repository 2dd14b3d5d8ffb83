// One percentile function (src/shared/ranking/percentiles.ts) ranks the service's populations and
// the terminal's downloaded datasets; these check both callers give the same answers, and that
// those answers are the definition (docs/statistics.md, Rankings), on small populations (ranked by
// a sort) and on large ones (ranked by the radix sort) alike.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RANKING_KEYS, type RankingKey } from '../../../../src/shared/api/statistics';
import { percentiles, RADIX_FROM } from '../../../../src/shared/ranking/percentiles';
import { rankPopulation, type RankingInput } from '../../../../src/service/statistics/formulas/rankings';
import {
  LOWER_IS_BETTER,
  percentiles as datasetPercentiles,
} from '../../../../src/main/core/datasets/rankings';
import { RadixScratch } from '../../../../src/shared/statistics-index/radix-sort';

/** The definition: 100 × #(values strictly worse) / (N − 1), 2 decimals; missing is worst. */
function reference(values: Float64Array, lowerIsBetter: boolean): number[] {
  const n = values.length;
  // Missing → −Infinity, then "worse" is "smaller": the members below a value are those sorted
  // before its first occurrence (a Map keys -0 and 0 alike, as `<` compares them).
  const good = Array.from(values, (v) => (Number.isNaN(v) ? -Infinity : lowerIsBetter ? -v : v));
  const firstAt = new Map<number, number>();
  [...good].sort((a, b) => a - b).forEach((g, i) => firstAt.has(g) || firstAt.set(g, i));
  return good.map((g) =>
    n === 1 ? 100 : Math.round(((100 * (firstAt.get(g) as number)) / (n - 1)) * 100) / 100,
  );
}

/** A value with many ties and some missing ones. */
const valueArb = fc.oneof(
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 4, arbitrary: fc.integer({ min: -4, max: 4 }) },
  { weight: 2, arbitrary: fc.double({ min: -1e6, max: 1e6, noNaN: true }) },
);

const recordArb = fc.record(
  Object.fromEntries(RANKING_KEYS.map((k) => [k, valueArb])) as Record<
    RankingKey,
    fc.Arbitrary<number | null>
  >,
);

/** The service's and the terminal's answers for every key of a population, and the definition's. */
function answers(records: RankingInput[]) {
  const service = rankPopulation(records);
  return RANKING_KEYS.map((key) => {
    const column = Float64Array.from(records, (r) => r[key] ?? NaN);
    return {
      key,
      service: service.map((r) => r[key]),
      terminal: [...datasetPercentiles(column, LOWER_IS_BETTER.has(key))],
      definition: reference(column, LOWER_IS_BETTER.has(key)),
    };
  });
}

describe('percentile ranking, shared by the service and the terminal', () => {
  it('both give the definition on random small populations, ties and missing values included', () => {
    fc.assert(
      fc.property(fc.array(recordArb, { minLength: 1, maxLength: 40 }), (records) => {
        for (const a of answers(records)) {
          expect(a.terminal, a.key).toEqual(a.service);
          expect(a.service, a.key).toEqual(a.definition);
        }
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it('both give the definition on populations large enough for the radix sort', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: RADIX_FROM - 2, max: RADIX_FROM + 400 }),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (n, seed) => {
          const records = fc.sample(recordArb, { numRuns: n, seed });
          for (const a of answers(records)) {
            expect(a.terminal, a.key).toEqual(a.service);
            expect(a.service, a.key).toEqual(a.definition);
          }
        },
      ),
      { numRuns: 6 },
    );
  }, 120_000);

  it('answers the same with reused work arrays, key after key', () => {
    const n = RADIX_FROM + 10;
    const scratch = new RadixScratch(n);
    const work = new Float64Array(n);
    for (const seed of [1, 2, 3]) {
      const values = Float64Array.from(fc.sample(valueArb, { numRuns: n, seed }), (v) => v ?? NaN);
      expect([...percentiles(values, seed === 2, scratch, work)]).toEqual(reference(values, seed === 2));
    }
  });

  it('gives a member alone 100, missing or not, and nothing to nobody', () => {
    expect([...percentiles(Float64Array.of(NaN), false)]).toEqual([100]);
    expect([...percentiles(new Float64Array(0), true)]).toEqual([]);
  });
});
