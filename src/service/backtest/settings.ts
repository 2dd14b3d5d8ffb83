// A backtest body resolved into run settings: defaults applied, the window fixed, pairs turned
// into the protocol's tokens (docs/backtest.md, API).
import {
  BACKTEST_DEFAULTS,
  type BacktestRequest,
  type SweepRequest,
  type SweepSettings,
} from '../../shared/api/backtest';
import { COPY_TRADE_DEFAULTS } from '../../shared/api/copy-trades';
import { DEFAULT_COPY_FEES } from '../copy-engine/fills';
import type { FilterSubject } from '../copy-engine/filters';
import { addressKey } from '../copy-engine/ids';
import { DEFAULT_LOOK_BACK_ORDERS } from '../copy-engine/sizing';
import { ServiceError } from '../http/errors';
import type { RunSettings } from './simulate';

const DAY_MS = 86_400_000;

/** The settings a sweep varies; a multiple-order body has one value of each. */
export type SweptValues = SweepSettings;

/** A protocol's token as a `pairs` entry may name it. */
export interface ListedToken {
  symbol: string;
  indexToken: string;
}

/** The default window: the 30 days before today (00:00 UTC), like the D30 statistics. */
export function windowOf(
  body: { fromTime?: number | undefined; toTime?: number | undefined },
  nowMs: number,
) {
  const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
  const toTime = body.toTime ?? today;
  const fromTime = body.fromTime ?? toTime - BACKTEST_DEFAULTS.windowDays * DAY_MS;
  if (!(fromTime < toTime))
    throw new ServiceError(
      'VALIDATION_FAILED',
      'body.fromTime must be before toTime (toTime defaults to today 00:00 UTC)',
    );
  return { fromTime, toTime };
}

/** `pairs` entries (pair, symbol or index token) as the index tokens' address keys; a 400 names an unknown one. */
function tokenKeys(field: string, entries: readonly string[] | undefined, listed: readonly ListedToken[]) {
  const keys = new Set<string>();
  (entries ?? []).forEach((entry, i) => {
    const wanted = addressKey(entry.trim());
    const symbol = entry
      .trim()
      .toUpperCase()
      .replace(/[/-]USDT?$/, '');
    const token = listed.find(
      (t) => t.symbol.toUpperCase() === symbol || addressKey(t.indexToken) === wanted,
    );
    if (!token)
      throw new ServiceError(
        'VALIDATION_FAILED',
        `body.${field}[${i}] ${JSON.stringify(entry.slice(0, 60))} is not a token of this protocol`,
      );
    keys.add(addressKey(token.indexToken));
  });
  return keys;
}

/** The filters of a body, under the live filters' names. */
export function filtersOf(
  body: BacktestRequest | SweepRequest,
  listed: readonly ListedToken[],
): FilterSubject {
  const d = COPY_TRADE_DEFAULTS;
  return {
    trade: {
      copyAll: body.copyAll ?? d.copyAll,
      hasExclude: body.hasExclude ?? d.hasExclude,
      side: body.side ?? d.side,
      skipLowLeverage: body.skipLowLeverage ?? d.skipLowLeverage,
      lowLeverage: body.lowLeverage ?? null,
      skipLowCollateral: body.skipLowCollateral ?? d.skipLowCollateral,
      lowCollateral: body.lowCollateral ?? null,
      skipLowSize: body.skipLowSize ?? d.skipLowSize,
      lowSize: body.lowSize ?? null,
    },
    tokens: tokenKeys('pairs', body.pairs, listed),
    excluded: tokenKeys('excludingPairs', body.excludingPairs, listed),
  };
}

/** The swept values of a multiple-order body, defaults applied. */
export function sweptOf(body: BacktestRequest): SweptValues {
  return {
    leverage: body.leverage ?? BACKTEST_DEFAULTS.leverage,
    orderVolume: body.orderVolume ?? BACKTEST_DEFAULTS.orderVolume,
    stopLossAmount: body.stopLossAmount ?? null,
    takeProfitAmount: body.takeProfitAmount ?? null,
    lookBackOrders: body.lookBackOrders ?? null,
    maxVolMultiplier: body.maxVolMultiplier ?? null,
    reverseCopy: body.reverseCopy ?? COPY_TRADE_DEFAULTS.reverseCopy,
    delaySeconds: body.delaySeconds ?? BACKTEST_DEFAULTS.delaySeconds,
  };
}

/** Run settings of one configuration: the body's fixed settings with `v`'s swept ones. */
export function runSettingsOf(
  body: BacktestRequest | SweepRequest,
  v: SweptValues,
  filters: FilterSubject,
  window: { fromTime: number; toTime: number },
): RunSettings {
  const d = COPY_TRADE_DEFAULTS;
  return {
    balance: body.balance ?? BACKTEST_DEFAULTS.balance,
    orderVolume: v.orderVolume,
    leverage: v.leverage,
    reverseCopy: v.reverseCopy,
    volumeProtection: body.volumeProtection ?? d.volumeProtection,
    lookBackOrders: v.lookBackOrders ?? DEFAULT_LOOK_BACK_ORDERS,
    maxVolMultiplier: v.maxVolMultiplier,
    exits: {
      enableStopLoss: (body.enableStopLoss ?? d.enableStopLoss) && v.stopLossAmount !== null,
      stopLossType: body.stopLossType ?? d.stopLossType,
      stopLossAmount: v.stopLossAmount,
      enableTakeProfit: (body.enableTakeProfit ?? d.enableTakeProfit) && v.takeProfitAmount !== null,
      takeProfitType: body.takeProfitType ?? d.takeProfitType,
      takeProfitAmount: v.takeProfitAmount,
    },
    filters,
    delayMs: v.delaySeconds * 1000,
    slippage: (body.slippageBps ?? BACKTEST_DEFAULTS.slippageBps) / 10_000,
    fees: { taker: body.feeRate ?? DEFAULT_COPY_FEES.taker, service: DEFAULT_COPY_FEES.service },
    funding: body.funding ?? BACKTEST_DEFAULTS.funding,
    fromTime: window.fromTime,
    toTime: window.toTime,
  };
}
