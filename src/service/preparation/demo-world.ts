import type { ServiceConfig } from '../config';
import { statisticsNowMs } from '../config';
import { DEMO_ADDRESS, seedFixtureWorld } from '../fixture/seed';
import { seedCopyFixture } from '../fixture/copy-fixture';
import { seedDemoWorld, startLiveMarket } from '../market/simulator';
import { seedingInterrupted, undoInterruptedSeeding } from '../market/simulator/seed-demo';
import { recomputeAll } from '../statistics/compute/recompute';
import { readMeta } from '../store/meta';
import type { LiveStatistics } from '../statistics/compute/live-statistics';
import type { CopyEnginePort } from '../sandbox/engine-port';
import type { CopyEvent, SourceOrder } from '../copy-engine/types';
import { sourceOrderOf } from '../copy-engine/market-orders';
import type { ServiceDb } from '../store/database';
import { createUser, findUserByAddress } from '../users/users';

/** The seed of the demo world: the same world on every machine. */
export const DEMO_SEED = 42;
/** How often the stored percentiles catch up with a live market's closes. */
const RANKING_REFRESH_MS = 5_000;

/** How the data is prepared: `chunked` commits often, for a service that answers meanwhile. */
export interface PrepareOptions {
  chunked?: boolean;
}

/**
 * Whether a start has the demo world to seed: into an empty store, or again after a seeding cut
 * short. That is the preparation worth doing after listening, in a worker thread (docs/service.md,
 * Listening while preparing); the rest (the small fixture world, `--now`'s recompute of a stored
 * world) takes less than starting a worker and is done before listening, as a second start's
 * nothing is.
 */
export function demoWorldToSeed(db: ServiceDb, config: ServiceConfig): boolean {
  if (!config.demo) return false;
  return seedingInterrupted(db) || db.prepare('SELECT 1 FROM positions LIMIT 1').get() === undefined;
}

/** Everything a start prepares: the world, then the statistics as of `--now` when it asks for another instant. */
export function prepareData(db: ServiceDb, config: ServiceConfig, options: PrepareOptions = {}): void {
  // A demo seeding cut short goes first, also when the demo world is no longer asked for.
  undoInterruptedSeeding(db);
  prepareWorld(db, config, options);
  if (config.asOf && readMeta(db, 'statistics_as_of') !== config.asOf.toISOString()) {
    config.onProgress({ phase: 'statistics', done: 0, total: 1 });
    recomputeAll(db, config.asOf.getTime());
  }
}

/** Seeds an empty store with the world the configuration asks for (demo, fixture, or none). */
export function prepareWorld(db: ServiceDb, config: ServiceConfig, options: PrepareOptions = {}): void {
  if (config.demo) {
    const seeded = seedDemoWorld(db, {
      seed: DEMO_SEED,
      nowMs: statisticsNowMs(config),
      onProgress: config.onProgress,
      chunked: options.chunked === true,
    });
    if (seeded) {
      // A tester can log in with the public demo key and find copy trades to look at, priced
      // where the demo market trades and following its busiest traders.
      const demo = findUserByAddress(db, DEMO_ADDRESS) ?? createUser(db, config, DEMO_ADDRESS, {});
      seedCopyFixture(db, config, { userId: demo.id, inMarket: true });
    }
    return;
  }
  if (!config.seedFixture || db.prepare('SELECT 1 FROM positions LIMIT 1').get() !== undefined) return;
  config.onProgress({ phase: 'fixture', done: 0, total: 1 });
  seedFixtureWorld(db, config);
}

/** The live market's state as `GET /health` reports it (docs/service.md, `GET /health`). */
export interface MarketHealth {
  /** `running`: ticks succeed; `retrying`: the last tick failed and is tried again after a wait. */
  market: 'running' | 'retrying';
  /** Ticks failed in a row (retrying only). */
  failures?: number;
  /** Why the last tick failed (retrying only). */
  lastError?: string;
  lastErrorAt?: string;
  /** Milliseconds until the next try (retrying only). */
  retryInMs?: number;
}

/** Tries of a source order the engine could not copy before it is skipped with a log line. */
const ORDER_TRIES = 5;

/** A live market for the service: ticks every second; statistics and copies follow its orders. */
export function startLiveWorld(
  db: ServiceDb,
  config: ServiceConfig,
  deps: {
    statistics: LiveStatistics;
    engine: CopyEnginePort;
    onEvents: (events: CopyEvent[]) => void;
    /** Milliseconds between ticks (default 1,000) and the longest wait between tries (60,000). */
    tickMs?: number;
    maxRetryMs?: number;
    log?: (message: string) => void;
  },
) {
  const log = deps.log ?? ((message: string) => console.error(`copydesk service: ${message}`));
  let health: MarketHealth = { market: 'running' };
  // Orders the market committed but the engine failed to copy (a busy or full store): tried
  // again before anything else, so that a failed tick loses no copy.
  const pending: { order: SourceOrder; tries: number }[] = [];
  const drain = () => {
    while (pending.length > 0) {
      const next = pending[0]!;
      try {
        deps.onEvents(deps.engine.processSourceOrder(next.order));
      } catch (error) {
        next.tries += 1;
        if (next.tries < ORDER_TRIES) throw error;
        log(`skipped copying source order ${next.order.id} after ${next.tries} tries: ${messageOf(error)}`);
      }
      pending.shift();
    }
  };
  const market = startLiveMarket(db, {
    seed: DEMO_SEED,
    nowMs: () => config.now().getTime(),
    ...(deps.tickMs !== undefined ? { tickMs: deps.tickMs } : {}),
    ...(deps.maxRetryMs !== undefined ? { maxRetryMs: deps.maxRetryMs } : {}),
    onEvent: (event) => {
      drain();
      if (event.kind === 'positionClosed') deps.statistics.traderChanged(event.protocol, event.account);
      else if (event.kind === 'order') {
        pending.push({ order: sourceOrderOf(event.order, event.position), tries: 0 });
        drain();
      } else deps.onEvents(deps.engine.processPrices(event.prices));
    },
    onError: (error, retry) => {
      health = {
        market: 'retrying',
        failures: retry.failures,
        lastError: messageOf(error),
        lastErrorAt: config.now().toISOString(),
        retryInMs: retry.retryInMs,
      };
      log(
        `a live market tick failed (${retry.failures} in a row), next try in ${retry.retryInMs} ms: ${messageOf(error)}`,
      );
    },
    onRecovered: (failures) => {
      health = { market: 'running' };
      log(`the live market runs again after ${failures} failed ticks`);
    },
  });
  const refresh = setInterval(() => deps.statistics.refreshRankings(), RANKING_REFRESH_MS);
  refresh.unref();
  return {
    /** The market's state for `GET /health`. */
    health: (): MarketHealth => ({ ...health }),
    stop: () => {
      clearInterval(refresh);
      market.stop();
    },
  };
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 300);
}
