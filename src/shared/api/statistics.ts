// Trader statistics: records, rankings, filters, search-after, daily PnL series
// (docs/api.md, Trader statistics; docs/api.md, Statistics; docs/semantics.md for the meanings).
import { z } from 'zod';
import {
  WINDOWS,
  addressSchema,
  expected,
  fieldNameSchema,
  isoTimestampSchema,
  pagedFilterShape,
  protocolIdSchema,
  queryFilterSchema,
  rangeConditionSchema,
  sortTypeSchema,
  windowSchema,
  zBool,
  zCount,
  zInt,
  zList,
  zCappedList,
  FILTER_CONDITIONS_MAX,
  FILTER_BOUND_VALUES_MAX,
  SORT_KEYS_MAX,
  zNonEmpty,
  zNumber,
  zObject,
  zStrict,
  zText,
} from './common';
import type { Window } from './common';

const num = () => zNumber();
// min/max of nothing are null (docs/semantics.md); the spec marks these as nullable.
const nullableNum = () => zNumber().nullable();

/** One record per trader, protocol and window. Durations are seconds (docs/api.md). */
export const positionStatisticSchema = zObject({
  id: zNonEmpty(),
  account: addressSchema,
  type: windowSchema,
  protocol: protocolIdSchema,
  totalTrade: zCount(),
  totalWin: zCount(),
  totalLose: zCount(),
  totalGain: num(),
  realisedTotalGain: num(),
  totalLoss: num(),
  realisedTotalLoss: num(),
  totalVolume: num(),
  avgVolume: num(),
  avgRoi: num(),
  realisedAvgRoi: num(),
  maxRoi: num(),
  realisedMaxRoi: num(),
  pnl: num(),
  realisedPnl: num(),
  maxPnl: num(),
  realisedMaxPnl: num(),
  realisedMaxDrawdown: nullableNum(),
  realisedMaxDrawdownPnl: nullableNum(),
  // "also in some payloads": the local service writes them; other deployments may omit them.
  maxDrawdown: nullableNum().optional(),
  maxDrawdownPnl: nullableNum().optional(),
  winRate: num(),
  profitRate: num(),
  realisedProfitRate: num(),
  longRate: num(),
  orderPositionRatio: num(),
  profitLossRatio: num(),
  realisedProfitLossRatio: num(),
  gainLossRatio: num(),
  realisedGainLossRatio: num(),
  avgDuration: num(),
  minDuration: nullableNum(),
  maxDuration: nullableNum(),
  avgLeverage: num(),
  minLeverage: nullableNum(),
  maxLeverage: nullableNum(),
  // Side split, streaks and risk-adjusted return (docs/statistics.md). Optional:
  // the local service always writes them, other deployments of the API may not.
  longPnl: num().optional(),
  realisedLongPnl: num().optional(),
  shortPnl: num().optional(),
  realisedShortPnl: num().optional(),
  totalLongVolume: num().optional(),
  totalShortVolume: num().optional(),
  winStreak: zCount().optional(),
  loseStreak: zCount().optional(),
  maxWinStreak: zCount().optional(),
  maxLoseStreak: zCount().optional(),
  // null with fewer than two positions or no spread.
  sharpeRatio: nullableNum().optional(),
  realisedSharpeRatio: nullableNum().optional(),
  sortinoRatio: nullableNum().optional(),
  realisedSortinoRatio: nullableNum().optional(),
  totalLiquidation: zCount(),
  totalLiquidationAmount: num(),
  runTimeDays: num(),
  lastTradeAtTs: num(),
  lastTradeAt: isoTimestampSchema,
  totalFee: num(),
  statisticAt: isoTimestampSchema,
  createdAt: isoTimestampSchema,
  indexTokens: zList(zText()),
  // Absent in the spec's search-after example.
  isOpenPosition: zBool().optional(),
  // GraphQL extras (searchPositionStatistic).
  unrealisedPnl: nullableNum().optional(),
  updatedAt: isoTimestampSchema.nullish(),
  pairs: zList(zText()).nullish(),
});
export type PositionStatistic = z.infer<typeof positionStatisticSchema>;

/**
 * The statistics added for real clients (docs/statistics.md, "Long and short, streaks,
 * risk-adjusted return"): side split, streaks, Sharpe and Sortino with their realised variants.
 */
export const ADDED_STATISTIC_FIELDS = [
  'longPnl',
  'realisedLongPnl',
  'shortPnl',
  'realisedShortPnl',
  'totalLongVolume',
  'totalShortVolume',
  'winStreak',
  'loseStreak',
  'maxWinStreak',
  'maxLoseStreak',
  'sharpeRatio',
  'realisedSharpeRatio',
  'sortinoRatio',
  'realisedSortinoRatio',
] as const satisfies readonly (keyof PositionStatistic)[];

