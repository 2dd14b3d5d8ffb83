// The live market over a small demo world, driven by step() (and once by fake timers): no test
// sleeps. Under faults (issue 15, item 2): a tick that fails (a busy or full store) is retried with
// backoff and reported as the service's market state, never a silent stop; a catch-up at start that
// meets an order it cannot copy skips it with a log line instead of refusing to start.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServiceConfig } from '../../../../../src/service/config';
import { catchUpSourceOrders } from '../../../../../src/service/copy-engine/market-orders';
import type { CopyEvent, SourceOrder } from '../../../../../src/service/copy-engine/types';
import { knownProtocols } from '../../../../../src/service/market/catalogue';
import { startLiveMarket, type LiveEvent } from '../../../../../src/service/market/simulator/live';
import { seedDemoWorld } from '../../../../../src/service/market/simulator/seed-demo';
import { startLiveWorld } from '../../../../../src/service/preparation/demo-world';
import type { CopyEnginePort } from '../../../../../src/service/sandbox/engine-port';
import type { LiveStatistics } from '../../../../../src/service/statistics/compute/live-statistics';
import { openServiceDatabase, type ServiceDb } from '../../../../../src/service/store/database';
import { positionViolations } from './identities';
import { expectAll } from '../../../../support/expect-all';
import { startTestService } from '../../../../support/service';

const NOW = Date.UTC(2026, 2, 15, 9, 30);
const statistics = { traderChanged: () => {}, refreshRankings: () => {} } as unknown as LiveStatistics;
const busy = () => Object.assign(new Error('SQLITE_BUSY: database is locked'), { code: 'SQLITE_BUSY' });

/** A store with a small world (80 traders, 10 days) and no statistics: the live market needs none. */
function store(): ServiceDb {
  const db = openServiceDatabase(':memory:');
  seedDemoWorld(db, { seed: 5, nowMs: NOW, traders: 80, days: 10, skipStatistics: true });
  return db;
}

/** Runs `ticks` one-second steps after NOW and returns every event. */
function run(
  db: ServiceDb,
  ticks: number,
  options: { pace?: number; onEvent?: (e: LiveEvent) => void } = {},
) {
  const market = startLiveMarket(db, { seed: 9, nowMs: () => NOW, timer: false, ...options });
  const events: LiveEvent[] = [];
  for (let i = 1; i <= ticks; i += 1) events.push(...market.step(NOW + i * 1_000));
  market.stop();
  return events;
}

const orders = (events: LiveEvent[]) => events.flatMap((e) => (e.kind === 'order' ? [e] : []));

afterEach(() => vi.useRealTimers());

