// The replay is written for speed (docs/backtest.md, Speed): exits found through the ranges
// between orders, factors and marks shared per delay and look-back, copies reused. It must still
// answer exactly what the straightforward replay answered before that work (reference-replay.ts),
// on random orders, random paths and random configurations: the same totals, equity curve,
// positions and fills, on the marks path and on the fills path.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PriceSeries } from '../../../../src/service/backtest/price-series';
import {
  filterMask,
  simulate,
  type RunSettings,
  type SimulatedFill,
} from '../../../../src/service/backtest/simulate';
import { traderOf } from '../../../../src/service/backtest/trader-orders';
import type { SourceOrder } from '../../../../src/service/copy-engine/types';
import * as reference from './reference-replay';
import { settings } from './world';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const START = 1_700_000_000_000;
const MINUTES = 3 * 24 * 60;
const ACCOUNT = '0x' + '77'.repeat(20);
const TOKENS = [
  { indexToken: 'BTC', price: 50_000, maxLeverage: 50 },
  { indexToken: 'ETH', price: 3_000, maxLeverage: 25 },
  { indexToken: 'DOGE', price: 0.12, maxLeverage: null },
];

/** A seeded uniform draw. */
function rng(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/** A minute random walk per token (volatile enough to stop, take profit and liquidate), hourly funding. */
function marks(rand: () => number, volatility: number): PriceSeries[] {
  return TOKENS.map(({ price }) => {
    const values = new Float64Array(MINUTES);
    let p = price;
    for (let i = 0; i < MINUTES; i += 1) values[i] = p = p * (1 + (rand() - 0.5) * volatility);
    const funding = new Float64Array(MINUTES / 60 + 1);
    for (let h = 1; h < funding.length; h += 1) funding[h] = funding[h - 1]! + (rand() - 0.4) * 2e-4;
    return new PriceSeries(values, null, START, MINUTE, { index: funding, startMs: START, stepMs: HOUR });
  });
}

/** Orders on the tokens near the walk's prices: opens, increases, decreases, closes, liquidations, margin moves. */
function orders(rand: () => number, series: PriceSeries[]): SourceOrder[] {
  const out: SourceOrder[] = [];
  const open = new Map<number, { isLong: boolean; size: number; collateral: number }>();
  for (
    let time = START + 5 * MINUTE;
    time < START + (MINUTES - 5) * MINUTE;
    // Some orders share a minute (gap 0), most are minutes apart.
    time += Math.floor(rand() * rand() * 60) * MINUTE
  ) {
    const k = Math.floor(rand() * TOKENS.length);
    const price = series[k]!.priceAt(time) * (1 + (rand() - 0.5) * 0.001);
    const base = {
      id: `o${out.length}`,
      account: ACCOUNT,
      protocol: 'TEST',
      indexToken: TOKENS[k]!.indexToken,
    };
    const at = { price, blockTimeMs: time, txHash: `0x${out.length}`, isLiquidate: false };
    const held = open.get(k);
    // Now and then a second OPEN of a held position (OVERWRITE), as a window that starts mid-position gives.
    if (!held || rand() < 0.03) {
      const size = 2_000 + rand() * 40_000;
      const position = { isLong: rand() < 0.55, size, collateral: size / (1.5 + rand() * 30) };
      open.set(k, position);
      out.push({
        ...base,
        ...at,
        isLong: position.isLong,
        type: 'OPEN',
        sizeDeltaUsd: size,
        collateralDeltaUsd: position.collateral,
        sizeBeforeUsd: 0,
        collateralBeforeUsd: 0,
      });
      continue;
    }
    const before = { isLong: held.isLong, sizeBeforeUsd: held.size, collateralBeforeUsd: held.collateral };
    const r = rand();
    if (r < 0.3) {
      const add = 1_000 + rand() * 30_000;
      const margin = add / (2 + rand() * 10);
      out.push({
        ...base,
        ...at,
        ...before,
        type: 'INCREASE',
        sizeDeltaUsd: add,
        collateralDeltaUsd: margin,
      });
      held.size += add;
      held.collateral += margin;
    } else if (r < 0.55) {
      const cut = held.size * (0.1 + rand() * 0.95);
      out.push({ ...base, ...at, ...before, type: 'DECREASE', sizeDeltaUsd: cut, collateralDeltaUsd: 0 });
      held.size = Math.max(0, held.size - cut);
    } else if (r < 0.6) {
      out.push({
        ...base,
        ...at,
        ...before,
        type: 'MARGIN_TRANSFERRED',
        sizeDeltaUsd: 0,
        collateralDeltaUsd: rand() * 500,
      });
    } else {
      out.push({
        ...base,
        ...at,
        ...before,
        isLiquidate: r > 0.96,
        type: 'CLOSE',
        sizeDeltaUsd: held.size,
        collateralDeltaUsd: held.collateral,
      });
      open.delete(k);
    }
  }
  return out;
}

const amountType = fc.constantFrom('PERCENT' as const, 'USD' as const);
const config = fc.record({
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  volatility: fc.constantFrom(0.001, 0.004, 0.012),
  fills: fc.boolean(),
  balance: fc.constantFrom(150, 1_000, 20_000),
  orderVolume: fc.constantFrom(20, 100, 140),
  leverage: fc.integer({ min: 2, max: 50 }),
  reverseCopy: fc.boolean(),
  volumeProtection: fc.boolean(),
  lookBackOrders: fc.integer({ min: 1, max: 30 }),
  maxVolMultiplier: fc.option(fc.constantFrom(0.5, 1, 1.5, 3), { nil: null }),
  stopLoss: fc.option(fc.record({ type: amountType, amount: fc.constantFrom(5, 20, 50, 90) }), { nil: null }),
  takeProfit: fc.option(fc.record({ type: amountType, amount: fc.constantFrom(5, 30, 100, 400) }), {
    nil: null,
  }),
  delayMinutes: fc.constantFrom(0, 0.5, 1, 7, 60, 600),
  slippageBps: fc.constantFrom(0, 5, 40),
  feeRate: fc.constantFrom(0.00035, 0),
  funding: fc.boolean(),
  side: fc.constantFrom('BOTH' as const, 'LONG' as const, 'SHORT' as const),
  fromMinute: fc.integer({ min: 0, max: MINUTES / 2 }),
  span: fc.integer({ min: 60, max: MINUTES }),
});

type Config = typeof config extends fc.Arbitrary<infer T> ? T : never;

function settingsOf(c: Config): RunSettings {
  const base = settings();
  return {
    ...base,
    balance: c.balance,
    orderVolume: c.orderVolume,
    leverage: c.leverage,
    reverseCopy: c.reverseCopy,
    volumeProtection: c.volumeProtection,
    lookBackOrders: c.lookBackOrders,
    maxVolMultiplier: c.maxVolMultiplier,
    exits: {
      enableStopLoss: c.stopLoss !== null,
      stopLossType: c.stopLoss?.type ?? 'PERCENT',
      // A USD stop is at most the order volume, as the copy trade's rule has it.
      stopLossAmount:
        c.stopLoss === null
          ? null
          : c.stopLoss.type === 'USD'
            ? Math.min(c.stopLoss.amount, c.orderVolume)
            : c.stopLoss.amount,
      enableTakeProfit: c.takeProfit !== null,
      takeProfitType: c.takeProfit?.type ?? 'PERCENT',
      takeProfitAmount: c.takeProfit?.amount ?? null,
    },
    filters: { ...base.filters, trade: { ...base.filters.trade, side: c.side } },
    delayMs: c.delayMinutes * MINUTE,
    slippage: c.slippageBps / 10_000,
    fees: { taker: c.feeRate, service: 0.00025 },
    funding: c.funding,
    fromTime: START + c.fromMinute * MINUTE,
    toTime: START + Math.min(MINUTES, c.fromMinute + c.span) * MINUTE,
  };
}

/** Both replays of one configuration, with their fills. */
function both(c: Config) {
  const rand = rng(c.seed);
  const series = marks(rand, c.volatility);
  const trader = traderOf(ACCOUNT, 'TEST', orders(rand, series), (indexToken) => {
    const token = TOKENS.find((t) => t.indexToken === indexToken)!;
    return { indexToken, pair: `${indexToken}/USD`, maxLeverage: token.maxLeverage };
  });
  const paths = c.fills
    ? { kind: 'fills' as const, series: trader.fills }
    : { kind: 'marks' as const, series };
  const s = settingsOf(c);
  const mask = filterMask(trader, s.filters);
  const fast: SimulatedFill[] = [];
  const slow: SimulatedFill[] = [];
  // The fields a fill is declared to have (the reference's carried its result object's extras too).
  const fill = (f: SimulatedFill): SimulatedFill => ({
    time: f.time,
    indexToken: f.indexToken,
    isLong: f.isLong,
    kind: f.kind,
    price: f.price,
    notional: f.notional,
    fee: f.fee,
    realised: f.realised,
  });
  const got = simulate(trader, paths, s, mask, 'positions', (f) => fast.push(fill(f)));
  const want = reference.simulate(trader, paths, s, mask, 'positions', (f) => slow.push(fill(f)));
  return { got, want, fast, slow, orders: trader.n };
}

describe('the replay against the straightforward replay it replaced', () => {
  it('gives the same totals, equity, positions and fills on random configurations', () => {
    const seen = { stops: 0, takes: 0, liquidations: 0, skipped: 0, overwrites: 0, positions: 0 };
    fc.assert(
      fc.property(config, (c) => {
        const { got, want, fast, slow } = both(c);
        expect(got.totals).toEqual(want.totals);
        expect(got.equity).toEqual(want.equity);
        expect(got.positions).toEqual(want.positions);
        expect(fast).toEqual(slow);
        seen.stops += want.totals.totalStopLoss;
        seen.takes += want.totals.totalTakeProfit;
        seen.liquidations += want.totals.totalLiquidate;
        seen.skipped += want.totals.totalSkipped;
        seen.overwrites += want.positions!.filter((p) => p.closeReason === 'OVERWRITE').length;
        seen.positions += want.totals.totalTrade;
      }),
      { numRuns: 120, seed: 16 },
    );
    // The configurations exercised every exit and refusal, so the comparison covered them.
    for (const [what, count] of Object.entries(seen)) expect(count, what).toBeGreaterThan(0);
  });
});
