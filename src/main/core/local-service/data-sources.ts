import type { DataSources } from '../../../shared/ipc/schemas/settings';

/** What the core was asked for at start: the world a new database gets, and a moving market. */
export interface WorldOptions {
  /** The world a new local service database starts with (default: the demo world). */
  world?: 'demo' | 'fixture' | 'empty';
  /** Keep the simulated market moving (default: true). */
  live?: boolean;
}

/**
 * The local service's flags for the user's data sources:
 *
 * - demo market on: the world asked for (`--demo`, or `--empty`; the fixture world needs no flag)
 *   and `--live` unless a still market was asked for;
 * - demo market off: `--empty`, so that a new database gets no simulated traders, and no
 *   `--live`. A database already seeded keeps its simulated traders (they stop trading);
 * - Hyperliquid on: `--feed hyperliquid` (its URLs come from the environment,
 *   COPYDESK_FEED_URL, COPYDESK_FEED_WS_URL and COPYDESK_FEED_LEADERBOARD_URL, else the venue's).
 */
export function serviceArgsFor(sources: DataSources, options: WorldOptions = {}): string[] {
  const world = options.world ?? 'demo';
  const simulated = sources.demo
    ? [
        ...(world === 'demo' ? ['--demo'] : world === 'empty' ? ['--empty'] : []),
        ...(options.live === false ? [] : ['--live']),
      ]
    : ['--empty'];
  return [...simulated, ...(sources.hyperliquid ? ['--feed', 'hyperliquid'] : [])];
}

/** Whether two sets of sources need different service flags (a restart). */
export const sameSources = (a: DataSources, b: DataSources): boolean =>
  a.demo === b.demo && a.hyperliquid === b.hyperliquid;
