// The backtest form: what the user types, its rules (the contract's own schema), and the way to
// and from the copy-trade form (docs/ui.md, Backtest).
import { BACKTEST_DEFAULTS, backtestRequestSchema, type BacktestRequestInput } from '@shared/api/backtest';
import type { AmountType, CopyTradeSide } from '@shared/api/copy-trades';
import type { CopyTradeFormValues } from '@renderer/copy-trades/copy-trade-form';
import { humanizeRule, parseAmount, splitAddresses } from '@renderer/copy-trades/copy-trade-form';
import { formatLeverage, formatPercent, formatUsd } from '@renderer/format/number';

/** The form's values, as typed (amounts are text until sent). */
export interface BacktestSettings {
  protocol: string;
  /** One or several traders; several are compared in one table. */
  accounts: string[];
  balance: string;
  orderVolume: string;
  leverage: string;
  /** `YYYY-MM-DD`, UTC days, both included. */
  fromDate: string;
  toDate: string;
  reverseCopy: boolean;
  copyAll: boolean;
  pairs: string[];
  enableStopLoss: boolean;
  stopLossType: AmountType;
  stopLossAmount: string;
  enableTakeProfit: boolean;
  takeProfitType: AmountType;
  takeProfitAmount: string;
  volumeProtection: boolean;
  lookBackOrders: string;
  maxVolMultiplier: string;
  delaySeconds: string;
  slippageBps: string;
  /** Percent per fill as typed (`0.035`); empty = the venue's rate. */
  feePercent: string;
  funding: boolean;
  /** Options the form carries from the copy-trade form without controls of its own (the summary names them). */
  side: CopyTradeSide;
  hasExclude: boolean;
  excludingPairs: string[];
  skipLowLeverage: boolean;
  lowLeverage: string;
  skipLowCollateral: boolean;
  lowCollateral: string;
  skipLowSize: boolean;
  lowSize: string;
}

const DAY_MS = 86_400_000;
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The service's defaults: 1,000 USD, 100 per order at 5×, the 30 days before today. */
export function defaultSettings(now: number, prefill: Partial<BacktestSettings> = {}): BacktestSettings {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return {
    protocol: '',
    accounts: [],
    balance: String(BACKTEST_DEFAULTS.balance),
    orderVolume: String(BACKTEST_DEFAULTS.orderVolume),
    leverage: String(BACKTEST_DEFAULTS.leverage),
    fromDate: isoDay(today - BACKTEST_DEFAULTS.windowDays * DAY_MS),
    toDate: isoDay(today),
    reverseCopy: false,
    copyAll: true,
    pairs: [],
    enableStopLoss: false,
    stopLossType: 'PERCENT',
    stopLossAmount: '',
    enableTakeProfit: false,
    takeProfitType: 'PERCENT',
    takeProfitAmount: '',
    volumeProtection: false,
    lookBackOrders: '',
    maxVolMultiplier: '',
    delaySeconds: String(BACKTEST_DEFAULTS.delaySeconds),
    slippageBps: String(BACKTEST_DEFAULTS.slippageBps),
    feePercent: '',
    funding: BACKTEST_DEFAULTS.funding,
    side: 'BOTH',
    hasExclude: false,
    excludingPairs: [],
    skipLowLeverage: false,
    lowLeverage: '',
    skipLowCollateral: false,
    lowCollateral: '',
    skipLowSize: false,
    lowSize: '',
    ...prefill,
  };
}

/** `2026-11-01` → the first millisecond of that UTC day; `end` → the last one. */
export function dayToMs(day: string, end = false): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const ms = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(ms) ? ms + (end ? DAY_MS - 1 : 0) : undefined;
}

/** An amount whose switch is on; a number typed where one is optional. */
const amountIf = (on: boolean, text: string): number | undefined => (on ? parseAmount(text) : undefined);

