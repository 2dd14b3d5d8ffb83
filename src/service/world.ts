import type { ServiceConfig } from './config';
import { statisticsNowMs } from './config';
import { DEMO_ADDRESS, seedFixtureWorld } from './fixture/seed';
import { seedCopyFixture } from './fixture/copy-fixture';
import { seedDemoWorld, startLiveMarket } from './market/simulator';
import type { LiveStatistics } from './statistics/live-statistics';
import type { CopyEnginePort } from './sandbox/engine-port';
import type { CopyEvent } from './copy/types';
import { sourceOrderOf } from './copy-feed';
import type { ServiceDb } from './store/database';
import { createUser, findUserByAddress } from './users/users';

/** The seed of the demo world: the same world on every machine. */
export const DEMO_SEED = 42;
/** How often the stored percentiles catch up with a live market's closes. */
const RANKING_REFRESH_MS = 5_000;

/** Seeds an empty store with the world the configuration asks for (demo, fixture, or none). */
export function prepareWorld(db: ServiceDb, config: ServiceConfig): void {
  if (config.demo) {
    const seeded = seedDemoWorld(db, {
      seed: DEMO_SEED,
      nowMs: statisticsNowMs(config),
      onProgress: config.onProgress,
    });
    if (seeded) {
      // A tester can log in with the public demo key and find copy trades to look at, priced
      // where the demo market trades and following its busiest traders.
      const demo = findUserByAddress(db, DEMO_ADDRESS) ?? createUser(db, config, DEMO_ADDRESS, {});
      seedCopyFixture(db, config, { userId: demo.id, inMarket: true });
    }
    return;
  }
  if (config.seedFixture) seedFixtureWorld(db, config);
}

/** A live market for the service: ticks every second; statistics and copies follow its orders. */
export function startLiveWorld(
  db: ServiceDb,
  config: ServiceConfig,
  deps: { statistics: LiveStatistics; engine: CopyEnginePort; onEvents: (events: CopyEvent[]) => void },
) {
  const market = startLiveMarket(db, {
    seed: DEMO_SEED,
    nowMs: () => config.now().getTime(),
    onEvent: (event) => {
      if (event.kind === 'positionClosed') deps.statistics.traderChanged(event.protocol, event.account);
      else if (event.kind === 'order')
        deps.onEvents(deps.engine.processSourceOrder(sourceOrderOf(event.order, event.position)));
      else deps.onEvents(deps.engine.processPrices(event.prices));
    },
    onError: (error: unknown) =>
      console.error(`copydesk service: the live market stopped: ${(error as Error).message}`),
  });
  const refresh = setInterval(() => deps.statistics.refreshRankings(), RANKING_REFRESH_MS);
  refresh.unref();
  return {
    stop: () => {
      clearInterval(refresh);
      market.stop();
    },
  };
}
