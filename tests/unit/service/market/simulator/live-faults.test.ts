// Issue 15, item 2: a live market tick that fails (a busy or full store) is retried with backoff
// and reported as the service's market state, never a silent stop; a catch-up at start that meets
// an order it cannot copy skips it with a log line instead of refusing to start.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServiceConfig } from '../../../../../src/service/config';
import { catchUpSourceOrders } from '../../../../../src/service/copy-engine/market-orders';
import type { CopyEvent, SourceOrder } from '../../../../../src/service/copy-engine/types';
import { startLiveMarket } from '../../../../../src/service/market/simulator/live';
import type { CopyEnginePort } from '../../../../../src/service/sandbox/engine-port';
import type { LiveStatistics } from '../../../../../src/service/statistics/compute/live-statistics';
import { openServiceDatabase } from '../../../../../src/service/store/database';
import { startLiveWorld } from '../../../../../src/service/preparation/demo-world';
import { startTestService } from '../../../../support/service';

const NOW = Date.UTC(2026, 2, 15, 9, 30);
const statistics = { traderChanged: () => {}, refreshRankings: () => {} } as unknown as LiveStatistics;
const busy = () => Object.assign(new Error('SQLITE_BUSY: database is locked'), { code: 'SQLITE_BUSY' });

afterEach(() => {
  vi.useRealTimers();
});

describe('the live market under faults', () => {
  it('retries a failing tick with backoff, reports it in health, and recovers', () => {
    vi.useFakeTimers({ now: NOW });
    const db = openServiceDatabase(':memory:');
    const config = { now: () => new Date(Date.now()) } as unknown as ServiceConfig;
    let failPrices = 2;
    let priceCalls = 0;
    const engine: CopyEnginePort = {
      processSourceOrder: () => [],
      processPrices: () => {
        priceCalls += 1;
        if (failPrices > 0) {
          failPrices -= 1;
          throw busy();
        }
        return [];
      },
    };
    const lines: string[] = [];
    const live = startLiveWorld(db, config, {
      statistics,
      engine,
      onEvents: () => {},
      tickMs: 1_000,
      maxRetryMs: 60_000,
      log: (line) => lines.push(line),
    });
    try {
      expect(live.health()).toEqual({ market: 'running' });
      vi.advanceTimersByTime(1_000); // first tick fails: next try in 2 s
      expect(live.health()).toMatchObject({
        market: 'retrying',
        failures: 1,
        lastError: 'SQLITE_BUSY: database is locked',
        retryInMs: 2_000,
      });
      vi.advanceTimersByTime(1_999);
      expect(priceCalls).toBe(1);
      vi.advanceTimersByTime(1); // second fails: 4 s
      expect(live.health()).toMatchObject({ market: 'retrying', failures: 2, retryInMs: 4_000 });
      vi.advanceTimersByTime(4_000); // third succeeds
      expect(live.health()).toEqual({ market: 'running' });
      vi.advanceTimersByTime(3_000); // and it ticks every second again
      expect(priceCalls).toBe(6);
      expect(lines.join('\n')).toMatch(
        /a live market tick failed \(1 in a row\), next try in 2000 ms: SQLITE_BUSY/,
      );
      expect(lines.join('\n')).toMatch(/the live market runs again after 2 failed ticks/);
    } finally {
      live.stop();
    }
  });

  it('copies again an order whose copy failed, once the store answers', () => {
    vi.useFakeTimers({ now: NOW });
    const db = openServiceDatabase(':memory:');
    const config = { now: () => new Date(Date.now()) } as unknown as ServiceConfig;
    const tries: string[] = [];
    const copied: string[] = [];
    let failNext = true;
    const engine: CopyEnginePort = {
      processSourceOrder: (order: SourceOrder) => {
        tries.push(order.id);
        if (failNext) {
          failNext = false;
          throw busy();
        }
        copied.push(order.id);
        return [];
      },
      processPrices: () => [],
    };
    const live = startLiveWorld(db, config, { statistics, engine, onEvents: () => {}, log: () => {} });
    try {
      for (let i = 0; i < 30 && tries.length === 0; i += 1) vi.advanceTimersByTime(1_000);
      expect(tries).toHaveLength(1);
      const first = tries[0]!;
      expect(live.health()).toMatchObject({ market: 'retrying', failures: 1 });
      vi.advanceTimersByTime(2_000);
      expect(live.health()).toEqual({ market: 'running' });
      expect(copied[0]).toBe(first); // tried again before anything else
    } finally {
      live.stop();
    }
  });

  it('the market alone keeps ticking after a failing tick (no onError given)', () => {
    vi.useFakeTimers({ now: NOW });
    const db = openServiceDatabase(':memory:');
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    let calls = 0;
    const market = startLiveMarket(db, {
      seed: 3,
      nowMs: () => Date.now(),
      onEvent: (event) => {
        if (event.kind === 'prices' && (calls += 1) === 1) throw busy();
      },
    });
    try {
      vi.advanceTimersByTime(1_000 + 2_000 + 1_000);
      expect(calls).toBe(3);
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      market.stop();
      spy.mockRestore();
    }
  });
});

describe('catch-up at start', () => {
  it('skips an order it cannot copy with a log line, and copies the others', () => {
    const db = openServiceDatabase(':memory:');
    const market = startLiveMarket(db, { seed: 4, nowMs: () => NOW, timer: false });
    for (let i = 1; i <= 40; i += 1) market.step(NOW + i * 1_000);
    market.stop();
    const orders = db
      .prepare('SELECT id, account, protocol FROM orders ORDER BY block_time_ms, id')
      .all() as {
      id: string;
      account: string;
      protocol: string;
    }[];
    expect(orders.length).toBeGreaterThan(5);
    // The first order was copied before the crash; the rest were committed but never copied.
    db.prepare(
      'INSERT INTO copy_source_orders (id, account, protocol, processed_at_ms) VALUES (?, ?, ?, ?)',
    ).run(orders[0]!.id, orders[0]!.account, orders[0]!.protocol, NOW);
    const bad = orders[2]!.id;
    const seen: string[] = [];
    const engine: CopyEnginePort = {
      processSourceOrder: (order): CopyEvent[] => {
        seen.push(order.id);
        if (order.id === bad) throw new Error('SQLITE_FULL: database or disk is full');
        return [];
      },
      processPrices: () => [],
    };
    const lines: string[] = [];
    expect(() => catchUpSourceOrders(db, engine, (line) => lines.push(line))).not.toThrow();
    expect(lines).toEqual([`catch-up skipped source order ${bad}: SQLITE_FULL: database or disk is full`]);
    expect(seen).toContain(orders.at(-1)!.id);
    expect(seen.length).toBe(orders.length - 1);
  });
});

describe('GET /health', () => {
  it("carries the live market's state when the market runs, and only the status without it", async () => {
    const moving = await startTestService({ seedFixture: true, live: true });
    const still = await startTestService({ seedFixture: false });
    try {
      expect(await (await fetch(`${moving.url}/health`)).json()).toEqual({ status: 'ok', market: 'running' });
      expect(await (await fetch(`${still.url}/health`)).json()).toEqual({ status: 'ok' });
    } finally {
      await moving.close();
      await still.close();
    }
  });
});
