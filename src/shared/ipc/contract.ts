import { z } from 'zod';
import type { Result } from '../result';
import type { Channel, EventName } from './names';
import { paged } from '../api/common';
import { orderSchema, positionSchema } from '../api/positions';
import { copyTradeSchema } from '../api/copy-trades';
import { copyPositionSchema } from '../api/copy-positions';
import { cached } from './schemas/freshness';
import {
  datasetKeySchema,
  downloadStateSchema,
  leaderboardPageRequestSchema,
  leaderboardPageSchema,
  pnlRequestSchema,
  pnlResponseSchema,
} from './schemas/leaderboard';
import {
  ordersPageSchema,
  positionsPageSchema,
  traderKeySchema,
  traderOrdersRequestSchema,
  traderPositionsRequestSchema,
  traderStatisticsSchema,
} from './schemas/trader';
import { liveFeedRequestSchema } from './schemas/live';
import { pricesCandlesRequestSchema } from './schemas/prices';
import { candlesResponseSchema } from '../api/candles';
import {
  activityLogsPageSchema,
  activityLogsRequestSchema,
  copyOrdersSchema,
  copyPositionIdSchema,
  copyPositionsPageRequestSchema,
  copyPositionsPageSchema,
  copyTradeCreateRequestSchema,
  copyTradeSetStatusRequestSchema,
  copyTradesListRequestSchema,
  copyTradesListSchema,
  copyTradeUpdateRequestSchema,
} from './schemas/copy';
import {
  walletsListSchema,
  withdrawalRecordSchema,
  withdrawalsListSchema,
  withdrawPreviewRequestSchema,
  withdrawPreviewSchema,
  withdrawSubmitRequestSchema,
} from './schemas/wallets';
import {
  cacheStatsSchema,
  exportCancelRequestSchema,
  exportCancelSchema,
  exportCsvRequestSchema,
  exportCsvSchema,
  profileIdRequestSchema,
  profileSaveRequestSchema,
  profilesSchema,
  settingsSchema,
  settingsUpdateRequestSchema,
} from './schemas/settings';
import { feedAccountsRequestSchema, feedStatusReadSchema } from './schemas/feed';
import { feedStatusSchema } from '../api/feed';
import {
  backtestCancelRequestSchema,
  backtestCancelSchema,
  backtestProgressSchema,
  backtestResponseSchema,
  backtestRunRequestSchema,
  backtestSweepRequestSchema,
  backtestSweepSchema,
} from './schemas/backtest';

const empty = z.strictObject({});
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, { message: 'must be a 0x address of 40 hex digits' });

/** What the terminal may know about the wallet: never the key. */
export const walletStatusSchema = z.object({
  hasWallet: z.boolean(),
  address: address.nullable(),
});
export type WalletStatus = z.infer<typeof walletStatusSchema>;

/** The logged-in user as the terminal shows it (the JWT stays in the core). */
export const sessionSchema = z.object({
  address,
  userId: z.string(),
  role: z.string(),
  copyTradeQuota: z.number(),
  plan: z.number(),
  referralCode: z.string(),
  loggedInAt: z.string(),
});
export type Session = z.infer<typeof sessionSchema>;

export const authStatusSchema = z.object({ loggedIn: z.boolean(), session: sessionSchema.nullable() });
export type AuthStatus = z.infer<typeof authStatusSchema>;

export const tokenGroupSchema = z.object({
  protocol: z.string(),
  tokens: z.array(z.object({ symbol: z.string(), indexTokens: z.array(z.string()), isForex: z.boolean() })),
});
export const tokensListSchema = z.object({ groups: z.array(tokenGroupSchema), fetchedAt: z.string() });
export type TokensList = z.infer<typeof tokensListSchema>;

