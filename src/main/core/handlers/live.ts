import type { z } from 'zod';
import type { GraphqlCondition, GraphqlSearchBodyInput, GraphqlSort } from '../../../shared/api/graphql';
import type { liveFeedRequestSchema } from '../../../shared/ipc/schemas/live';
import type { DomainDeps, Handlers } from './handlers';

type LiveChannel = 'live:top' | 'live:positions' | 'live:orders';
type LiveRequest = z.output<typeof liveFeedRequestSchema>;

/** What a feed searches: positions carry `size`, orders `sizeDeltaNumber` and no `protocols` argument. */
type Feed = 'positions' | 'orders';

/**
 * The filters of schemas/live.ts as GraphQL conditions (docs/api.md, GraphQL): pair by equality,
 * side as `isLong`, the minimum size as a lower bound on the size (the order's size change for
 * orders), and for orders the protocols as an `in` (the position queries take `protocols`).
 */
export function liveConditions(request: LiveRequest, feed: Feed): GraphqlCondition[] {
  const and: GraphqlCondition[] = [];
  if (request.pair !== undefined) and.push({ field: 'pair', match: request.pair });
  if (request.side !== 'BOTH') and.push({ field: 'isLong', match: request.side === 'LONG' });
  if (request.minSize !== undefined)
    and.push({ field: feed === 'orders' ? 'sizeDeltaNumber' : 'size', gte: request.minSize });
  if (feed === 'orders' && request.protocols.length > 0)
    and.push({ field: 'protocol', in: request.protocols });
  return and;
}

/** The search body of a feed: its conditions, its order, one page of `limit`. */
export function liveSearchBody(request: LiveRequest, feed: Feed, sort: GraphqlSort): GraphqlSearchBodyInput {
  return {
    filter: { and: liveConditions(request, feed) },
    sorts: [sort],
    paging: { size: request.limit, from: 0 },
  };
}

/**
 * The live feeds over GraphQL: the largest open positions (`searchTopOpeningPosition`), the
 * latest position changes (`livePosition`), the latest orders (`searchOrders`). Cache-first.
 */
export function createLiveHandlers(deps: DomainDeps): Pick<Handlers, LiveChannel> {
  const client = () => deps.profiles.active().serviceClient();
  const protocolsOf = (request: LiveRequest) =>
    request.protocols.length > 0 ? { protocols: request.protocols } : {};
  return {
    'live:top': (request) =>
      deps.reads.read('live:top', request, async () =>
        (await client()).searchTopOpeningPositions(
          liveSearchBody(request, 'positions', { field: 'size', direction: 'desc' }),
          protocolsOf(request),
        ),
      ),
    'live:positions': (request) =>
      deps.reads.read('live:positions', request, async () =>
        (await client()).searchLivePositions(
          liveSearchBody(request, 'positions', { field: 'openBlockTime', direction: 'desc' }),
          protocolsOf(request),
        ),
      ),
    'live:orders': (request) =>
      deps.reads.read('live:orders', request, async () =>
        (await client()).searchOrders(
          liveSearchBody(request, 'orders', { field: 'blockTime', direction: 'desc' }),
        ),
      ),
  };
}
