import { z } from 'zod';
import {
  fieldNameSchema,
  protocolIdSchema,
  rangeConditionSchema,
  sortTypeSchema,
  windowSchema,
  zInt,
  zList,
  zOneOf,
  zStrict,
} from '../../api/common';
import {
  publicStatisticItemSchema,
  RANKING_FIELDS,
  STATISTIC_FIELDS,
  pnlSeriesSchema,
  PNL_STATISTICS_ACCOUNTS_MAX,
  type PublicStatisticItem,
} from '../../api/statistics';
import { addressSchema } from '../../api/common';
import { cached } from './freshness';

/** Every field the leaderboard can sort and range-filter on: statistics and `ranking.<key>`. */
export const LEADERBOARD_FIELDS = [...STATISTIC_FIELDS, ...RANKING_FIELDS] as const;

export const LEADERBOARD_PAGE_MAX = 500;

/**
 * `leaderboard:page`: one page of traders of one or several protocols for a window, filtered by
 * ranges (also on percentiles) and sorted. With several protocols the rows are merged in sort order.
 * `source`: `auto` answers from a downloaded dataset when every asked protocol has one for the
 * window and from the service otherwise; `downloaded` insists on the datasets (offline use).
 */
export const leaderboardPageRequestSchema = zStrict({
  protocols: zList(protocolIdSchema)
    .min(1, { error: 'must name at least one protocol' })
    .max(16, { error: 'must have at most 16 entries' }),
  window: windowSchema.default('D30'),
  ranges: zList(rangeConditionSchema(LEADERBOARD_FIELDS))
    .max(40, { error: 'must have at most 40 entries' })
    .default([]),
  sort: zStrict({ field: fieldNameSchema(LEADERBOARD_FIELDS), direction: sortTypeSchema }).prefault({
    field: 'pnl',
    direction: 'desc',
  }),
  limit: zInt()
    .min(1, { error: 'must be at least 1' })
    .max(LEADERBOARD_PAGE_MAX, { error: `must be at most ${LEADERBOARD_PAGE_MAX}` })
    .default(100),
  offset: zInt().min(0, { error: 'must be at least 0' }).default(0),
  source: zOneOf(['auto', 'service', 'downloaded']).default('auto'),
});
export type LeaderboardPageRequest = z.input<typeof leaderboardPageRequestSchema>;

/** A leaderboard row: one item of the public statistic filter, as the service defines it. */
export type LeaderboardRow = PublicStatisticItem;

export const leaderboardPageSchema = cached(
  z.object({
    rows: z.array(publicStatisticItemSchema),
    total: z.number(),
    /** Where the rows came from: the service, or datasets downloaded for offline use. */
    origin: z.enum(['service', 'downloaded']),
  }),
);
export type LeaderboardPage = z.infer<typeof leaderboardPageSchema>;

/** `statistics:pnl`: daily PnL series (sparklines, the trader chart), keyed by account. */
export const pnlRequestSchema = zStrict({
  accounts: zList(zStrict({ account: addressSchema, protocol: protocolIdSchema }))
    .min(1, { error: 'must not be empty' })
    .max(PNL_STATISTICS_ACCOUNTS_MAX, { error: `must have at most ${PNL_STATISTICS_ACCOUNTS_MAX} entries` }),
  window: windowSchema.default('FULL'),
});
export const pnlResponseSchema = cached(z.record(z.string(), pnlSeriesSchema));

/** One protocol's statistics for one window, downloaded whole for offline use. */
export const datasetKeySchema = zStrict({ protocol: protocolIdSchema, window: windowSchema });
export type DatasetKey = z.infer<typeof datasetKeySchema>;

export const DOWNLOAD_STATES = ['running', 'paused', 'complete', 'failed'] as const;
export const downloadStateSchema = z.object({
  protocol: z.string(),
  window: z.string(),
  state: z.enum(DOWNLOAD_STATES),
  downloaded: z.number(),
  /** Records the service has for the dataset, when known. */
  total: z.number().nullable(),
  startedAt: z.string(),
  /** When the dataset became complete (its data is as of then). */
  completedAt: z.string().nullable(),
  /** Why it failed or paused, in a sentence. */
  message: z.string().nullable(),
});
export type DownloadState = z.infer<typeof downloadStateSchema>;
