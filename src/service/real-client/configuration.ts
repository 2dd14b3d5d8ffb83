// The configuration the real web client loads before it lists anything (docs/real-clients.md):
// its permissions per subscription plan, its system configuration and its trading events. The
// local service has no plans, alerts or events, so every plan gets the same permissions, taken
// from what the service actually serves, and the lists of things it does not run are empty.
import { PAGE_LIMIT_MAX, WINDOWS } from '../../shared/api/common';
import { RANKING_KEYS } from '../../shared/api/statistics';
import {
  CLIENT_PLANS,
  type Permissions,
  type PlanLimit,
  type SystemConfig,
} from '../../shared/api/real-client';
import type { ServiceConfig } from '../config';
import { orderFields, positionFields, statisticFields } from '../store/fields';

/** Settings of each permission section, the same for every plan (docs/real-clients.md). */
function sections(protocols: string[], config: ServiceConfig): Record<keyof Permissions, object> {
  const windows = [...WINDOWS];
  return {
    PROTOCOL: { isEnabled: true, protocolAllowed: protocols },
    TRADER_EXPLORER: {
      isEnabled: true,
      protocolAllowed: protocols,
      protocol: protocols,
      fieldsAllowed: Object.keys(statisticFields),
      timeFramesAllowed: windows,
      isEnableRankingFilter: true,
      // Label lists are not computed (docs/semantics.md), so filtering by them is off.
      isEnableLabelsFilter: false,
      isEnableLatestActivities: false,
      isEnableCexDepth: false,
      maxFilterFields: 100,
      exportExcelQuota: 0,
    },
    TRADER_PROFILE: {
      isEnabled: true,
      isEnableOpeningPosition: true,
      isEnablePosition: true,
      isEnableTokenStats: true,
      isEnableTraderStats: true,
      isEnableCompareTrader: false,
      isEnableBackTest: false,
      maxPositionHistory: PAGE_LIMIT_MAX,
      traderRankingFields: [...RANKING_KEYS],
      timeFramesAllowed: windows,
    },
    LIVE_TRADES: {
      isEnabled: true,
      liveOrderDelaySeconds: 0,
      livePositionDelaySeconds: 0,
      orderFieldsAllowed: Object.keys(orderFields),
      positionFieldsAllowed: Object.keys(positionFields),
      isEnableLiveOrderFilter: true,
      isEnableLivePositionFilter: true,
    },
    COPY_TRADING: {
      isEnabled: true,
      exchangeAllowed: [config.venue.toUpperCase()],
      apiKeyQuota: 0,
      copyTradeQuota: config.copyTradeQuota,
      isEnableBulkAction: false,
      isEnableMultiAccount: true,
    },
    // Features the service does not have: open interest, perp DEX explorer, alerts.
    OPEN_INTEREST: { isEnabled: false, fieldsAllowed: [], allowedFilter: false },
    PERP_EXPLORER: { isEnabled: false, fieldsAllowed: [] },
    TRADER_ALERT: {
      isEnabled: false,
      watchedListQuota: 0,
      customPersonalQuota: 0,
      monthlyQuota: 0,
      webhookQuota: 0,
      channelQuota: 0,
      groupQuota: 0,
      bookmarkGroupQuota: 0,
    },
    USER: { isEnabled: true, allowedCustomReferralCode: false },
  };
}

/** `GET /permissions/all`: each section's settings under every plan of the client. */
export function permissionsOf(protocols: string[], config: ServiceConfig): Permissions {
  const everyPlan = (settings: object) =>
    Object.fromEntries(CLIENT_PLANS.map((plan) => [plan, { isEnabled: true, ...settings }]));
  return Object.fromEntries(
    Object.entries(sections(protocols, config)).map(([section, settings]) => [section, everyPlan(settings)]),
  ) as Permissions;
}

/**
 * `GET /public/system-configs`. The copy-trade volume caps are the sandbox starting balance (the
 * most a new wallet can put in); the plan limits carry the configured copy-trade quota; there are
 * no system alerts.
 */
export function systemConfigOf(config: ServiceConfig, createdAt: string): SystemConfig {
  const cap = config.startingBalance;
  const limit = (plan: (typeof CLIENT_PLANS)[number]): PlanLimit => ({
    id: plan,
    plan,
    customPercentileRank: true,
    // The longest window with a start (FULL has none).
    dataFilterDay: 60,
    copyTrades: config.copyTradeQuota,
    maxCopySizePerTrader: cap,
    maxCopyTradePerTrader: config.copyTradeQuota,
    joinCopinAlphaClub: false,
    traderAlerts: 0,
    customAlerts: 0,
    channelAlerts: 0,
    webhookAlerts: 0,
    createdAt,
  });
  return {
    copyTradeVolumeConfig: { volumeWoReferral: cap, volumePremiumReferral: cap, volumeVipReferral: cap },
    systemAlert: [],
    planSubscriptionLimitConfig: CLIENT_PLANS.map(limit),
  };
}
