import { feedAccountsBodySchema, feedStatusSchema } from '../../api/feed';
import { cached } from './freshness';

/**
 * `feed:status`: the active profile's venue feed (docs/venue-feed.md) as `GET /feed/status`
 * answers it, network first; a service without a feed answers `state: "off"`.
 */
export const feedStatusReadSchema = cached(feedStatusSchema);

/**
 * `feed:accounts`: accounts to track (`add`) or stop tracking (`remove`; their data stays), as
 * `POST /feed/accounts` takes them; answers the new status.
 */
export const feedAccountsRequestSchema = feedAccountsBodySchema;
