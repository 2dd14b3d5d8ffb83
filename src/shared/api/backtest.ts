// Backtests of copy settings over a trader's stored orders (issue 16; docs/backtest.md).
//
// `POST /{protocol}/back-testing/multiple-order` runs one configuration for one or several
// accounts; `POST /{protocol}/back-testing/sweep` runs every combination of a few listed
// settings. The bodies are shaped as the leading web app's calls, plus the costs a real copy pays
// (delay, slippage, fee rate, funding). The value rules of a copy trade apply, by the same code.
import { z } from 'zod';
import { addressSchema, zBool, zList, zNonEmpty, zNumber, zOneOf, zStrict } from './common';
import {
  amountTypeSchema,
  copyTradeRuleIssues,
  copyTradeSideSchema,
  COPY_TRADE_DEFAULTS,
  type CopyTradeRuleSubject,
} from './copy-trades';

/** The bounds of a backtest body, on top of a copy trade's (docs/backtest.md, API). */
export const BACKTEST_BOUNDS = {
  accounts: { min: 1, max: 50 },
  /** Starting balance, USD. */
  balance: { max: 1_000_000_000 },
  /** Seconds between the source order and the copy's fill. */
  delaySeconds: { max: 86_400 },
  /** Price worsened against the copy on every fill, basis points. */
  slippageBps: { max: 1_000 },
  /** Taker fee per fill as a fraction of notional (0.00035 is 0.035 %). */
  feeRate: { max: 0.01 },
  /** `pairs` (the tokens copied when copyAll is false) and excludingPairs. */
  pairs: { max: 500 },
  /** Configurations × accounts of one sweep. */
  combinations: { max: 10_000 },
  /** Values of one swept list. */
  sweepValues: { max: 1_000 },
} as const;
const B = BACKTEST_BOUNDS;

/** The defaults the service applies (docs/backtest.md, API); the window defaults to the 30 days before today. */
export const BACKTEST_DEFAULTS = {
  balance: 1_000,
  orderVolume: 100,
  leverage: 5,
  windowDays: 30,
  delaySeconds: 0,
  slippageBps: 0,
  funding: true,
  isReturnPositions: false,
} as const;

/** A time as epoch milliseconds or ISO 8601 text; answered as epoch milliseconds. */
export const backtestTimeSchema = z
  .union([zNumber(), zNonEmpty(40)], { error: 'must be epoch milliseconds or an ISO 8601 time' })
  .transform((value, ctx) => {
    const ms = typeof value === 'number' ? value : Date.parse(value);
    if (!Number.isFinite(ms) || ms < 0 || ms > Date.UTC(2100, 0, 1)) {
      ctx.addIssue({
        code: 'custom',
        message: 'must be epoch milliseconds or an ISO 8601 time between 1970 and 2100',
      });
      return z.NEVER;
    }
    return ms;
  });

const optionalNumber = () => zNumber().nullable().optional();
const bounded = (max: number) =>
  zNumber()
    .min(0, { error: 'must be at least 0' })
    .max(max, { error: `must be at most ${max}` });

/** The settings one configuration may sweep; each takes a single value here. */
const settingFields = {
  orderVolume: zNumber().optional(),
  leverage: zNumber().optional(),
  stopLossAmount: optionalNumber(),
  takeProfitAmount: optionalNumber(),
  lookBackOrders: optionalNumber(),
  maxVolMultiplier: optionalNumber(),
  reverseCopy: zBool().optional(),
  delaySeconds: bounded(B.delaySeconds.max).optional(),
};

