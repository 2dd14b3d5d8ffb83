import { LOWER_IS_BETTER_RANKING_KEYS } from '../../../../shared/api/statistics';
import { countStrictlyBelow, RadixScratch } from './radix';

/**
 * Percentile rankings of a downloaded population (semantics.md, Ranking). Search-after records
 * carry no ranking, but a dataset is the whole population of its protocol and window as of one
 * point in time, so the percentiles follow from it exactly as the service computes them:
 * `ranking[k] = 100 × #(records strictly worse on k) / (N − 1)`, 2 decimals, 100 when N = 1;
 * a null value ranks as the worst. A unit test checks this against the service's own code.
 */

/** Which end of each key is better: the contract's list of keys where lower is (docs/statistics.md). */
export const LOWER_IS_BETTER = LOWER_IS_BETTER_RANKING_KEYS;

/** The percentiles of one key for every record of a population; NaN is a null value. */
export function percentiles(
  values: Float64Array,
  lowerIsBetter: boolean,
  scratch: RadixScratch = new RadixScratch(values.length),
  goodness: Float64Array = new Float64Array(values.length),
): Float64Array {
  const n = values.length;
  const out = new Float64Array(n);
  if (n === 1) {
    out[0] = 100;
    return out;
  }
  for (let i = 0; i < n; i += 1) {
    const v = values[i] as number;
    goodness[i] = Number.isFinite(v) ? (lowerIsBetter ? -v : v) : -Infinity;
  }
  const below = countStrictlyBelow(goodness, scratch);
  for (let i = 0; i < n; i += 1) out[i] = Math.round(((100 * (below[i] as number)) / (n - 1)) * 100) / 100;
  return out;
}
