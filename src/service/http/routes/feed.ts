import type { FastifyInstance } from 'fastify';
import { feedAccountsBodySchema, type FeedStatus } from '../../../shared/api/feed';
import { authenticate } from '../../auth/credentials';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { validate } from '../validate';

/** What the routes need of a running venue feed. */
export interface FeedControl {
  status(): FeedStatus;
  changeAccounts(change: { add?: readonly string[]; remove?: readonly string[] }): FeedStatus;
}

/** The answer when the service runs without a feed. */
const offStatus = (nowMs: number): FeedStatus => ({
  venue: 'hyperliquid',
  state: 'off',
  since: new Date(nowMs).toISOString(),
  budget: { weightPerMinute: 0, usedLastMinute: 0 },
  accounts: [],
});

/**
 * The venue feed's status and the accounts it tracks (outside the spec; docs/venue-feed.md):
 * `GET /feed/status` with a JWT or an API key, `POST /feed/accounts` with a JWT.
 */
export function feedRoutes(app: FastifyInstance, ctx: ServiceContext, feed: FeedControl | null): void {
  const startedAt = ctx.config.now().getTime();
  app.get('/feed/status', async (request) => {
    await authenticate(ctx, request, 'jwtOrApiKey');
    return { data: feed ? feed.status() : offStatus(startedAt) };
  });
  app.post('/feed/accounts', async (request) => {
    await authenticate(ctx, request, 'jwt');
    const body = validate(feedAccountsBodySchema, request.body);
    if (!feed)
      throw new ServiceError(
        'CONFLICT',
        'the venue feed is off: start the service with --feed hyperliquid to track accounts',
      );
    return { data: feed.changeAccounts(body) };
  });
}
