import type { z } from 'zod';
import type { channels } from '../../../shared';
import type { DownloadState, LeaderboardRow } from '../../../shared/ipc/schemas/leaderboard';
import { PAGE_LIMIT_MAX } from '../../../shared/api/common';
import type { ServiceClient } from '../client/service-client';
import type { ReadThrough } from '../cache/read-through';
import type { StatisticsDatasets } from '../datasets/statistics-datasets';
import { mergeOrdered, rowSortValue } from '../datasets/leaderboard-order';
import type { CoreEvents } from '../events';
import type { Handlers } from './handlers';

export type StatisticsChannel =
  | 'leaderboard:page'
  | 'statistics:pnl'
  | 'downloads:start'
  | 'downloads:cancel'
  | 'downloads:delete'
  | 'downloads:list'
  | 'trader:statistics'
  | 'trader:positions'
  | 'trader:orders';

export interface StatisticsHandlerDeps {
  /** The active profile's client, with its credentials (JWT and/or API key). */
  client: () => Promise<ServiceClient>;
  /** Cache-first reads. */
  reads: ReadThrough;
  events: CoreEvents;
  /** The downloaded datasets (offline leaderboards). */
  datasets: StatisticsDatasets;
  profileId: () => string;
}

type Request<C extends StatisticsChannel> = z.output<(typeof channels)[C]['request']>;

/**
 * Leaderboards, trader pages and bulk downloads (docs/core-cache.md). Reads go cache-first through
 * `reads`; a leaderboard answers from downloaded datasets when it may (`source`), and from the
 * service otherwise, merging several protocols in sort order.
 */
export function createStatisticsHandlers(deps: StatisticsHandlerDeps): Pick<Handlers, StatisticsChannel> {
  const { reads, datasets } = deps;
  // Progress of a download started under another profile is not this window's business.
  const progressOf = (profileId: string) => (state: DownloadState) => {
    if (deps.profileId() === profileId) deps.events.emit('download:progress', state);
  };
  return {
    'leaderboard:page': async (request) => {
      const protocols = [...new Set(request.protocols)];
      if (request.source !== 'service') {
        const local = await datasets.query({
          profileId: deps.profileId(),
          protocols,
          window: request.window,
          ranges: request.ranges,
          sort: request.sort,
          limit: request.limit,
          offset: request.offset,
          required: request.source === 'downloaded',
        });
        if (local) {
          return {
            data: { rows: local.rows as LeaderboardRow[], total: local.total, origin: 'downloaded' as const },
            // A dataset is a deliberate snapshot: it is as of its completion and is never refreshed.
            freshness: { fetchedAt: local.fetchedAt, fromCache: true, stale: false },
          };
        }
      }
      return reads.read('leaderboard:page', request, async () =>
        leaderboardFromService(await deps.client(), { ...request, protocols }),
      );
    },

    'statistics:pnl': (request) =>
      reads.read('statistics:pnl', request, async () =>
        (await deps.client()).pnlStatistics({ accounts: request.accounts, statisticType: request.window }),
      ),

    'downloads:start': (key) => {
      const profileId = deps.profileId();
      return datasets.start(profileId, key, deps.client, progressOf(profileId));
    },
    'downloads:cancel': (key) => {
      const profileId = deps.profileId();
      return datasets.cancel(profileId, key, progressOf(profileId));
    },
    'downloads:delete': (key) => datasets.delete(deps.profileId(), key),
    'downloads:list': () => datasets.list(deps.profileId()),

    'trader:statistics': (request) =>
      reads.read('trader:statistics', request, async () =>
        (await deps.client()).traderStatistics(request.protocol, request.account),
      ),

    'trader:positions': (request) =>
      reads.read('trader:positions', request, async () =>
        (await deps.client()).positionFilter(
          request.protocol,
          {
            queries: request.status === undefined ? [] : [{ fieldName: 'status', value: request.status }],
            ...(request.sortBy !== undefined && { sortBy: request.sortBy }),
            sortType: request.sortType,
            pagination: { limit: request.limit, offset: request.offset },
          },
          request.account,
        ),
      ),

    'trader:orders': (request) =>
      reads.read('trader:orders', request, async () =>
        (await deps.client()).searchOrders({
          filter: {
            and: [
              { field: 'account', match: request.account },
              { field: 'protocol', match: request.protocol },
              ...(request.key === undefined ? [] : [{ field: 'key', match: request.key }]),
            ],
          },
          sorts: [
            { field: 'blockTime', direction: 'desc' },
            { field: 'logId', direction: 'desc' },
          ],
          paging: { size: request.limit, from: 0 },
        }),
      ),
  };
}

/**
 * One leaderboard page from the service: the public statistic filter of each protocol (the window
 * is an equality query on `type`). With several protocols each one's first offset + limit rows are
 * fetched (in pages of the API's maximum) and merged in the sort order, so the page is exactly the
 * one a single sorted list of every protocol would give.
 */
export async function leaderboardFromService(
  client: Pick<ServiceClient, 'publicStatisticFilter'>,
  request: Request<'leaderboard:page'>,
): Promise<{ rows: LeaderboardRow[]; total: number; origin: 'service' }> {
  const bodyFor = (offset: number, limit: number) => ({
    queries: [{ fieldName: 'type', value: request.window }],
    ranges: request.ranges,
    sortBy: request.sort.field,
    sortType: request.sort.direction,
    pagination: { limit, offset },
  });
  const protocols = [...new Set(request.protocols)];
  if (protocols.length === 1) {
    const page = await client.publicStatisticFilter(
      protocols[0] as string,
      bodyFor(request.offset, request.limit),
    );
    return { rows: page.data, total: page.meta.total, origin: 'service' };
  }
  const end = request.offset + request.limit;
  const lists = await Promise.all(
    protocols.map(async (protocol) => {
      const rows: LeaderboardRow[] = [];
      let total = 0;
      for (let offset = 0; offset < end; offset += PAGE_LIMIT_MAX) {
        const limit = Math.min(PAGE_LIMIT_MAX, end - offset);
        const page = await client.publicStatisticFilter(protocol, bodyFor(offset, limit));
        total = page.meta.total;
        rows.push(...page.data);
        if (page.data.length < limit) break;
      }
      return { protocol, rows, total };
    }),
  );
  const merged = mergeOrdered(
    lists.map((list) => list.rows.map((row) => ({ row, protocol: list.protocol }))),
    ({ row, protocol }) => ({
      value: rowSortValue(row as Record<string, unknown>, request.sort.field),
      id: row.id,
      protocol,
    }),
    request.sort.direction,
    end,
  );
  return {
    rows: merged.slice(request.offset).map((m) => m.row),
    total: lists.reduce((sum, list) => sum + list.total, 0),
    origin: 'service',
  };
}
