// A local service with the Hyperliquid feed pointed at a fake venue, and waits on its status.
import type { FeedStatus } from '../../src/shared/api/feed';
import type { FeedConfig } from '../../src/service/venues/hyperliquid/hyperliquid-feed';
import type { ServiceConfig } from '../../src/service/config';
import type { FakeHyperliquid } from './fake-hyperliquid';
import { startTestService, type RunningService } from './service';

/** The feed's configuration for `venue`, tracking `track` and nothing from the leaderboard. */
export function feedConfigFor(
  venue: FakeHyperliquid,
  overrides: Partial<FeedConfig> = {},
): ServiceConfig['feed'] {
  return {
    infoUrl: venue.baseUrl,
    wsUrl: venue.wsUrl,
    leaderboardUrl: venue.leaderboardUrl,
    track: [],
    trackTop: 0,
    leverage: 5,
    weightPerMinute: 1_000_000,
    rateLimitPauseMs: 200,
    ...overrides,
  };
}

/** A service on an empty store with the feed on, on the real clock (the feed paces itself by it). */
export function startFeedService(
  venue: FakeHyperliquid,
  feed: Partial<FeedConfig> = {},
  overrides: Partial<ServiceConfig> = {},
): Promise<RunningService> {
  return startTestService({
    seedFixture: false,
    feed: feedConfigFor(venue, feed),
    now: () => new Date(),
    ...overrides,
  });
}

/** Polls `status()` until `done` holds; fails with the last status after `timeoutMs`. */
export async function waitForFeed(
  service: RunningService,
  done: (status: FeedStatus) => boolean,
  timeoutMs = 20_000,
): Promise<FeedStatus> {
  const feed = service.service.feed;
  if (!feed) throw new Error('the service has no feed');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = feed.status();
    if (done(status)) return status;
    if (Date.now() > deadline)
      throw new Error(
        `the feed did not get there in ${timeoutMs} ms: ${JSON.stringify(status).slice(0, 2000)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Every tracked account is backfilled. */
export const allBackfilled = (count: number) => (s: FeedStatus) =>
  s.accounts.length === count && s.accounts.every((a) => a.backfilled);
