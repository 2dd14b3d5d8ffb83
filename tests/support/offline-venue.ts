// No test may reach the real venue (the sandbox flags traffic that leaves the machine), and the
// terminal turns the Hyperliquid feed on by default. Every harness that starts a core, a web
// shell or the Electron app gives its local service these URLs (the service reads them as the
// feed's defaults), pointing at a closed port on 127.0.0.1: the feed reports itself offline and
// retries, and nothing leaves the machine. A test that wants venue data starts a FakeHyperliquid
// (tests/support/fake-hyperliquid.ts) and passes `venueEnv(fake)` instead.

/** A port nothing listens on (discard): connections are refused at once. */
const CLOSED = '127.0.0.1:9';

/** The feed's environment for a venue that cannot be reached. */
export const OFFLINE_VENUE_ENV = {
  COPYDESK_FEED_URL: `http://${CLOSED}`,
  COPYDESK_FEED_WS_URL: `ws://${CLOSED}/ws`,
  COPYDESK_FEED_LEADERBOARD_URL: `http://${CLOSED}/leaderboard`,
} as const;

/** The feed's environment for a fake venue on 127.0.0.1 (a FakeHyperliquid's URLs). */
export function venueEnv(venue: {
  baseUrl: string;
  wsUrl: string;
  leaderboardUrl: string;
}): Record<string, string> {
  for (const url of [venue.baseUrl, venue.wsUrl, venue.leaderboardUrl]) {
    if (!/^(https?|wss?):\/\/(127\.0\.0\.1|localhost)(:\d+)?(\/|$)/.test(url))
      throw new Error(`a test's venue must be on 127.0.0.1, not ${url}`);
  }
  return {
    COPYDESK_FEED_URL: venue.baseUrl,
    COPYDESK_FEED_WS_URL: venue.wsUrl,
    COPYDESK_FEED_LEADERBOARD_URL: venue.leaderboardUrl,
  };
}
