import { requestKey } from '../../../shared/ipc/request-key';
import type { FeedStatus } from '../../../shared/api/feed';
import { LOCAL_PROFILE_ID } from '../../../shared/profile';
import { CoreError } from '../errors';
import type { DomainDeps, Handlers } from './handlers';

type FeedChannel = 'feed:status' | 'feed:accounts';

/** The venue a feed status names when the service has no feed at all. */
const NO_FEED_VENUE = 'hyperliquid';

/** The status of a service that has no feed (a remote deployment, or an older local service). */
export function noFeedStatus(now: Date): FeedStatus {
  return {
    venue: NO_FEED_VENUE,
    state: 'off',
    since: now.toISOString(),
    budget: { weightPerMinute: 0, usedLastMinute: 0 },
    accounts: [],
  };
}

const isNotFound = (error: unknown): boolean => error instanceof CoreError && error.code === 'NOT_FOUND';

/**
 * The active profile's venue feed: its status, read network first (it is live state; the last
 * one known answers, marked stale, while the service cannot be reached), and the accounts the
 * user tracks. A service without the feed's endpoints (404) reads as a feed that is off.
 */
export function createFeedHandlers(deps: DomainDeps): Pick<Handlers, FeedChannel> {
  const { profiles, reads, cache, write } = deps;
  const client = () => profiles.active().serviceClient();
  return {
    'feed:status': (request) =>
      reads.readFresh('feed:status', request, async () => {
        try {
          return await (await client()).feedStatus();
        } catch (error) {
          if (isNotFound(error)) return noFeedStatus(new Date());
          throw error;
        }
      }),
    'feed:accounts': async ({ add, remove }) => {
      const context = profiles.active();
      const body = { ...(add && { add }), ...(remove && { remove }) };
      const status = await write(async () => {
        try {
          return await (await context.serviceClient()).feedAccounts(body);
        } catch (error) {
          // No feed routes (404), or a service running without its feed (409): say what to do.
          if (!(error instanceof CoreError)) throw error;
          const off = error.code === 'CONFLICT' && context.id === LOCAL_PROFILE_ID;
          if (error.code !== 'NOT_FOUND' && !off) throw error;
          throw new CoreError(
            error.code,
            context.id === LOCAL_PROFILE_ID
              ? 'The Hyperliquid data source is off, so the local service tracks no accounts: turn it on in Settings → Data sources.'
              : `${context.profile.name} has no venue feed, so it cannot track accounts.`,
          );
        }
      });
      // An offline read of the status shows the accounts as they are now.
      cache.put(context.id, requestKey('feed:status', {}), 'feed:status', status, new Date().toISOString());
      return status;
    },
  };
}