/** Numeric statistic fields: what `sortBy`, ranges and sorts may name. */
export const STATISTIC_NUMERIC_FIELDS = [
  'totalTrade',
  'totalWin',
  'totalLose',
  'totalGain',
  'realisedTotalGain',
  'totalLoss',
  'realisedTotalLoss',
  'totalVolume',
  'avgVolume',
  'avgRoi',
  'realisedAvgRoi',
  'maxRoi',
  'realisedMaxRoi',
  'pnl',
  'realisedPnl',
  'maxPnl',
  'realisedMaxPnl',
  'realisedMaxDrawdown',
  'realisedMaxDrawdownPnl',
  'maxDrawdown',
  'maxDrawdownPnl',
  'winRate',
  'profitRate',
  'realisedProfitRate',
  'longRate',
  'orderPositionRatio',
  'profitLossRatio',
  'realisedProfitLossRatio',
  'gainLossRatio',
  'realisedGainLossRatio',
  'avgDuration',
  'minDuration',
  'maxDuration',
  'avgLeverage',
  'minLeverage',
  'maxLeverage',
  'totalLiquidation',
  'totalLiquidationAmount',
  'runTimeDays',
  'lastTradeAtTs',
  'totalFee',
  ...ADDED_STATISTIC_FIELDS,
] as const satisfies readonly (keyof PositionStatistic)[];
export type StatisticNumericField = (typeof STATISTIC_NUMERIC_FIELDS)[number];

/** Every field a statistic filter, sort or equality query may name (numeric ones plus these). */
export const STATISTIC_FIELDS = [
  ...STATISTIC_NUMERIC_FIELDS,
  'id',
  'account',
  'type',
  'protocol',
  'lastTradeAt',
  'statisticAt',
  'createdAt',
  'isOpenPosition',
] as const satisfies readonly (keyof PositionStatistic)[];
export type StatisticField = (typeof STATISTIC_FIELDS)[number];

/** Fields the public filter item always carries; the others may be absent (tolerant reader). */
const PUBLIC_STATISTIC_FIELDS = [
  'id',
  'account',
  'totalTrade',
  'totalWin',
  'totalLose',
  'totalGain',
  'realisedTotalGain',
  'totalLoss',
  'realisedTotalLoss',
  'totalVolume',
  'avgVolume',
  'avgRoi',
  'realisedAvgRoi',
  'maxRoi',
  'realisedMaxRoi',
  'pnl',
  'realisedPnl',
  'maxDrawdown',
  'realisedMaxDrawdown',
  'winRate',
  'profitRate',
  'realisedProfitRate',
  'longRate',
  'gainLossRatio',
  'realisedGainLossRatio',
  'avgDuration',
  'avgLeverage',
  'totalLiquidation',
  'runTimeDays',
  'lastTradeAtTs',
  'totalFee',
  'protocol',
] as const satisfies readonly (keyof PositionStatistic)[];

const publicOptionalMask = Object.fromEntries(
  Object.keys(positionStatisticSchema.shape)
    .filter((k) => !(PUBLIC_STATISTIC_FIELDS as readonly string[]).includes(k))
    .map((k) => [k, true as const]),
) as { [K in Exclude<keyof PositionStatistic, (typeof PUBLIC_STATISTIC_FIELDS)[number]>]?: true };

/** Item of the public statistic filter: the spec's subset required, the rest optional. */
export const publicPositionStatisticSchema = positionStatisticSchema.partial(publicOptionalMask);
export type PublicPositionStatistic = z.infer<typeof publicPositionStatisticSchema>;

/** The 13 ranking keys of the spec (docs/semantics.md, Ranking): every ranking carries them. */
export const SPEC_RANKING_KEYS = [
  'avgDuration',
  'avgLeverage',
  'avgVolume',
  'orderPositionRatio',
  'pnl',
  'realisedAvgRoi',
  'realisedMaxDrawdown',
  'realisedMaxRoi',
  'realisedPnl',
  'realisedProfitLossRatio',
  'realisedProfitRate',
  'totalTrade',
  'winRate',
] as const satisfies readonly StatisticNumericField[];

/**
 * Keys the local service ranks beyond the spec's (docs/statistics.md, Rankings): risk-adjusted
 * return and streaks. Optional in a ranking, as other deployments do not send them.
 */
export const EXTRA_RANKING_KEYS = [
  'sharpeRatio',
  'realisedSharpeRatio',
  'sortinoRatio',
  'realisedSortinoRatio',
  'maxWinStreak',
  'maxLoseStreak',
] as const satisfies readonly StatisticNumericField[];

/**
 * Ranking keys where a lower figure ranks better (docs/statistics.md, Rankings; it adds
 * maxLoseStreak); higher is better for every other key (a drawdown is ≤ 0: higher is closer to 0).
 * The service, the core's offline rankings and the terminal's tooltips all read this one list.
 */