/** Every field of a backtest body but the swept ones. */
const commonFields = {
  accounts: zList(addressSchema)
    .min(B.accounts.min, { error: 'must not be empty' })
    .max(B.accounts.max, { error: `must have at most ${B.accounts.max} accounts` }),
  balance: zNumber().optional(),
  fromTime: backtestTimeSchema.optional(),
  toTime: backtestTimeSchema.optional(),
  copyAll: zBool().optional(),
  /** Tokens copied when copyAll is false: pairs (`BTC/USD`), symbols (`BTC`) or index tokens. */
  pairs: zList(zNonEmpty(100))
    .max(B.pairs.max, { error: `must have at most ${B.pairs.max} items` })
    .optional(),
  hasExclude: zBool().optional(),
  excludingPairs: zList(zNonEmpty(100))
    .max(B.pairs.max, { error: `must have at most ${B.pairs.max} items` })
    .optional(),
  side: copyTradeSideSchema.optional(),
  volumeProtection: zBool().optional(),
  enableStopLoss: zBool().optional(),
  stopLossType: amountTypeSchema.optional(),
  enableTakeProfit: zBool().optional(),
  takeProfitType: amountTypeSchema.optional(),
  skipLowLeverage: zBool().optional(),
  lowLeverage: optionalNumber(),
  skipLowCollateral: zBool().optional(),
  lowCollateral: optionalNumber(),
  skipLowSize: zBool().optional(),
  lowSize: optionalNumber(),
  slippageBps: bounded(B.slippageBps.max).optional(),
  feeRate: bounded(B.feeRate.max).optional(),
  funding: zBool().optional(),
};

/** The copy-trade rules read a backtest configuration under the copy trade's field names. */
const RULE_FIELD_NAMES: Record<string, string> = {
  volume: 'orderVolume',
  tokenAddresses: 'pairs',
  excludingTokenAddresses: 'excludingPairs',
};

/** One configuration's values as the copy-trade rules see them. */
export interface BacktestRuleInput {
  balance?: number | undefined;
  orderVolume?: number | undefined;
  leverage?: number | undefined;
  fromTime?: number | undefined;
  toTime?: number | undefined;
  copyAll?: boolean | undefined;
  pairs?: string[] | undefined;
  hasExclude?: boolean | undefined;
  excludingPairs?: string[] | undefined;
  enableStopLoss?: boolean | undefined;
  stopLossType?: 'PERCENT' | 'USD' | undefined;
  stopLossAmount?: number | null | undefined;
  enableTakeProfit?: boolean | undefined;
  takeProfitType?: 'PERCENT' | 'USD' | undefined;
  takeProfitAmount?: number | null | undefined;
  lookBackOrders?: number | null | undefined;
  maxVolMultiplier?: number | null | undefined;
  skipLowLeverage?: boolean | undefined;
  lowLeverage?: number | null | undefined;
  skipLowCollateral?: boolean | undefined;
  lowCollateral?: number | null | undefined;
  skipLowSize?: boolean | undefined;
  lowSize?: number | null | undefined;
}

/**
 * Every rule one configuration breaks: the copy trade's value rules (under the backtest's field
 * names) plus fromTime < toTime and balance ≥ orderVolume.
 */
export function backtestRuleIssues(c: BacktestRuleInput): { path: string; message: string }[] {
  const volume = c.orderVolume ?? BACKTEST_DEFAULTS.orderVolume;
  const subject: CopyTradeRuleSubject = {
    volume,
    leverage: c.leverage ?? BACKTEST_DEFAULTS.leverage,
    copyAll: c.copyAll ?? COPY_TRADE_DEFAULTS.copyAll,
    tokenAddresses: c.pairs ?? [],
    hasExclude: c.hasExclude ?? COPY_TRADE_DEFAULTS.hasExclude,
    excludingTokenAddresses: c.excludingPairs ?? [],
    enableStopLoss: c.enableStopLoss,
    stopLossType: c.stopLossType,
    stopLossAmount: c.stopLossAmount,
    enableTakeProfit: c.enableTakeProfit,
    takeProfitType: c.takeProfitType,
    takeProfitAmount: c.takeProfitAmount,
    lookBackOrders: c.lookBackOrders,
    maxVolMultiplier: c.maxVolMultiplier,
    skipLowLeverage: c.skipLowLeverage,
    lowLeverage: c.lowLeverage,
    skipLowCollateral: c.skipLowCollateral,
    lowCollateral: c.lowCollateral,
    skipLowSize: c.skipLowSize,
    lowSize: c.lowSize,
  };
  const issues = copyTradeRuleIssues(subject).map((i) => ({
    path: RULE_FIELD_NAMES[i.path] ?? i.path,
    message: i.message.replace('at most volume', 'at most orderVolume'),
  }));
  const balance = c.balance ?? BACKTEST_DEFAULTS.balance;
  if (!(balance > 0 && balance <= B.balance.max))
    issues.push({ path: 'balance', message: `must be greater than 0 and at most ${B.balance.max}` });
  else if (balance < volume) issues.push({ path: 'balance', message: 'must be at least orderVolume' });
  if (c.fromTime !== undefined && c.toTime !== undefined && !(c.fromTime < c.toTime))
    issues.push({ path: 'fromTime', message: 'must be before toTime' });
  return issues;
}