/** The body of `multiple-order` for these settings; `positions` asks for the simulated positions. */
export function settingsToBody(s: BacktestSettings, positions = true): BacktestRequestInput {
  const fee = parseAmount(s.feePercent);
  const body: Record<string, unknown> = {
    accounts: s.accounts,
    balance: parseAmount(s.balance),
    orderVolume: parseAmount(s.orderVolume),
    leverage: parseAmount(s.leverage),
    fromTime: dayToMs(s.fromDate),
    toTime: dayToMs(s.toDate, true),
    reverseCopy: s.reverseCopy,
    copyAll: s.copyAll,
    ...(!s.copyAll && { pairs: s.pairs }),
    enableStopLoss: s.enableStopLoss,
    stopLossType: s.stopLossType,
    stopLossAmount: amountIf(s.enableStopLoss, s.stopLossAmount),
    enableTakeProfit: s.enableTakeProfit,
    takeProfitType: s.takeProfitType,
    takeProfitAmount: amountIf(s.enableTakeProfit, s.takeProfitAmount),
    volumeProtection: s.volumeProtection,
    lookBackOrders: amountIf(s.volumeProtection, s.lookBackOrders),
    maxVolMultiplier: parseAmount(s.maxVolMultiplier),
    delaySeconds: parseAmount(s.delaySeconds),
    slippageBps: parseAmount(s.slippageBps),
    // Typed in percent, sent as a fraction of notional.
    feeRate: fee === undefined ? undefined : fee / 100,
    funding: s.funding,
    side: s.side,
    ...(s.copyAll && s.hasExclude && { hasExclude: true, excludingPairs: s.excludingPairs }),
    skipLowLeverage: s.skipLowLeverage,
    lowLeverage: amountIf(s.skipLowLeverage, s.lowLeverage),
    skipLowCollateral: s.skipLowCollateral,
    lowCollateral: amountIf(s.skipLowCollateral, s.lowCollateral),
    skipLowSize: s.skipLowSize,
    lowSize: amountIf(s.skipLowSize, s.lowSize),
    isReturnPositions: positions,
  };
  for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
  return body as BacktestRequestInput;
}

/** The form's fields a rule of the body may name. */
const FIELD_OF: Record<string, keyof BacktestSettings> = {
  fromTime: 'fromDate',
  toTime: 'toDate',
  feeRate: 'feePercent',
};

export type SettingsIssues = Partial<Record<keyof BacktestSettings, string>>;

/** A contract rule in the form's words: field names as labelled, switches on and off. */
const readable = (message: string): string =>
  humanizeRule(message)
    .replace(/\borderVolume\b/g, 'the margin per order')
    .replace(/\btoTime\b/g, 'the To day');

/** Every rule the settings break, by form field, in the contract's words (the service's own). */
export function settingsIssues(s: BacktestSettings): SettingsIssues {
  const issues: SettingsIssues = {};
  if (!s.protocol) issues.protocol = 'Choose a protocol.';
  const parsed = backtestRequestSchema.safeParse(settingsToBody(s));
  if (parsed.success) return issues;
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0] ?? 'accounts');
    const field = FIELD_OF[key] ?? (key in s ? (key as keyof BacktestSettings) : 'accounts');
    const message = key === 'feeRate' ? 'must be between 0 and 1 (percent)' : readable(issue.message);
    issues[field] ??= message;
  }
  return issues;
}

/** One line a trader reads the configuration in: `$1,000 · $100 × 5× · SL 10% · delay 5 s`. */
export function describeSettings(s: BacktestSettings): string {
  const n = (text: string) => parseAmount(text);
  const parts = [
    `${formatUsd(n(s.balance))} balance`,
    `${formatUsd(n(s.orderVolume))} × ${formatLeverage(n(s.leverage))}`,
  ];
  const exit = (label: string, on: boolean, type: AmountType, amount: string) => {
    if (!on) return;
    const v = n(amount);
    parts.push(`${label} ${type === 'USD' ? formatUsd(v) : formatPercent(v)}`);
  };
  exit('SL', s.enableStopLoss, s.stopLossType, s.stopLossAmount);
  exit('TP', s.enableTakeProfit, s.takeProfitType, s.takeProfitAmount);
  if (s.reverseCopy) parts.push('reverse');
  if (s.volumeProtection && s.lookBackOrders) parts.push(`volume protection ${s.lookBackOrders} orders`);
  if (s.maxVolMultiplier) parts.push(`max ${s.maxVolMultiplier}× volume`);
  if (!s.copyAll) parts.push(`${s.pairs.length} tokens`);
  if (s.copyAll && s.hasExclude) parts.push(`${s.excludingPairs.length} tokens excluded`);
  if (s.side !== 'BOTH') parts.push(`${s.side.toLowerCase()}s only`);
  if (s.skipLowLeverage) parts.push(`skip leverage < ${s.lowLeverage}`);
  if (s.skipLowCollateral) parts.push(`skip collateral < $${s.lowCollateral}`);
  if (s.skipLowSize) parts.push(`skip size < $${s.lowSize}`);
  if (n(s.delaySeconds)) parts.push(`delay ${s.delaySeconds} s`);
  if (n(s.slippageBps)) parts.push(`slippage ${s.slippageBps} bps`);
  parts.push(s.feePercent ? `fee ${s.feePercent}%` : 'venue fee');
  if (!s.funding) parts.push('no funding');
  parts.push(`${s.fromDate} → ${s.toDate}`);
  return parts.join(' · ');
}

