// Percentile rankings within one population: the records of one protocol and one window
// (semantics.md Ranking). ranking[k] = 100 × #(records strictly worse on k) / (N − 1), 2 decimals.
//
// Per key the population's "goodness" values (the value, negated when lower is better) are sorted
// once in a typed array; a record's count of strictly worse records is then the lower bound of its
// own goodness in that array. O(N log N) per key, and equal values get equal rankings.
// A null value (and, defensively, a non-finite one) ranks as the worst: its goodness is −Infinity,
// so it is worse than every number and ties with every other null (chosen).
import { RANKING_KEYS } from '../../shared/api/statistics';
import type { Ranking, RankingKey } from '../../shared/api/statistics';

/** Which end of a key is better. */
export type RankingDirection = 'higherIsBetter' | 'lowerIsBetter';

/** Direction of every ranking key: lower is better for duration, leverage and orders per position. */
export const RANKING_DIRECTION = {
  avgDuration: 'lowerIsBetter',
  avgLeverage: 'lowerIsBetter',
  avgVolume: 'higherIsBetter',
  orderPositionRatio: 'lowerIsBetter',
  pnl: 'higherIsBetter',
  realisedAvgRoi: 'higherIsBetter',
  // Drawdowns are ≤ 0: higher means closer to 0.
  realisedMaxDrawdown: 'higherIsBetter',
  realisedMaxRoi: 'higherIsBetter',
  realisedPnl: 'higherIsBetter',
  realisedProfitLossRatio: 'higherIsBetter',
  realisedProfitRate: 'higherIsBetter',
  totalTrade: 'higherIsBetter',
  winRate: 'higherIsBetter',
} as const satisfies Record<RankingKey, RankingDirection>;

/** The values a record is ranked on (a statistic record fits). */
export type RankingInput = { readonly [K in RankingKey]: number | null };

/** Bigger is better after this mapping; missing values become the worst possible. */
function goodness(value: number | null, direction: RankingDirection): number {
  if (value === null || !Number.isFinite(value)) return -Infinity;
  return direction === 'lowerIsBetter' ? -value : value;
}

/** Index of the first element of `sorted` that is not below `x`: the count of elements below it. */
function lowerBound(sorted: Float64Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

/** Percentiles of one key for every record, in input order. */
function rankKey(records: readonly RankingInput[], key: RankingKey): Float64Array {
  const n = records.length;
  const values = new Float64Array(n);
  for (let i = 0; i < n; i += 1)
    values[i] = goodness((records[i] as RankingInput)[key], RANKING_DIRECTION[key]);
  const sorted = values.slice().sort();
  const out = new Float64Array(n);
  for (let i = 0; i < n; i += 1) {
    out[i] = n === 1 ? 100 : round2((100 * lowerBound(sorted, values[i] as number)) / (n - 1));
  }
  return out;
}

/** Rankings of every record of one population (same protocol and window), in input order. */
export function rankPopulation(records: readonly RankingInput[]): Ranking[] {
  const perKey = RANKING_KEYS.map((key) => rankKey(records, key));
  return records.map((_, i) => {
    const ranking = {} as Ranking;
    RANKING_KEYS.forEach((key, k) => {
      ranking[key] = (perKey[k] as Float64Array)[i] as number;
    });
    return ranking;
  });
}
