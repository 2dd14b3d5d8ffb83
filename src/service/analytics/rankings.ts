// Percentile rankings within one population: the records of one protocol and one window
// (semantics.md Ranking). ranking[k] = 100 × #(records strictly worse on k) / (N − 1), 2 decimals.
//
// Per key the population's "goodness" values (the value, negated when lower is better) go into a
// typed array, and each record's count of strictly worse records comes from one radix pass over it
// (`countStrictlyBelow`): linear per key, and equal values get equal rankings.
// A null value (and, defensively, a non-finite one) ranks as the worst: its goodness is −Infinity,
// so it is worse than every number and ties with every other null (chosen).
import { RANKING_DIRECTION, RANKING_KEYS } from '../../shared/api/statistics';
import { countStrictlyBelow } from './rank-counts';
import type { FullRanking, RankingDirection, RankingKey } from '../../shared/api/statistics';

// The direction of each key is the contract's (docs/statistics.md, Rankings), not restated here.
export { RANKING_DIRECTION };
export type { RankingDirection };

/** The values a record is ranked on (a statistic record fits). */
export type RankingInput = { readonly [K in RankingKey]: number | null };

/** A key's value mapped so that bigger is better; a missing value becomes the worst possible. */
export function goodness(value: number | null, direction: RankingDirection): number {
  if (value === null || !Number.isFinite(value)) return -Infinity;
  return direction === 'lowerIsBetter' ? -value : value;
}

/** Index of the first element of `sorted` (ascending) that is not below `x`: the count of elements below it. */
export function lowerBound(sorted: Float64Array, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Rounds to 2 decimals, as rankings are published. */
export const round2 = (x: number): number => Math.round(x * 100) / 100;

/** The percentile of a member with `below` strictly worse members in a population of `n` (100 when alone). */
export const percentile = (below: number, n: number): number =>
  n === 1 ? 100 : round2((100 * below) / (n - 1));

/** Percentiles from the goodness of one key for every record, in input order. */
function percentiles(goodnessOfKey: Float64Array): Float64Array {
  const n = goodnessOfKey.length;
  const below = countStrictlyBelow(goodnessOfKey);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i += 1) out[i] = percentile(below[i] as number, n);
  return out;
}

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

/** Each key's goodness for every record, read with plain property loads (no computed keys in the hot loop). */
function goodnessColumns(records: readonly RankingInput[]): Float64Array[] {
  const n = records.length;
  const cols = RANKING_KEYS.map(() => new Float64Array(n));
  const [c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18] =
    cols as Float64Array[] as Columns19;
  for (let i = 0; i < n; i += 1) {
    const r = records[i] as RankingInput;
    // The order of RANKING_KEYS; a test checks it.
    c0[i] = goodness(r.avgDuration, RANKING_DIRECTION.avgDuration);
    c1[i] = goodness(r.avgLeverage, RANKING_DIRECTION.avgLeverage);
    c2[i] = goodness(r.avgVolume, RANKING_DIRECTION.avgVolume);
    c3[i] = goodness(r.orderPositionRatio, RANKING_DIRECTION.orderPositionRatio);
    c4[i] = goodness(r.pnl, RANKING_DIRECTION.pnl);
    c5[i] = goodness(r.realisedAvgRoi, RANKING_DIRECTION.realisedAvgRoi);
    c6[i] = goodness(r.realisedMaxDrawdown, RANKING_DIRECTION.realisedMaxDrawdown);
    c7[i] = goodness(r.realisedMaxRoi, RANKING_DIRECTION.realisedMaxRoi);
    c8[i] = goodness(r.realisedPnl, RANKING_DIRECTION.realisedPnl);
    c9[i] = goodness(r.realisedProfitLossRatio, RANKING_DIRECTION.realisedProfitLossRatio);
    c10[i] = goodness(r.realisedProfitRate, RANKING_DIRECTION.realisedProfitRate);
    c11[i] = goodness(r.totalTrade, RANKING_DIRECTION.totalTrade);
    c12[i] = goodness(r.winRate, RANKING_DIRECTION.winRate);
    c13[i] = goodness(r.sharpeRatio, RANKING_DIRECTION.sharpeRatio);
    c14[i] = goodness(r.realisedSharpeRatio, RANKING_DIRECTION.realisedSharpeRatio);
    c15[i] = goodness(r.sortinoRatio, RANKING_DIRECTION.sortinoRatio);
    c16[i] = goodness(r.realisedSortinoRatio, RANKING_DIRECTION.realisedSortinoRatio);
    c17[i] = goodness(r.maxWinStreak, RANKING_DIRECTION.maxWinStreak);
    c18[i] = goodness(r.maxLoseStreak, RANKING_DIRECTION.maxLoseStreak);
  }
  return cols;
}

/** Rankings of every record of one population (same protocol and window), in input order. */
export function rankPopulation(records: readonly RankingInput[]): FullRanking[] {
  const p = goodnessColumns(records).map(percentiles);
  const [p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15, p16, p17, p18] =
    p as Columns19;
  const out = new Array<FullRanking>(records.length);
  for (let i = 0; i < records.length; i += 1) {
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