export const LOWER_IS_BETTER_RANKING_KEYS: ReadonlySet<RankingKey> = new Set<RankingKey>([
  'avgDuration',
  'avgLeverage',
  'orderPositionRatio',
  'maxLoseStreak',
]);

/** Every key the local service ranks: the spec's, then the extras. */
export const RANKING_KEYS = [...SPEC_RANKING_KEYS, ...EXTRA_RANKING_KEYS] as const;
export type RankingKey = (typeof RANKING_KEYS)[number];

/** Which end of a ranking key is better. */
export type RankingDirection = 'higherIsBetter' | 'lowerIsBetter';

/** The direction of every ranking key, read from LOWER_IS_BETTER_RANKING_KEYS (not restated). */
export const RANKING_DIRECTION = Object.fromEntries(
  RANKING_KEYS.map((k) => [k, LOWER_IS_BETTER_RANKING_KEYS.has(k) ? 'lowerIsBetter' : 'higherIsBetter']),
) as Readonly<Record<RankingKey, RankingDirection>>;

/** `ranking.<key>` names, accepted by the public filter's ranges and sortBy. */
export const RANKING_FIELDS = RANKING_KEYS.map((k) => `ranking.${k}` as const);

const percent = () =>
  zNumber().min(0, { error: 'must be at least 0' }).max(100, { error: 'must be at most 100' });

/** Percentile (0..100, best = 100) of the trader on each key within its protocol and window. */
export const rankingSchema = zObject({
  ...(Object.fromEntries(SPEC_RANKING_KEYS.map((k) => [k, percent()])) as Record<
    (typeof SPEC_RANKING_KEYS)[number],
    ReturnType<typeof percent>
  >),
  ...(Object.fromEntries(EXTRA_RANKING_KEYS.map((k) => [k, percent().optional()])) as Record<
    (typeof EXTRA_RANKING_KEYS)[number],
    z.ZodOptional<ReturnType<typeof percent>>
  >),
});
/** A ranking as read from any deployment (the extra keys may be absent). */
export type Ranking = z.infer<typeof rankingSchema>;
/** A ranking as the local service computes it: every key. */
export type FullRanking = Required<Ranking>;

/**
 * One item of the public statistic filter: the public record, with the trader's percentiles when
 * the deployment sends them. The terminal's leaderboard rows are exactly these items, whether they
 * come from the service or from a downloaded dataset.
 */
export const publicStatisticItemSchema = publicPositionStatisticSchema.extend({
  ranking: rankingSchema.optional(),
});
export type PublicStatisticItem = z.infer<typeof publicStatisticItemSchema>;

/** A statistic record with its ranking (single-trader endpoint). */
export const rankedPositionStatisticSchema = positionStatisticSchema.extend({ ranking: rankingSchema });
export type RankedPositionStatistic = z.infer<typeof rankedPositionStatisticSchema>;

/** `GET /public/{protocol}/position/statistic/trader/{account}`: a key per window that has positions. */
export const traderStatisticsByWindowSchema = zObject(
  Object.fromEntries(WINDOWS.map((w) => [w, rankedPositionStatisticSchema.optional()])) as Record<
    Window,
    z.ZodOptional<typeof rankedPositionStatisticSchema>
  >,
);
export type TraderStatisticsByWindow = z.infer<typeof traderStatisticsByWindowSchema>;

/** `POST /{protocol}/position/statistic/filter` body. */
export const statisticFilterBodySchema = zStrict(
  pagedFilterShape({ sortFields: STATISTIC_FIELDS, queryFields: STATISTIC_FIELDS }),
);
export type StatisticFilterBodyInput = z.input<typeof statisticFilterBodySchema>;
export type StatisticFilterBody = z.infer<typeof statisticFilterBodySchema>;

const RANKED_STATISTIC_FIELDS = [...STATISTIC_FIELDS, ...RANKING_FIELDS];

/** `POST /public/{protocol}/position/statistic/filter` body: adds ranges, also on `ranking.<key>`. */
export const publicStatisticFilterBodySchema = zStrict({
  ...pagedFilterShape({ sortFields: RANKED_STATISTIC_FIELDS, queryFields: STATISTIC_FIELDS }),
  ranges: zCappedList(rangeConditionSchema(RANKED_STATISTIC_FIELDS), FILTER_CONDITIONS_MAX)
    .superRefine((ranges, ctx) => {
      const values = ranges.reduce((n, r) => n + (r.in?.length ?? 0) + (r.nin?.length ?? 0), 0);
      if (values > FILTER_BOUND_VALUES_MAX)
        ctx.addIssue({
          code: 'custom',
          message: `must hold at most ${FILTER_BOUND_VALUES_MAX} values, "in" and "nin" lists included`,
        });
    })
    .default([]),
});
export type PublicStatisticFilterBodyInput = z.input<typeof publicStatisticFilterBodySchema>;
export type PublicStatisticFilterBody = z.infer<typeof publicStatisticFilterBodySchema>;

