// A small backtest world for the rule scenarios: source orders written by hand, mark paths written
// by hand, the copy settings of docs/backtest.md's examples.
import { PriceSeries } from '../../../../src/service/backtest/price-series';
import { filterMask, simulate, type RunSettings } from '../../../../src/service/backtest/simulate';
import { traderOf } from '../../../../src/service/backtest/stored-orders';
import type { SourceOrder } from '../../../../src/service/copy-engine/types';

export const BTC = 'BTC-TOKEN';
export const ETH = 'ETH-TOKEN';
export const MIN = 60_000;
export const TRADER = '0x' + '42'.repeat(20);

/** A source order at minute `minute`; sizes in USD as the Order resource has them. */
export function order(
  type: SourceOrder['type'],
  minute: number,
  price: number,
  patch: Partial<SourceOrder> = {},
): SourceOrder {
  return {
    id: `${type}-${minute}-${price}`,
    account: TRADER,
    protocol: 'TEST',
    indexToken: BTC,
    isLong: true,
    type,
    sizeDeltaUsd: 20_000,
    collateralDeltaUsd: 2_000,
    sizeBeforeUsd: type === 'OPEN' ? 0 : 20_000,
    collateralBeforeUsd: type === 'OPEN' ? 0 : 2_000,
    price,
    blockTimeMs: minute * MIN,
    txHash: `0x${minute}`,
    isLiquidate: false,
    ...patch,
  };
}

/** Settings: balance 1,000, volume 100 at 10×, no protection, no exits, no costs beyond the default fees. */
export function settings(patch: Partial<RunSettings> = {}): RunSettings {
  return {
    balance: 1_000,
    orderVolume: 100,
    leverage: 10,
    reverseCopy: false,
    volumeProtection: false,
    lookBackOrders: 10,
    maxVolMultiplier: null,
    exits: {
      enableStopLoss: false,
      stopLossType: 'PERCENT',
      stopLossAmount: null,
      enableTakeProfit: false,
      takeProfitType: 'PERCENT',
      takeProfitAmount: null,
    },
    filters: {
      trade: {
        copyAll: true,
        hasExclude: false,
        side: 'BOTH',
        skipLowLeverage: false,
        lowLeverage: null,
        skipLowCollateral: false,
        lowCollateral: null,
        skipLowSize: false,
        lowSize: null,
      },
      tokens: new Set(),
      excluded: new Set(),
    },
    delayMs: 0,
    slippage: 0,
    fees: { taker: 0.00035, service: 0.00025 },
    funding: false,
    fromTime: 0,
    toTime: 10_000 * MIN,
    ...patch,
  };
}

/** A mark path of one point per minute from minute 0, `prices[i]` at minute i. */
export const minutes = (prices: number[], funding?: number[]) =>
  new PriceSeries(
    Float64Array.from(prices),
    null,
    0,
    MIN,
    funding ? { index: Float64Array.from(funding), startMs: 0, stepMs: MIN } : null,
  );

/**
 * Runs `orders` under `s`: on the given mark paths (by token), or, without them, on the
 * trader's own fills. Returns the run and its positions.
 */
export function run(orders: SourceOrder[], s: RunSettings, marks?: Record<string, PriceSeries>) {
  const trader = traderOf(TRADER, 'TEST', orders, (indexToken) => ({
    indexToken,
    pair: `${indexToken}/USD`,
    maxLeverage: indexToken === ETH ? 20 : 50,
  }));
  const paths = marks
    ? { kind: 'marks' as const, series: trader.tokens.map((t) => marks[t.indexToken]!) }
    : { kind: 'fills' as const, series: trader.fills };
  const result = simulate(trader, paths, s, filterMask(trader, s.filters), 'positions');
  return { ...result, positions: result.positions! };
}