export const appInfoSchema = z.object({
  appVersion: z.string(),
  shell: z.enum(['electron', 'web']),
  dataDir: z.string(),
  profile: z.object({
    id: z.string(),
    name: z.string(),
    baseUrl: z.string(),
    kind: z.enum(['local', 'remote']),
  }),
  /** True when the keychain lives only for this run (headless start): a wallet made now is lost at exit. */
  ephemeralKeychain: z.boolean(),
  /** Databases that could not be opened at this start: moved aside, rebuilt empty (docs/security.md). */
  damagedFiles: z.array(z.object({ file: z.string(), movedTo: z.string(), at: z.string() })).optional(),
  versions: z.record(z.string(), z.string()),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

const live = <T extends z.ZodType>(item: T) => cached(paged(item));

/** Channel → request and response schemas. Requests are validated as `unknown` by the core. */
export const channels = {
  'app:info': { request: empty, response: appInfoSchema },
  'wallet:status': { request: empty, response: walletStatusSchema },
  'wallet:create': { request: empty, response: walletStatusSchema },
  'wallet:import': {
    request: z.strictObject({
      privateKey: z
        .string()
        .trim()
        .regex(/^(0x)?[0-9a-fA-F]{64}$/, { message: 'must be 64 hex digits, with or without 0x' }),
    }),
    response: walletStatusSchema,
  },
  'wallet:delete': {
    // The address must be typed back: deleting a key is not undoable.
    request: z.strictObject({ address }),
    response: walletStatusSchema,
  },
  'auth:status': { request: empty, response: authStatusSchema },
  'auth:login': { request: empty, response: sessionSchema },
  'auth:logout': { request: empty, response: authStatusSchema },
  'tokens:list': { request: empty, response: tokensListSchema },

  'leaderboard:page': { request: leaderboardPageRequestSchema, response: leaderboardPageSchema },
  'statistics:pnl': { request: pnlRequestSchema, response: pnlResponseSchema },
  'downloads:start': { request: datasetKeySchema, response: downloadStateSchema },
  'downloads:cancel': { request: datasetKeySchema, response: downloadStateSchema },
  'downloads:delete': { request: datasetKeySchema, response: z.array(downloadStateSchema) },
  'downloads:list': { request: empty, response: z.array(downloadStateSchema) },

  'trader:statistics': { request: traderKeySchema, response: traderStatisticsSchema },
  'trader:positions': { request: traderPositionsRequestSchema, response: positionsPageSchema },
  'trader:orders': { request: traderOrdersRequestSchema, response: ordersPageSchema },
  'prices:candles': { request: pricesCandlesRequestSchema, response: candlesResponseSchema },

  'live:top': { request: liveFeedRequestSchema, response: live(positionSchema) },
  'live:positions': { request: liveFeedRequestSchema, response: live(positionSchema) },
  'live:orders': { request: liveFeedRequestSchema, response: live(orderSchema) },

  'copyTrades:list': { request: copyTradesListRequestSchema, response: copyTradesListSchema },
  'copyTrades:create': { request: copyTradeCreateRequestSchema, response: copyTradeSchema },
  'copyTrades:update': { request: copyTradeUpdateRequestSchema, response: copyTradeSchema },
  'copyTrades:setStatus': { request: copyTradeSetStatusRequestSchema, response: copyTradeSchema },
  'copyPositions:page': { request: copyPositionsPageRequestSchema, response: copyPositionsPageSchema },
  'copyPositions:orders': { request: copyPositionIdSchema, response: copyOrdersSchema },
  'copyPositions:close': { request: copyPositionIdSchema, response: copyPositionSchema },
  'copyPositions:unlink': { request: copyPositionIdSchema, response: copyPositionSchema },
  'activityLogs:page': { request: activityLogsRequestSchema, response: activityLogsPageSchema },

  'wallets:list': { request: empty, response: walletsListSchema },
  'withdraw:preview': { request: withdrawPreviewRequestSchema, response: withdrawPreviewSchema },
  'withdraw:submit': { request: withdrawSubmitRequestSchema, response: withdrawalRecordSchema },
  'withdrawals:list': { request: empty, response: withdrawalsListSchema },

  'profiles:list': { request: empty, response: profilesSchema },
  'profiles:save': { request: profileSaveRequestSchema, response: profilesSchema },
  'profiles:delete': { request: profileIdRequestSchema, response: profilesSchema },
  'profiles:switch': { request: profileIdRequestSchema, response: profilesSchema },
  'settings:get': { request: empty, response: settingsSchema },
  'settings:update': { request: settingsUpdateRequestSchema, response: settingsSchema },
  'cache:stats': { request: empty, response: cacheStatsSchema },
  'cache:clear': { request: empty, response: cacheStatsSchema },
  'export:csv': { request: exportCsvRequestSchema, response: exportCsvSchema },
  'export:cancel': { request: exportCancelRequestSchema, response: exportCancelSchema },

  'feed:status': { request: empty, response: feedStatusReadSchema },
  'feed:accounts': { request: feedAccountsRequestSchema, response: feedStatusSchema },

  'backtest:run': { request: backtestRunRequestSchema, response: backtestResponseSchema },
  'backtest:sweep': { request: backtestSweepRequestSchema, response: backtestSweepSchema },
  'backtest:cancel': { request: backtestCancelRequestSchema, response: backtestCancelSchema },
} as const satisfies Record<Channel, { request: z.ZodType; response: z.ZodType }>;

/** Event → payload schema: what the core pushes to the renderer. */
export const events = {
  'service:state': z.object({
    state: z.enum(['starting', 'ready', 'stopped', 'failed']),
    url: z.string().nullable(),
    message: z.string().nullable(),
  }),
  'session:changed': authStatusSchema,
  /** Whether the active profile's service answers; `offline` means reads are served from cache. */
  'connection:state': z.object({
    profileId: z.string(),
    state: z.enum(['online', 'offline', 'connecting']),
    since: z.string(),
    message: z.string().nullable(),
  }),
  /** A cache-first read was refreshed: the new answer of `channel` for the request with `key`. */
  'data:fresh': z.object({ channel: z.string(), key: z.string(), value: z.unknown() }),
  'download:progress': downloadStateSchema,
  /** The service's event stream: a copy position opened/updated/closed, a log, a withdrawal settled. */
  'copy:activity': z.object({
    kind: z.enum(['copyPosition', 'activityLog', 'withdrawal']),
    action: z.string(),
    /** The resource as the service sent it. */
    data: z.unknown(),
    at: z.string(),
  }),
  'profile:changed': profilesSchema,
  'export:progress': z.object({ done: z.number(), total: z.number() }),
  /** Combinations of a running `backtest:sweep` done so far. */
  'backtest:progress': backtestProgressSchema,
} as const satisfies Record<EventName, z.ZodType>;

export type ChannelRequest<C extends Channel> = z.input<(typeof channels)[C]['request']>;
export type ChannelResponse<C extends Channel> = z.output<(typeof channels)[C]['response']>;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;

/** `window.api`: the only way the renderer reaches the core, in Electron and in the web shell. */
export interface CopydeskApi {
  invoke<C extends Channel>(channel: C, request: ChannelRequest<C>): Promise<Result<ChannelResponse<C>>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}
