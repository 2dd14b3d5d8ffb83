// Endpoints outside the spec that the API's open-source web client calls before it shows its
// explorer and a trader (docs/real-clients.md). Shapes follow that client's own types; the
// service fills them from its own data and configuration (docs/service.md, "The real web client's endpoints").
import { z } from 'zod';
import {
  PAGE_LIMIT_DEFAULT,
  fromQueryText,
  isoTimestampSchema,
  limitSchema,
  offsetSchema,
  protocolIdSchema,
  sortTypeSchema,
  zBool,
  zCount,
  zInt,
  zList,
  zNumber,
  zObject,
  zOneOf,
  zStrict,
  zText,
} from './common';
import { POSITION_SORT_FIELDS, orderSchema, positionSchema } from './positions';
import { pnlSeriesSchema } from './statistics';

/** `true`/`false` as a query string spells them. */
const booleanText = () => z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), zBool());

/** Epoch milliseconds as query text (`from`, `to`). */
const epochMsText = () => fromQueryText(zInt().min(0, { error: 'must be epoch milliseconds, at least 0' }));

// ---- configuration: GET /permissions/all, /public/system-configs, /public/trading-event/list ----

/** The client's subscription plans; the local service has one plan, so every plan gets the same. */
export const CLIENT_PLANS = ['NON_LOGIN', 'FREE', 'STARTER', 'PRO', 'ELITE', 'IF'] as const;
/** The permission sections the client reads (its `SubscriptionPermission`). */
export const PERMISSION_SECTIONS = [
  'PROTOCOL',
  'TRADER_EXPLORER',
  'OPEN_INTEREST',
  'LIVE_TRADES',
  'PERP_EXPLORER',
  'TRADER_PROFILE',
  'TRADER_ALERT',
  'COPY_TRADING',
  'USER',
] as const;

/** One plan's configuration of one section: `isEnabled` and the section's own settings. */
export const planPermissionSchema = z.looseObject({ isEnabled: zBool() });
/** `GET /permissions/all`: section → plan → configuration. */
export const permissionsSchema = z.record(
  zOneOf(PERMISSION_SECTIONS),
  z.record(zOneOf(CLIENT_PLANS), planPermissionSchema),
);
export type Permissions = z.infer<typeof permissionsSchema>;

/** A plan's limits as the client's `PlanLimitData` names them. */
export const planLimitSchema = zObject({
  id: zText(),
  plan: zOneOf(CLIENT_PLANS),
  customPercentileRank: zBool(),
  dataFilterDay: zCount(),
  copyTrades: zCount(),
  maxCopySizePerTrader: zNumber(),
  maxCopyTradePerTrader: zCount(),
  joinCopinAlphaClub: zBool(),
  traderAlerts: zCount(),
  customAlerts: zCount(),
  channelAlerts: zCount(),
  webhookAlerts: zCount(),
  createdAt: isoTimestampSchema,
});
export type PlanLimit = z.infer<typeof planLimitSchema>;

/** `GET /public/system-configs`. */
export const systemConfigSchema = zObject({
  copyTradeVolumeConfig: zObject({
    volumeWoReferral: zNumber(),
    volumePremiumReferral: zNumber(),
    volumeVipReferral: zNumber(),
  }),
  systemAlert: zList(z.looseObject({ isActive: zBool() })),
  planSubscriptionLimitConfig: zList(planLimitSchema),
});
export type SystemConfig = z.infer<typeof systemConfigSchema>;

/** `GET /public/trading-event/list` query: the client asks for public events only. */
export const tradingEventListQuerySchema = zStrict({ isPublic: booleanText().optional() });
/** A trading event (the client's `EventDetailsData`); the local service runs none. */
export const tradingEventSchema = z.looseObject({ id: zText(), slug: zText(), title: zText() });
export type TradingEvent = z.infer<typeof tradingEventSchema>;
export const tradingEventListSchema = zList(tradingEventSchema);

// ---- one trader: GET /public/position/statistic/exchange/{account} ----

/** Where a trader trades: one entry per protocol the service has statistics of the trader on. */
export const traderExchangeStatisticSchema = zObject({
  id: zText(),
  protocol: protocolIdSchema,
  isOpenPosition: zBool(),
  lastTradeAt: isoTimestampSchema,
  lastTradeAtTs: zNumber(),
  totalVolume: zNumber(),
});
export type TraderExchangeStatistic = z.infer<typeof traderExchangeStatisticSchema>;
export const traderExchangesSchema = z.record(protocolIdSchema, traderExchangeStatisticSchema);
export type TraderExchanges = z.infer<typeof traderExchangesSchema>;

// ---- POST /public/position/statistic/pnl-statistics-v2 ----

/**
 * The explorer's PnL sparklines: the body of the spec's pnl-statistics, answered per
 * (account, protocol) pair, keyed `<account>-<protocol>` as the client looks them up, each series
 * the spec's for that pair alone (not summed over protocols).
 */