/** "Backtest these settings": the copy-trade form's values as backtest settings. */
export function settingsFromCopyForm(v: CopyTradeFormValues, now: number): BacktestSettings {
  const accounts = [v.account.trim(), ...(v.multipleCopy ? v.accounts : [])].filter(Boolean);
  return defaultSettings(now, {
    protocol: v.protocol,
    accounts: [...new Set(accounts)],
    ...(v.volume.trim() && { orderVolume: v.volume.trim() }),
    ...(v.leverage.trim() && { leverage: v.leverage.trim() }),
    reverseCopy: v.reverseCopy,
    copyAll: v.copyAll,
    pairs: v.copyAll ? [] : v.tokenAddresses,
    enableStopLoss: v.enableStopLoss,
    stopLossType: v.stopLossType,
    stopLossAmount: v.stopLossAmount,
    enableTakeProfit: v.enableTakeProfit,
    takeProfitType: v.takeProfitType,
    takeProfitAmount: v.takeProfitAmount,
    volumeProtection: v.volumeProtection,
    lookBackOrders: v.lookBackOrders,
    maxVolMultiplier: v.maxVolMultiplier,
    side: v.side,
    hasExclude: v.copyAll && v.hasExclude,
    excludingPairs: v.copyAll && v.hasExclude ? v.excludingTokenAddresses : [],
    skipLowLeverage: v.skipLowLeverage,
    lowLeverage: v.lowLeverage,
    skipLowCollateral: v.skipLowCollateral,
    lowCollateral: v.lowCollateral,
    skipLowSize: v.skipLowSize,
    lowSize: v.lowSize,
  });
}

/**
 * "Copy with these settings": the copy-trade form's options for these settings. The wallet and
 * title stay the user's to choose; the costs of the backtest (delay, fees) are not copy-trade
 * options.
 */
export function settingsToCopyForm(s: BacktestSettings): Partial<CopyTradeFormValues> & {
  account: string;
  protocol: string;
} {
  const [account = '', ...others] = s.accounts;
  return {
    account,
    protocol: s.protocol,
    multipleCopy: others.length > 0,
    accounts: others,
    volume: s.orderVolume,
    leverage: s.leverage,
    reverseCopy: s.reverseCopy,
    copyAll: s.copyAll,
    tokenAddresses: s.copyAll ? [] : s.pairs,
    enableStopLoss: s.enableStopLoss,
    stopLossType: s.stopLossType,
    stopLossAmount: s.stopLossAmount,
    enableTakeProfit: s.enableTakeProfit,
    takeProfitType: s.takeProfitType,
    takeProfitAmount: s.takeProfitAmount,
    volumeProtection: s.volumeProtection,
    lookBackOrders: s.lookBackOrders,
    maxVolMultiplier: s.maxVolMultiplier,
    side: s.side,
    hasExclude: s.hasExclude,
    excludingTokenAddresses: s.excludingPairs,
    skipLowLeverage: s.skipLowLeverage,
    lowLeverage: s.lowLeverage,
    skipLowCollateral: s.skipLowCollateral,
    lowCollateral: s.lowCollateral,
    skipLowSize: s.skipLowSize,
    lowSize: s.lowSize,
  };
}

/** Traders typed or pasted in one box. */
export const parseAccounts = (text: string): string[] => splitAddresses(text);
