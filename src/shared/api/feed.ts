// The venue feed's status and control (outside the spec; docs/venue-feed.md): the local service
// follows real traders from a venue's public data and says how far it has got.
import type { z } from 'zod';
import {
  evmAddressSchema,
  expected,
  isoTimestampSchema,
  zBool,
  zCount,
  zList,
  zNumber,
  zObject,
  zOneOf,
  zStrict,
  zText,
} from './common';

/** The feed's connection: WebSocket up, HTTP only, venue unreachable, or no feed configured. */
export const FEED_STATES = ['connected', 'polling', 'offline', 'off'] as const;
export type FeedState = (typeof FEED_STATES)[number];

/** Why an account is tracked: the venue's leaderboard, the user, or a RUNNING copy trade. */
export const FEED_REASONS = ['leaderboard', 'user', 'copy'] as const;
export type FeedReason = (typeof FEED_REASONS)[number];

/** One tracked account: how much of its history is in, and what went wrong last. */
export const feedAccountSchema = zObject({
  account: zText(),
  /** The whole reachable history is stored; from then on only new fills are fetched. */
  backfilled: zBool(),
  /** Fills stored for the account. */
  fills: zCount(),
  firstFillTime: isoTimestampSchema.nullable(),
  lastFillTime: isoTimestampSchema.nullable(),
  /** How the account is followed live: its own WebSocket subscription, or polling. */
  live: zOneOf(['websocket', 'polling']).optional(),
  reasons: zList(zOneOf(FEED_REASONS)).optional(),
  /** The last error for this account (a refused page, a failed request), with its reason. */
  error: zText().optional(),
  /**
   * When the feed last recomputed this account's statistics from its fills (since the service
   * started). Statistics lag fills by up to ~10 s, so a page showing them reads them again when
   * this moves, not when the fill count does.
   */
  statisticsTime: isoTimestampSchema.optional(),
});
export type FeedAccount = z.infer<typeof feedAccountSchema>;

/** `GET /feed/status` → `{data: FeedStatus}`. */
export const feedStatusSchema = zObject({
  venue: zText(),
  state: zOneOf(FEED_STATES),
  /** When the feed entered its current state. */
  since: isoTimestampSchema,
  budget: zObject({
    /** The request weight the feed allows itself per minute (lowered after a 429, recovering). */
    weightPerMinute: zNumber(),
    usedLastMinute: zNumber(),
  }),
  /** How often each polled account is asked for new fills, computed from the budget (ms). */
  pollIntervalMs: zNumber().optional(),
  /** The leverage assumed for positions the venue does not report (closed, or open before tracking). */
  assumedLeverage: zNumber().optional(),
  /** Pages the feed refused as malformed since it started. */
  refusedPages: zCount().optional(),
  /** Accounts fully backfilled / tracked, for a progress bar. */
  progress: zObject({ backfilled: zCount(), accounts: zCount() }).optional(),
  accounts: zList(feedAccountSchema),
});
export type FeedStatus = z.infer<typeof feedStatusSchema>;

export const feedStatusResponseSchema = zObject({ data: feedStatusSchema });

/** At most this many accounts per `POST /feed/accounts` list. */
export const FEED_ACCOUNTS_MAX = 1_000;

/** `POST /feed/accounts` body: accounts the user tracks or stops tracking (their data stays). */
export const feedAccountsBodySchema = zStrict({
  add: zList(evmAddressSchema)
    .max(FEED_ACCOUNTS_MAX, { error: `must hold at most ${FEED_ACCOUNTS_MAX} accounts` })
    .optional(),
  remove: zList(evmAddressSchema)
    .max(FEED_ACCOUNTS_MAX, { error: `must hold at most ${FEED_ACCOUNTS_MAX} accounts` })
    .optional(),
}).refine((b) => (b.add?.length ?? 0) + (b.remove?.length ?? 0) > 0, {
  error: expected('at least one account in add or remove'),
  path: ['add'],
});
export type FeedAccountsBody = z.infer<typeof feedAccountsBodySchema>;

/** The venue feed's protocol id and index tokens: `HYPERLIQUID`, `HYPERLIQUID-BTC`. */
export const HYPERLIQUID_PROTOCOL = 'HYPERLIQUID';
export const hyperliquidIndexToken = (coin: string): string => `${HYPERLIQUID_PROTOCOL}-${coin}`;
