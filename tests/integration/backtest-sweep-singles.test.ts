// A sweep shares work between its configurations (the filters' verdicts, the marks after each
// delay); its answer must still be, field for field, what a single run of each configuration
// answers (docs/backtest.md, Speed).
import { describe, expect, it } from 'vitest';
import { PriceSeries } from '../../src/service/backtest/price-series';
import { filterMask, simulate, type PricePaths } from '../../src/service/backtest/simulate';
import { filtersOf, runSettingsOf } from '../../src/service/backtest/settings';
import { traderOf } from '../../src/service/backtest/stored-orders';
import { summaryOf } from '../../src/service/backtest/summary';
import { configurationsOf, scoreOf, sweepJobs } from '../../src/service/backtest/sweep-runs';
import type { SourceOrder } from '../../src/service/copy-engine/types';
import { sweepRequestSchema, type SweepRequest } from '../../src/shared/api/backtest';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const START = 1_700_000_000_000;
const MINUTES = 20 * 24 * 60;
const ACCOUNT = '0x' + '44'.repeat(20);
const TOKENS = [
  { indexToken: 'BTC', price: 50_000 },
  { indexToken: 'ETH', price: 3_000 },
];

/** A seeded uniform draw. */
function rng(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

/** A minute random walk per token with an hourly cumulative funding rate: the marks path. */
function marks(rand: () => number): PriceSeries[] {
  return TOKENS.map(({ price }) => {
    const values = new Float64Array(MINUTES);
    let p = price;
    for (let i = 0; i < MINUTES; i += 1) values[i] = p = p * (1 + (rand() - 0.5) * 0.004);
    const funding = new Float64Array(MINUTES / 60 + 1);
    for (let h = 1; h < funding.length; h += 1) funding[h] = funding[h - 1]! + (rand() - 0.4) * 1e-4;
    return new PriceSeries(values, null, START, MINUTE, { index: funding, startMs: START, stepMs: HOUR });
  });
}

/** Orders on both tokens at (near) the walk's prices: opens, increases, decreases, closes, a liquidation. */
function orders(rand: () => number, series: PriceSeries[]): SourceOrder[] {
  const out: SourceOrder[] = [];
  const open = new Map<number, { isLong: boolean; size: number; collateral: number }>();
  for (
    let time = START + 30 * MINUTE;
    time < START + (MINUTES - 30) * MINUTE;
    time += Math.floor(rand() * 90) * MINUTE + MINUTE
  ) {
    const k = rand() < 0.5 ? 0 : 1;
    const price = series[k]!.priceAt(time) * (1 + (rand() - 0.5) * 0.001);
    const base = {
      id: `o${out.length}`,
      account: ACCOUNT,
      protocol: 'TEST',
      indexToken: TOKENS[k]!.indexToken,
    };
    const at = { price, blockTimeMs: time, txHash: `0x${out.length}`, isLiquidate: false };
    const held = open.get(k);
    if (!held) {
      const size = 5_000 + rand() * 40_000;
      const position = { isLong: rand() < 0.55, size, collateral: size / (2 + rand() * 20) };
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
      const add = 2_000 + rand() * 20_000;
      out.push({
        ...base,
        ...at,
        ...before,
        type: 'INCREASE',
        sizeDeltaUsd: add,
        collateralDeltaUsd: add / 8,
      });
      held.size += add;
      held.collateral += add / 8;
    } else if (r < 0.55) {
      const cut = held.size * (0.2 + rand() * 0.6);
      out.push({ ...base, ...at, ...before, type: 'DECREASE', sizeDeltaUsd: cut, collateralDeltaUsd: 0 });
      held.size -= cut;
    } else {
      out.push({
        ...base,
        ...at,
        ...before,
        isLiquidate: r > 0.97,
        type: 'CLOSE',
        sizeDeltaUsd: held.size,
        collateralDeltaUsd: held.collateral,
      });
      open.delete(k);
    }
  }
  return out;
}

const rand = rng(2_024);
const series = marks(rand);
const trader = traderOf(ACCOUNT, 'TEST', orders(rand, series), (indexToken) => ({
  indexToken,
  pair: `${indexToken}/USD`,
  maxLeverage: indexToken === 'ETH' ? 25 : 50,
}));

/** Sweeps `body` on this thread and checks every item against a single run of its settings. */
async function expectSweepEqualsSingles(body: SweepRequest, paths: PricePaths) {
  const filters = filtersOf(body, []);
  const window = { fromTime: body.fromTime!, toTime: body.toTime! };
  const configs = configurationsOf(body);
  const prepared = { trader, paths, mask: filterMask(trader, filters) };
  const items = await sweepJobs([], { body, filters, window, configs, rankBy: 'roi' }, [prepared]);
  expect(items).toHaveLength(configs.length);
  let stops = 0;
  let takes = 0;
  let liquidations = 0;
  for (const item of items) {
    const s = runSettingsOf(body, item.settings, filters, window);
    const run = simulate(trader, paths, s, filterMask(trader, filters), 'positions');
    const summary = summaryOf(ACCOUNT, 'TEST', s.balance, run.totals, paths.kind);
    expect(item).toEqual({
      ...summary,
      rank: item.rank,
      settings: item.settings,
      score: scoreOf('roi', summary.roi, summary.maxDrawDown),
    });
    stops += summary.totalStopLoss;
    takes += summary.totalTakeProfit;
    liquidations += summary.totalLiquidate;
  }
  // The sweep exercised what it shares: different delays and exits gave different answers.
  expect(new Set(items.map((i) => i.roi)).size).toBeGreaterThan(configs.length / 3);
  return { stops, takes, liquidations };
}

describe('a sweep answers what single runs answer', () => {
  const common = {
    accounts: [ACCOUNT],
    balance: 3_000,
    fromTime: START + 2 * HOUR,
    toTime: START + (MINUTES - 60) * MINUTE,
    leverage: [3, 20, 50],
    delaySeconds: [0, 45, 600, 7_200],
    slippageBps: 4,
  };

  it('on the marks path with funding, PERCENT exits, maxVolMultiplier and look-back', async () => {
    const body = sweepRequestSchema.parse({
      ...common,
      enableStopLoss: true,
      stopLossType: 'PERCENT',
      stopLossAmount: [15, 60],
      enableTakeProfit: true,
      takeProfitType: 'PERCENT',
      takeProfitAmount: [30, 150],
      maxVolMultiplier: [1.5, 4],
      lookBackOrders: [1, 10],
    });
    const counts = await expectSweepEqualsSingles(body, { kind: 'marks', series });
    expect(counts.stops).toBeGreaterThan(0);
    expect(counts.takes).toBeGreaterThan(0);
  });

  it('on the fills path, a USD take profit, liquidations, reverse copy and a small balance', async () => {
    const body = sweepRequestSchema.parse({
      ...common,
      balance: 150,
      orderVolume: [60, 100],
      enableTakeProfit: true,
      takeProfitType: 'USD',
      takeProfitAmount: [10, 40, 60],
      reverseCopy: [false, true],
    });
    const counts = await expectSweepEqualsSingles(body, { kind: 'fills', series: trader.fills });
    expect(counts.takes).toBeGreaterThan(0);
    expect(counts.liquidations).toBeGreaterThan(0);
  });
});