export const pnlStatisticsV2ResponseSchema = z.record(zText(), pnlSeriesSchema);
export type PnlStatisticsV2Response = z.infer<typeof pnlStatisticsV2ResponseSchema>;
/** The key of one pair in the v2 answer. */
export const pnlStatisticsV2Key = (account: string, protocol: string): string => `${account}-${protocol}`;

// ---- GET /{protocol}/statistic/trader/pnl/{account}?from&to&isFill ----

/** The longest range, in days, a filled PnL series may ask for (ten years). */
export const PNL_FILL_DAYS_MAX = 3660;

/** The PnL series query: days whose start lies in [from, to]; `isFill` keeps the empty days. */
export const traderPnlQuerySchema = zStrict({
  from: epochMsText(),
  to: epochMsText(),
  isFill: booleanText().default(false),
}).superRefine((q, ctx) => {
  if (q.from > q.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
  // Filled, every day is an entry: a range from 1970 would be tens of thousands of them.
  else if (q.isFill && q.to - q.from > PNL_FILL_DAYS_MAX * 86_400_000)
    ctx.addIssue({
      code: 'custom',
      path: ['to'],
      message: `must be at most ${PNL_FILL_DAYS_MAX} days after from when isFill is true`,
    });
});
export type TraderPnlQuery = z.infer<typeof traderPnlQuerySchema>;

/** One UTC day of a trader's PnL (the client's `TraderPnlStatisticData`). */
export const traderPnlDaySchema = zObject({
  date: isoTimestampSchema,
  realisedPnl: zNumber(),
  fee: zNumber(),
  funding: zNumber(),
  pnl: zNumber(),
  unrealisedPnl: zNumber(),
  cumulativePnl: zNumber(),
});
export type TraderPnlDay = z.infer<typeof traderPnlDaySchema>;
export const traderPnlSeriesSchema = zList(traderPnlDaySchema);

// ---- GET /{protocol}/position/tokens/{account}/statistic?limit&offset ----

export const tokenStatisticQuerySchema = zStrict({
  limit: fromQueryText(limitSchema).default(PAGE_LIMIT_DEFAULT),
  offset: fromQueryText(offsetSchema).default(0),
});
export type TokenStatisticQuery = z.infer<typeof tokenStatisticQuerySchema>;

/** A trader's closed positions on one token, all time (the client's `TraderTokenStatistic`). */
export const tokenStatisticSchema = zObject({
  indexToken: zText(),
  indexTokens: zList(zText()),
  pair: zText(),
  totalTrade: zCount(),
  totalOrder: zCount(),
  totalWin: zCount(),
  totalLose: zCount(),
  totalLong: zCount(),
  totalShort: zCount(),
  winRate: zNumber(),
  realisedPnl: zNumber(),
  pnl: zNumber(),
  totalFee: zNumber(),
  realisedTotalGain: zNumber(),
  realisedTotalLoss: zNumber(),
  totalGainFee: zNumber(),
  totalLossFee: zNumber(),
  totalLiquidation: zCount(),
  totalLiquidationAmount: zNumber(),
  totalVolume: zNumber(),
  totalRoi: zNumber(),
  realisedTotalRoi: zNumber(),
  realisedAvgRoi: zNumber(),
  maxRoi: zNumber(),
  realisedMaxRoi: zNumber(),
  maxPnl: zNumber(),
  realisedMaxPnl: zNumber(),
  maxDrawDown: zNumber(),
  realisedMaxDrawdown: zNumber(),
  maxDrawDownPnl: zNumber(),
  realisedMaxDrawdownPnl: zNumber(),
  totalDuration: zNumber(),
  minDuration: zNumber(),
  maxDuration: zNumber(),
  totalLeverage: zNumber(),
  minLeverage: zNumber(),
  maxLeverage: zNumber(),
});
export type TokenStatistic = z.infer<typeof tokenStatisticSchema>;

// ---- GET /{protocol}/position/opening/{account}?sortBy&sortType&limit&offset ----

/** Open positions sort by the position filter's fields; default newest open first. */
export const openingPositionsQuerySchema = zStrict({
  sortBy: zOneOf(POSITION_SORT_FIELDS).default('openBlockTime'),
  sortType: sortTypeSchema.default('desc'),
  limit: fromQueryText(limitSchema).default(PAGE_LIMIT_DEFAULT),
  offset: fromQueryText(offsetSchema).default(0),
});
export type OpeningPositionsQuery = z.infer<typeof openingPositionsQuerySchema>;
/** A bare array of open positions, as the client reads it. */
export const openingPositionsSchema = zList(positionSchema);

// ---- GET /{protocol}/order/{account}/last-order ----

/** The trader's latest order on the protocol, or null when there is none. */
export const lastOrderSchema = orderSchema.nullable();