describe('the live market', () => {
  it('moves every token every tick and writes the mark prices', () => {
    const db = store();
    const events = run(db, 5);
    const prices = events.flatMap((e) => (e.kind === 'prices' ? [e] : []));
    expect(prices).toHaveLength(5);
    const tokens = db.prepare('SELECT COUNT(*) FROM tokens').pluck().get();
    expect(prices[4]?.prices).toHaveLength(tokens as number);
    expectAll(prices[4]?.prices ?? [], (p) => p.price > 0 && p.timeMs === NOW + 5_000);
    expect(prices[0]?.prices[0]?.price).not.toBe(prices[4]?.prices[0]?.price);
    const stored = db.prepare('SELECT price FROM mark_prices WHERE index_token = ?').pluck();
    for (const p of prices[4]?.prices ?? []) expect(stored.get(p.indexToken)).toBe(p.price);
  });

  it('has traders open, change and close positions, each committed before its event', () => {
    const db = store();
    const committed: boolean[] = [];
    const find = db.prepare('SELECT 1 FROM orders WHERE id = ?');
    const events = run(db, 200, {
      onEvent: (e) => {
        if (e.kind === 'order') committed.push(find.get(e.order.id) !== undefined);
      },
    });
    const types = new Set(orders(events).map((e) => e.order.type));
    expect([...types].sort()).toEqual(['CLOSE', 'DECREASE', 'INCREASE', 'MARGIN_TRANSFERRED', 'OPEN']);
    expect(committed.length).toBeGreaterThan(300);
    expectAll(committed, Boolean);
    const closed = events.filter((e) => e.kind === 'positionClosed');
    const closes = orders(events).filter((e) => e.order.type === 'CLOSE');
    expect(closed.length).toBe(closes.length);
    expect(closed[0]).toMatchObject({
      account: closes[0]?.position.account,
      protocol: closes[0]?.position.protocol,
    });
    expect(new Set(orders(events).map((e) => e.order.protocol)).size).toBe(knownProtocols().length);
    expect(positionViolations(db)).toEqual([]);
  });

  it('liquidates positions whose price is crossed, at −collateral', () => {
    const db = store();
    // An hour of market per tick: in two hundred ticks some levered positions go under.
    const liquidations = orders(run(db, 200, { pace: 3_600 })).filter((e) => e.position.is_liquidate === 1);
    expect(liquidations.length).toBeGreaterThan(0);
    for (const e of liquidations) {
      expect(e.order.type).toBe('CLOSE');
      expect(e.position.realised_pnl).toBeCloseTo(-e.position.collateral, 6);
    }
    expect(positionViolations(db)).toEqual([]);
  });

  it('has the traders who opened more in the last week open more live', () => {
    const db = store();
    const recent = db
      .prepare(
        `SELECT protocol || ' ' || account AS trader, SUM(open_time_ms >= ?) AS opens FROM positions
         GROUP BY protocol, account`,
      )
      .all(NOW - 7 * 24 * 3_600_000) as { trader: string; opens: number }[];
    const liveOpens = new Map<string, number>();
    for (const { order } of orders(run(db, 1_500))) {
      if (order.type !== 'OPEN') continue;
      const trader = `${order.protocol} ${order.account}`;
      liveOpens.set(trader, (liveOpens.get(trader) ?? 0) + 1);
    }
    // Live opens per trader, among the traders who opened nothing in the week and among those
    // who opened three or more.
    const perTrader = (keep: (opens: number) => boolean) => {
      const group = recent.filter((r) => keep(r.opens));
      expect(group.length).toBeGreaterThan(5);
      return group.reduce((sum, r) => sum + (liveOpens.get(r.trader) ?? 0), 0) / group.length;
    };
    const dormant = perTrader((opens) => opens === 0);
    const active = perTrader((opens) => opens >= 3);
    // Picked alike, both groups would open about as often; weighted by their opens, the busy
    // traders open tens of times as often.
    expect(active).toBeGreaterThan(10 * Math.max(dormant, 0.5));
  });

  it('is deterministic for the same store, seed and times', () => {
    const strip = (events: LiveEvent[]) => JSON.stringify(events);
    expect(strip(run(store(), 50))).toBe(strip(run(store(), 50)));
  });

  it('ticks on an unref’d timer and stops cleanly', () => {
    vi.useFakeTimers();
    const db = store();
    const kinds: string[] = [];
    const market = startLiveMarket(db, {
      seed: 1,
      nowMs: () => Date.now(),
      tickMs: 1_000,
      onEvent: (e) => kinds.push(e.kind),
    });
    vi.advanceTimersByTime(3_000);
    expect(kinds.filter((k) => k === 'prices')).toHaveLength(3);
    market.stop();
    vi.advanceTimersByTime(5_000);
    expect(kinds.filter((k) => k === 'prices')).toHaveLength(3);
    expect(market.step()).toEqual([]);
  });

  it('starts on an empty store with newcomers at the catalogue prices', () => {
    const db = openServiceDatabase(':memory:');
    const events = run(db, 30);
    expect(orders(events).length).toBeGreaterThan(10);
    expect(positionViolations(db)).toEqual([]);
  });
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
