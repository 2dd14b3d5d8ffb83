import type { FastifyInstance, FastifyRequest } from 'fastify';
import { activityLogsPageBodySchema, activityLogsPageQuerySchema } from '../../../shared/api/activity-logs';
import type { Pagination, PaginationQuery } from '../../../shared/api/common';
import {
  copyPositionsPageBodySchema,
  copyPositionsPageQuerySchema,
} from '../../../shared/api/copy-positions';
import { copyTradeListBodySchema, type CopyTradeListItem } from '../../../shared/api/copy-trades';
import { embeddedWalletsPath, withdrawPath } from '../../../shared/profile';
import { authenticate } from '../../auth/credentials';
import { pageActivityLogs } from '../../copy-trading/activity-logs';
import { listCopyOrders } from '../../copy-trading/copy-orders';
import { ownsCopyPosition, pageCopyPositions } from '../../copy-trading/copy-positions';
import { createCopyTrade, updateCopyTrade } from '../../copy-trading/copy-trade-commands';
import { listCopyTrades } from '../../copy-trading/copy-trades';
import { listCopyWallets, listEmbeddedWallets } from '../../copy-trading/copy-wallets';
import { copyTradePnl, NO_TRADE_PNL } from '../../copy-trading/pnl';
import { withdraw } from '../../copy-trading/withdrawals';
import type { UserRecord } from '../../users/users';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { validate } from '../validate';

type IdParams = { Params: { id: string } };

/** An optional JSON body: absent or `null` means no filters. */
const optionalBody = (request: FastifyRequest): unknown => request.body ?? {};

/** Copy trades, copy wallets, withdrawals, copy positions and activity logs; JWT only (docs/api.md). */
export function copyTradingRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const userOf = async (request: FastifyRequest): Promise<UserRecord> => {
    const caller = await authenticate(ctx, request, 'jwt');
    // authenticate('jwt') only answers users; the check keeps the type honest.
    if (caller.kind !== 'user')
      throw new ServiceError('UNAUTHORIZED', 'this endpoint needs a logged-in user');
    return caller.user;
  };

  app.post('/copy-trades', async (request, reply) => {
    const trade = createCopyTrade(ctx, await userOf(request), request.body);
    return reply.code(201).send(trade);
  });

  app.put<IdParams>('/copy-trades/:id', async (request) =>
    updateCopyTrade(ctx, await userOf(request), request.params.id, request.body),
  );

  app.post('/copy-trades/list', async (request): Promise<CopyTradeListItem[]> => {
    const user = await userOf(request);
    const filter = validate(copyTradeListBodySchema, optionalBody(request));
    const pnl = copyTradePnl(ctx.db, user.id, ctx.config.now().getTime());
    return listCopyTrades(ctx.db, user.id, filter).map((t) => ({ ...t, ...(pnl.get(t.id) ?? NO_TRADE_PNL) }));
  });

  app.get('/copy-wallets/list', async (request) =>
    listCopyWallets(ctx.db, (await userOf(request)).id, ctx.config.venue),
  );

  app.get(embeddedWalletsPath(ctx.config.venue), async (request) =>
    listEmbeddedWallets(ctx.db, (await userOf(request)).id, ctx.config.venue, ctx.config.now().getTime()),
  );

  app.post(withdrawPath(ctx.config.venue), async (request, reply) => {
    const user = await userOf(request);
    const outcome = withdraw(ctx, user, request.body, idempotencyKeyOf(request));
    if (outcome.replayed) void reply.header('idempotent-replayed', 'true');
    else
      ctx.events.publish([
        {
          kind: 'withdrawalSettled',
          userId: user.id,
          withdrawal: outcome.record as unknown as Record<string, unknown>,
        },
      ]);
    return reply.code(201).send(outcome.record);
  });

  app.post('/copy-positions/page', async (request) => {
    const user = await userOf(request);
    const query = validate(copyPositionsPageQuerySchema, request.query, 'query');
    const body = validate(copyPositionsPageBodySchema, optionalBody(request));
    return pageCopyPositions(ctx.db, user.id, query, body);
  });

  app.get<IdParams>('/copy-positions/:id/orders', async (request) => {
    const user = await userOf(request);
    if (!ownsCopyPosition(ctx.db, user.id, request.params.id)) {
      throw new ServiceError('NOT_FOUND', `copy position ${request.params.id.slice(0, 60)} does not exist`);
    }
    return listCopyOrders(ctx.db, request.params.id);
  });

  app.post('/activity-logs/page', async (request) => {
    const user = await userOf(request);
    const raw = optionalBody(request);
    const body = validate(activityLogsPageBodySchema, raw);
    const query = validate(activityLogsPageQuerySchema, request.query, 'query');
    return pageActivityLogs(ctx.db, user.id, body, pagination(raw, body.pagination, query));
  });
}

/**
 * `limit`/`offset` of the activity logs page: per field, the body's `pagination` wins when it
 * sets the field, then the query string, then the default (docs/copy-trading-api.md).
 */
function pagination(raw: unknown, parsed: Pagination, query: PaginationQuery): Pagination {
  const given = (raw as { pagination?: Partial<Pagination> }).pagination ?? {};
  return {
    limit: given.limit !== undefined ? parsed.limit : (query.limit ?? parsed.limit),
    offset: given.offset !== undefined ? parsed.offset : (query.offset ?? parsed.offset),
  };
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** The `Idempotency-Key` header: 1 to 255 visible ASCII characters, or null when absent. */
function idempotencyKeyOf(request: FastifyRequest): string | null {
  const value = request.headers['idempotency-key'];
  if (value === undefined) return null;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY.test(value)) {
    throw new ServiceError('VALIDATION_FAILED', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
  }
  return value;
}