/** `POST /{protocol}/back-testing/multiple-order`. */
export const backtestRequestSchema = zStrict({
  ...commonFields,
  ...settingFields,
  isReturnPositions: zBool().optional(),
}).superRefine((body, ctx) => {
  for (const issue of backtestRuleIssues(body))
    ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
});
export type BacktestRequestInput = z.input<typeof backtestRequestSchema>;
export type BacktestRequest = z.infer<typeof backtestRequestSchema>;

/** The settings a sweep may list, in the order combinations are enumerated. */
export const SWEEP_FIELDS = [
  'leverage',
  'orderVolume',
  'stopLossAmount',
  'takeProfitAmount',
  'lookBackOrders',
  'maxVolMultiplier',
  'reverseCopy',
  'delaySeconds',
] as const;
export type SweepField = (typeof SWEEP_FIELDS)[number];

/** The metrics a sweep ranks by: ROI, or ROI per unit of max drawdown. */
export const SWEEP_RANKS = ['roi', 'roiPerDrawDown'] as const;
export type SweepRank = (typeof SWEEP_RANKS)[number];

/** A swept setting: one value or a list of 1..1,000 values; answered as a list. */
const sweepList = <T extends z.ZodType>(item: T) =>
  z
    .preprocess(
      (v) => (Array.isArray(v) || v === undefined ? v : [v]),
      zList(item)
        .min(1, { error: 'must not be empty' })
        .max(B.sweepValues.max, { error: `must have at most ${B.sweepValues.max} values` }),
    )
    .optional();

/** `POST /{protocol}/back-testing/sweep`: a multiple-order body whose swept settings may be lists. */
export const sweepRequestSchema = zStrict({
  ...commonFields,
  leverage: sweepList(zNumber()),
  orderVolume: sweepList(zNumber()),
  stopLossAmount: sweepList(zNumber()),
  takeProfitAmount: sweepList(zNumber()),
  lookBackOrders: sweepList(zNumber()),
  maxVolMultiplier: sweepList(zNumber()),
  reverseCopy: sweepList(zBool()),
  delaySeconds: sweepList(bounded(B.delaySeconds.max)),
  rankBy: zOneOf(SWEEP_RANKS).optional(),
}).superRefine((body, ctx) => {
  let combinations = body.accounts.length;
  for (const field of SWEEP_FIELDS) combinations *= (body[field] as unknown[] | undefined)?.length ?? 1;
  if (combinations > B.combinations.max) {
    ctx.addIssue({
      code: 'custom',
      path: ['accounts'],
      message: `with the swept lists make ${combinations} combinations (accounts × values of each list); at most ${B.combinations.max} are allowed`,
    });
    return;
  }
  // The first value of every list is checked as one configuration; every other value is checked
  // with the others at their first, so that a 400 names the value (`leverage[2] must be ...`).
  const first = firstValues(body);
  for (const issue of backtestRuleIssues(first))
    ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
  for (const field of SWEEP_FIELDS) {
    const values = (body[field] as unknown[] | undefined) ?? [];
    values.forEach((value, i) => {
      if (i === 0) return;
      for (const issue of backtestRuleIssues({ ...first, [field]: value }))
        if (issue.path === field) ctx.addIssue({ code: 'custom', path: [field, i], message: issue.message });
    });
  }
});
export type SweepRequestInput = z.input<typeof sweepRequestSchema>;
export type SweepRequest = z.infer<typeof sweepRequestSchema>;

