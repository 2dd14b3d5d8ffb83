import type { Channel } from '../../../shared';
import type { CopyPositionsPageQueryInput } from '../../../shared/api/copy-positions';
import type { DomainDeps, Handlers } from './handlers';

type CopyTradingChannel =
  | 'copyTrades:list'
  | 'copyTrades:create'
  | 'copyTrades:update'
  | 'copyTrades:setStatus'
  | 'copyPositions:page'
  | 'copyPositions:orders'
  | 'copyPositions:close'
  | 'copyPositions:unlink'
  | 'activityLogs:page';

/** What a change to a copy trade makes out of date. */
const AFTER_TRADE_CHANGE: readonly Channel[] = ['copyTrades:list'];
/** What closing or unlinking a copy position makes out of date. */
const AFTER_POSITION_CHANGE: readonly Channel[] = [
  'copyPositions:page',
  'copyPositions:orders',
  'activityLogs:page',
  'copyTrades:list',
  'wallets:list',
  'withdraw:preview',
];

/**
 * Copy trades, copy positions and activity logs of the logged-in user (JWT). Reads are
 * cache-first; writes go to the service only, and what they change is dropped from the cache.
 */
export function createCopyTradingHandlers(deps: DomainDeps): Pick<Handlers, CopyTradingChannel> {
  const { reads, write } = deps;
  const client = () => deps.profiles.active().serviceClient();
  const change = async <T>(stale: readonly Channel[], action: () => Promise<T>): Promise<T> => {
    const result = await write(action);
    reads.invalidate(stale);
    return result;
  };
  return {
    'copyTrades:list': (request) =>
      reads.read('copyTrades:list', request, async () => (await client()).listCopyTrades(request)),
    'copyTrades:create': (request) =>
      change(AFTER_TRADE_CHANGE, async () => (await client()).createCopyTrade(request)),
    'copyTrades:update': ({ id, changes }) =>
      change(AFTER_TRADE_CHANGE, async () => (await client()).updateCopyTrade(id, changes)),
    'copyTrades:setStatus': ({ id, status }) =>
      change(AFTER_TRADE_CHANGE, async () => (await client()).updateCopyTrade(id, { status })),

    'copyPositions:page': (request) =>
      reads.read('copyPositions:page', request, async () => {
        const { status, isLong, ...rest } = request.query;
        // The query string carries the wire's text forms: `OPEN,CLOSE`, `true`.
        const query: CopyPositionsPageQueryInput = {
          ...rest,
          ...(status !== undefined && { status: status.join(',') }),
          ...(isLong !== undefined && { isLong: isLong ? 'true' : 'false' }),
        };
        return (await client()).copyPositionsPage(query, request.body);
      }),
    'copyPositions:orders': (request) =>
      reads.read('copyPositions:orders', request, async () =>
        (await client()).copyPositionOrders(request.id),
      ),
    'copyPositions:close': ({ id }) =>
      change(AFTER_POSITION_CHANGE, async () => (await client()).closeCopyPosition(id)),
    'copyPositions:unlink': ({ id }) =>
      change(AFTER_POSITION_CHANGE, async () => (await client()).unlinkCopyPosition(id)),

    'activityLogs:page': (request) =>
      reads.read('activityLogs:page', request, async () => (await client()).activityLogsPage(request)),
  };
}
