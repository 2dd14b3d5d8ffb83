import { LOWER_IS_BETTER_RANKING_KEYS } from '../../../shared/api/statistics';

/**
 * Percentile rankings of a downloaded population (docs/statistics.md, Rankings). Search-after
 * records carry no ranking, but a dataset is the whole population of its protocol and window as of
 * one point in time, so the percentiles follow from it exactly as the service computes them: with
 * the same function, src/shared/ranking/percentiles.ts.
 */
export { percentiles } from '../../../shared/ranking/percentiles';

/** Which end of each key is better: the contract's list of keys where lower is (docs/statistics.md). */
export const LOWER_IS_BETTER = LOWER_IS_BETTER_RANKING_KEYS;