/** Search-after batch size bounds (docs/api.md: 1..1000; default like every page, 20). */
export const SEARCH_AFTER_SIZE_MAX = 1000;
export const SEARCH_AFTER_SIZE_DEFAULT = 20;

const knownStatisticField = fieldNameSchema(STATISTIC_FIELDS);

/** One sort entry `{<field>: 'asc' | 'desc'}` with exactly one key. */
export const searchAfterSortSchema = z
  .record(knownStatisticField, sortTypeSchema, {
    error: (issue) => (issue.code === 'invalid_key' ? 'must be a known field' : expected('an object')(issue)),
  })
  .superRefine((entry, ctx) => {
    if (Object.keys(entry).length !== 1) {
      ctx.addIssue({ code: 'custom', message: 'must have exactly one field, like {"pnl": "desc"}' });
    }
  });
export type SearchAfterSort = z.infer<typeof searchAfterSortSchema>;

/** A sort value carried in `searchAfter`. */
export const searchAfterValueSchema = z.union([zText(), zNumber(), zBool(), z.null()], {
  error: expected('a string, a number, a boolean or null'),
});

/** The search-after endpoint (API key only). */
export const SEARCH_AFTER_PATH = '/trial/position/statistic/search-after';

/** `POST /trial/position/statistic/search-after` body; the service always appends `id` to the sort. */
export const searchAfterRequestSchema = zStrict({
  size: zInt()
    .min(1, { error: 'must be at least 1' })
    .max(SEARCH_AFTER_SIZE_MAX, { error: `must be at most ${SEARCH_AFTER_SIZE_MAX}` })
    .default(SEARCH_AFTER_SIZE_DEFAULT),
  sort: zCappedList(searchAfterSortSchema, SORT_KEYS_MAX).default([]),
  pitId: zNonEmpty().optional(),
  searchAfter: zCappedList(searchAfterValueSchema, SORT_KEYS_MAX + 1).optional(),
  queries: zCappedList(queryFilterSchema(STATISTIC_FIELDS), FILTER_CONDITIONS_MAX).default([]),
});
export type SearchAfterRequestInput = z.input<typeof searchAfterRequestSchema>;
export type SearchAfterRequest = z.infer<typeof searchAfterRequestSchema>;

/** Search-after answer: send `pitId` and `searchAfter` back to get the next batch. */
export const searchAfterResponseSchema = zObject({
  data: zList(positionStatisticSchema),
  meta: zObject({
    total: zCount(),
    totalPages: zCount(),
    pitId: zNonEmpty(),
    // Tolerant: other deployments answer null once the data is exhausted.
    searchAfter: zList(searchAfterValueSchema).nullable(),
  }),
});
export type SearchAfterResponse = z.infer<typeof searchAfterResponseSchema>;

/** At most this many accounts per pnl-statistics call (a choice: the spec sets no bound). */
export const PNL_STATISTICS_ACCOUNTS_MAX = 100;

/** `POST /public/position/statistic-<venue>/pnl-statistics` body; statisticType defaults to FULL. */
export const pnlStatisticsRequestSchema = zStrict({
  accounts: zList(zStrict({ account: addressSchema, protocol: protocolIdSchema }))
    .min(1, { error: 'must not be empty' })
    .max(PNL_STATISTICS_ACCOUNTS_MAX, { error: `must have at most ${PNL_STATISTICS_ACCOUNTS_MAX} entries` }),
  statisticType: windowSchema.default('FULL'),
});
export type PnlStatisticsRequestInput = z.input<typeof pnlStatisticsRequestSchema>;
export type PnlStatisticsRequest = z.infer<typeof pnlStatisticsRequestSchema>;

/** One account's daily series: parallel arrays, one entry per UTC day (docs/semantics.md). */
export const pnlSeriesSchema = zObject({
  date: zList(isoTimestampSchema),
  realisedPnl: zList(zNumber()),
  unrealisedPnl: zList(zNumber()),
  fee: zList(zNumber()),
}).superRefine((series, ctx) => {
  for (const key of ['realisedPnl', 'unrealisedPnl', 'fee'] as const) {
    if (series[key].length !== series.date.length) {
      ctx.addIssue({ code: 'custom', path: [key], message: 'must have as many entries as date' });
    }
  }
});
export type PnlSeries = z.infer<typeof pnlSeriesSchema>;

/** pnl-statistics answer, keyed by each requested account. */
export const pnlStatisticsResponseSchema = z.record(zText(), pnlSeriesSchema, {
  error: expected('an object'),
});
export type PnlStatisticsResponse = z.infer<typeof pnlStatisticsResponseSchema>;