/** A sweep body with every swept list at its first value: one configuration. */
function firstValues(body: SweepRequest): BacktestRuleInput {
  const first: Record<string, unknown> = { ...body };
  for (const field of SWEEP_FIELDS) first[field] = (body[field] as unknown[] | undefined)?.[0];
  return first as BacktestRuleInput;
}

/** Why a simulated position closed. WINDOW_END: still open at toTime, valued at the price then. */
export const BACKTEST_CLOSE_REASONS = [
  'COPY_TRADE',
  'OVERWRITE',
  'STOP_LOSS',
  'TAKE_PROFIT',
  'LIQUIDATE',
  'WINDOW_END',
] as const;
export type BacktestCloseReason = (typeof BACKTEST_CLOSE_REASONS)[number];

/** Where the prices between orders came from. */
export const PRICE_PATHS = ['marks', 'fills'] as const;
export type PricePathKind = (typeof PRICE_PATHS)[number];

/** One simulated copy position. Times are epoch milliseconds. */
export interface SimulatedPosition {
  account: string;
  indexToken: string;
  pair: string;
  isLong: boolean;
  openTime: number;
  closeTime: number;
  entryPrice: number;
  closePrice: number;
  /** Peak size, USD. */
  size: number;
  /** Peak margin, USD. */
  margin: number;
  leverage: number;
  realisedPnl: number;
  fee: number;
  funding: number;
  /** realisedPnl − fee + funding. */
  pnl: number;
}

/** A simulated position with the balance around it (the leading web app's shape). */
export interface SimulatorPosition {
  position: SimulatedPosition;
  /** The balance before the position's close and after it. */
  preBalance: number;
  balance: number;
  profit: number;
  /** profit / peak margin × 100. */
  roi: number;
  /** Peak margin / orderVolume. */
  volMultiplier: number;
  closeReason: BacktestCloseReason;
}

/** The headline figures of one run (docs/backtest.md, Result). */
export interface BacktestSummary {
  account: string;
  protocol: string;
  totalTrade: number;
  totalWin: number;
  totalLose: number;
  totalGain: number;
  totalLoss: number;
  profit: number;
  roi: number;
  avgRoi: number;
  minRoi: number | null;
  maxRoi: number | null;
  minPnl: number | null;
  maxPnl: number | null;
  winRate: number;
  profitRate: number;
  gainLossRatio: number;
  profitLossRatio: number;
  /** Largest fall of the equity curve from a peak, percent of that peak (≤ 0). */
  maxDrawDown: number;
  maxDrawDownPnl: number;
  /** Largest rise of the equity curve from a trough, percent of that trough (≥ 0). */
  maxDrawUp: number;
  /** Largest peak margin / orderVolume reached. */
  maxVolMultiplier: number;
  totalStopLoss: number;
  totalTakeProfit: number;
  totalLiquidate: number;
  /** Copies not made (or not grown) for want of available balance. */
  totalSkipped: number;
  fees: number;
  funding: number;
  pricePath: PricePathKind;
}

/** One point of the equity curve: the balance after each close, from the window's start. */
export interface EquityPoint {
  time: number;
  balance: number;
}

/** One account's result of `multiple-order`. */
export interface BacktestResult extends BacktestSummary {
  equity: EquityPoint[];
  simulatorPositions?: SimulatorPosition[];
}

/** `multiple-order` answers one result per requested account, in request order. */
export type BacktestResponse = BacktestResult[];

/** One configuration of a sweep: the swept settings' values. */
export interface SweepSettings {
  leverage: number;
  orderVolume: number;
  stopLossAmount: number | null;
  takeProfitAmount: number | null;
  lookBackOrders: number | null;
  maxVolMultiplier: number | null;
  reverseCopy: boolean;
  delaySeconds: number;
}

/** One (configuration, account) of a sweep, ranked. */
export interface SweepItem extends BacktestSummary {
  rank: number;
  settings: SweepSettings;
  /** The metric ranked by. */
  score: number;
}

/** `sweep` answers every combination, best first. */
export interface SweepResponse {
  protocol: string;
  rankBy: SweepRank;
  combinations: number;
  fromTime: number;
  toTime: number;
  data: SweepItem[];
}
