// Percentile rankings of the service's populations: the records of one protocol and one window
// (docs/statistics.md, Rankings). The formula, the ranking directions and the treatment of missing
// values live once in src/shared (ranking/percentiles.ts, api/statistics.ts); the terminal's
// downloaded datasets are ranked with the same function.
import {
  LOWER_IS_BETTER_RANKING_KEYS,
  RANKING_DIRECTION,
  RANKING_KEYS,
} from '../../../shared/api/statistics';
import {
  countBelow,
  goodness as goodnessOf,
  percentile,
  percentiles,
  RADIX_FROM,
} from '../../../shared/ranking/percentiles';
import { RadixScratch } from '../../../shared/statistics-index/radix-sort';
import type { FullRanking, RankingDirection, RankingKey } from '../../../shared/api/statistics';

// The statistics index (src/service/statistics/compute/ranking-index.ts) ranks one trader at a time with these.
export { RANKING_DIRECTION, percentile };
export type { RankingDirection };
/** Index of the first element of `sorted` (ascending) that is not below `x`. */
export const lowerBound = countBelow;

/** The values a record is ranked on (a statistic record fits). */
export type RankingInput = { readonly [K in RankingKey]: number | null };

/** A key's value mapped so that bigger is better; a missing value becomes the worst possible. */
export const goodness = (value: number | null, direction: RankingDirection): number =>
  goodnessOf(value, direction === 'lowerIsBetter');

/** One column per ranking key, in the order of RANKING_KEYS. */
type Columns19 = [
  Float64Array,
  Float64Array,
  Float64Array,
  Float64Array,
  Float64Array,
  Float64Array,
  Float64Array,
  Float64Array,
  Float64Array,
  Float64Array,
  Float64Array,
  Float64Array,
  Float64Array,
  Float64Array,
  Float64Array,
  Float64Array,
  Float64Array,
  Float64Array,
  Float64Array,
];

/**
 * Each key's values for every record (NaN where missing), read with plain property loads: no
 * computed keys in the hot loop. The order of RANKING_KEYS; a test checks it.
 */
function valueColumns(records: readonly RankingInput[]): Float64Array[] {
  const n = records.length;
  const cols = RANKING_KEYS.map(() => new Float64Array(n));
  const [c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18] =
    cols as Float64Array[] as Columns19;
  for (let i = 0; i < n; i += 1) {
    const r = records[i] as RankingInput;
    c0[i] = r.avgDuration ?? NaN;
    c1[i] = r.avgLeverage ?? NaN;
    c2[i] = r.avgVolume ?? NaN;
    c3[i] = r.orderPositionRatio ?? NaN;
    c4[i] = r.pnl ?? NaN;
    c5[i] = r.realisedAvgRoi ?? NaN;
    c6[i] = r.realisedMaxDrawdown ?? NaN;
    c7[i] = r.realisedMaxRoi ?? NaN;
    c8[i] = r.realisedPnl ?? NaN;
    c9[i] = r.realisedProfitLossRatio ?? NaN;
    c10[i] = r.realisedProfitRate ?? NaN;
    c11[i] = r.totalTrade ?? NaN;
    c12[i] = r.winRate ?? NaN;
    c13[i] = r.sharpeRatio ?? NaN;
    c14[i] = r.realisedSharpeRatio ?? NaN;
    c15[i] = r.sortinoRatio ?? NaN;
    c16[i] = r.realisedSortinoRatio ?? NaN;
    c17[i] = r.maxWinStreak ?? NaN;
    c18[i] = r.maxLoseStreak ?? NaN;
  }
  return cols;
}

/** Rankings of every record of one population (same protocol and window), in input order. */
export function rankPopulation(records: readonly RankingInput[]): FullRanking[] {
  const n = records.length;
  // One set of work arrays for the 19 keys; the radix sort's only where it is used.
  const work = new Float64Array(n);
  const scratch = n >= RADIX_FROM ? new RadixScratch(n) : undefined;
  const p = valueColumns(records).map((values, k) =>
    percentiles(values, LOWER_IS_BETTER_RANKING_KEYS.has(RANKING_KEYS[k] as RankingKey), scratch, work),
  );
  const [p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15, p16, p17, p18] =
    p as Columns19;
  const out = new Array<FullRanking>(n);
  for (let i = 0; i < n; i += 1) {
    out[i] = {
      avgDuration: p0[i] as number,
      avgLeverage: p1[i] as number,
      avgVolume: p2[i] as number,
      orderPositionRatio: p3[i] as number,
      pnl: p4[i] as number,
      realisedAvgRoi: p5[i] as number,
      realisedMaxDrawdown: p6[i] as number,
      realisedMaxRoi: p7[i] as number,
      realisedPnl: p8[i] as number,
      realisedProfitLossRatio: p9[i] as number,
      realisedProfitRate: p10[i] as number,
      totalTrade: p11[i] as number,
      winRate: p12[i] as number,
      sharpeRatio: p13[i] as number,
      realisedSharpeRatio: p14[i] as number,
      sortinoRatio: p15[i] as number,
      realisedSortinoRatio: p16[i] as number,
      maxWinStreak: p17[i] as number,
      maxLoseStreak: p18[i] as number,
    };
  }
  return out;
}
