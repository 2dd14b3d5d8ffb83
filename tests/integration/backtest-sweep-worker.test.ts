// The sweep's worker thread computes what the main thread computes, and a large sweep is split
// between the worker threads (docs/backtest.md, Speed).
import { afterAll, describe, expect, it } from 'vitest';
import { SweepPool } from '../../src/service/backtest/sweep-pool';
import {
  allJobs,
  configurationsOf,
  dataOf,
  PARALLEL_WORK,
  runJobs,
  sweepJobs,
} from '../../src/service/backtest/sweep-runs';
import { filterMask } from '../../src/service/backtest/simulate';
import { filtersOf } from '../../src/service/backtest/settings';
import { traderOf } from '../../src/service/backtest/stored-orders';
import type { SourceOrder } from '../../src/service/copy-engine/types';
import { sweepRequestSchema } from '../../src/shared/api/backtest';

const pool = new SweepPool();
afterAll(() => pool.close());

/** A trader alternating long and short positions of BTC on a wave of prices. */
function orders(count: number): SourceOrder[] {
  const out: SourceOrder[] = [];
  for (let i = 0; out.length < count; i += 1) {
    const price = 50_000 * (1 + 0.08 * Math.sin(i / 7));
    const open = i % 2 === 0;
    out.push({
      id: `w-${i}`,
      account: '0x' + '33'.repeat(20),
      protocol: 'TEST',
      indexToken: 'BTC',
      isLong: Math.floor(i / 2) % 3 !== 0,
      type: open ? 'OPEN' : 'CLOSE',
      sizeDeltaUsd: 10_000,
      collateralDeltaUsd: 1_000,
      sizeBeforeUsd: open ? 0 : 10_000,
      collateralBeforeUsd: open ? 0 : 1_000,
      price,
      blockTimeMs: 1_000_000 + i * 600_000,
      txHash: `0x${i}`,
      isLiquidate: false,
    });
  }
  return out;
}

describe('the sweep worker', () => {
  const body = sweepRequestSchema.parse({
    accounts: ['0x' + '33'.repeat(20)],
    fromTime: 0,
    toTime: 10_000_000_000,
    leverage: [2, 5, 10, 20, 50],
    delaySeconds: [0, 600, 1_200, 3_600],
    enableStopLoss: true,
    stopLossAmount: [10, 30, 60],
    stopLossType: 'PERCENT',
  });
  const filters = filtersOf(body, []);
  const trader = traderOf(body.accounts[0]!, 'TEST', orders(2_000), (indexToken) => ({
    indexToken,
    pair: `${indexToken}/USD`,
    maxLeverage: 50,
  }));
  const prepared = {
    trader,
    paths: { kind: 'fills' as const, series: trader.fills },
    mask: filterMask(trader, filters),
  };
  const configs = configurationsOf(body);
  const window = { fromTime: 0, toTime: 10_000_000_000 };

  it('answers a share of the jobs exactly as this thread runs them', async () => {
    expect(configs).toHaveLength(60);
    const task = {
      body,
      filters,
      window,
      configs,
      rankBy: 'roi' as const,
      traders: [dataOf(prepared)],
      jobs: [40, 10, 11, 12, 13, 30, 31, 59, 0],
    };
    const there = await pool.run(task);
    const here = runJobs([prepared], body, filters, window, configs, 'roi', task.jobs);
    expect(there).toEqual(here);
    expect(here.map((item) => item.settings)).toEqual(task.jobs.map((j) => configs[j]));
    expect(new Set(here.map((item) => item.roi)).size).toBeGreaterThan(5);
  });

  it('splits a large sweep between the workers and ranks the union like a sweep run here', async () => {
    // 60 configurations × 2,000 orders is under the threshold; 20 copies of the trader are over it.
    const traders = Array.from({ length: 20 }, () => prepared);
    expect(traders.length * configs.length * trader.n).toBeGreaterThanOrEqual(PARALLEL_WORK);
    // The workers' answers, seen on their way back (a failed worker would leave its share to this thread).
    let workerItems = 0;
    const viaWorker = {
      run: async (task: Parameters<SweepPool['run']>[0]) => {
        const items = await pool.run(task);
        workerItems += items.length;
        return items;
      },
    } as SweepPool;
    const shared = await sweepJobs(
      [viaWorker, viaWorker],
      { body, filters, window, configs, rankBy: 'roi' },
      traders,
    );
    expect(workerItems).toBe(1_200);
    const alone = runJobs(
      traders,
      body,
      filters,
      window,
      configs,
      'roi',
      allJobs(traders.length * configs.length),
    );
    expect(shared).toHaveLength(1_200);
    expect([...shared.map((i) => i.roi)].sort((a, b) => a - b)).toEqual(
      [...alone.map((i) => i.roi)].sort((a, b) => a - b),
    );
    expect(shared.map((i) => i.rank)).toEqual(Array.from({ length: 1_200 }, (_, i) => i + 1));
    // Item for item, ranks and ties included, what the sweep answers on this thread alone.
    expect(shared).toEqual(await sweepJobs([], { body, filters, window, configs, rankBy: 'roi' }, traders));
  });
});
