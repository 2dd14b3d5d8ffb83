import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pnlStatisticsPath } from '../../../shared/profile';
import {
  pnlStatisticsRequestSchema,
  publicStatisticFilterBodySchema,
  SEARCH_AFTER_PATH,
  searchAfterRequestSchema,
  statisticFilterBodySchema,
} from '../../../shared/api/statistics';
import { positionFilterBodySchema } from '../../../shared/api/positions';
import { addressSchema } from '../../../shared/api/common';
import type { ServiceContext } from '../context';
import { statisticsNowMs } from '../../config';
import { ServiceError } from '../errors';
import { validate } from '../validate';
import { KnownBodies, knownBodiesConfig, rawBodyOf } from '../json-body';
import { authenticate } from '../../auth/credentials';
import { publicReadAccess } from '../public-access';
import { LiveProtocols } from '../../market/token-listing';
import { storedAddress, type Condition } from '../../store/conditions';
import {
  filterStatisticsAnswer,
  statisticsVersion,
  traderStatisticsJson,
  type StatisticQuery,
} from '../../statistics/queries/statistic-filters';
import { pageJsonBuffer } from '../../statistics/store/json-rows';
import { ResponseCache } from '../../statistics/queries/response-cache';
import { searchAfter } from '../../statistics/queries/point-in-time';
import { pnlStatistics } from '../../statistics/compute/daily-series';
import { filterPositions } from '../../store/position-filter';
import { windowBounds } from '../../statistics/formulas/windows';

/** Default orders when a body names no `sortBy` (docs/api.md leaves them open; docs/service.md). */
const DEFAULT_STATISTIC_SORT = 'pnl';
const DEFAULT_POSITION_SORT = 'openBlockTime';

const pageMeta = (total: number, limit: number, offset: number) => ({
  limit,
  offset,
  total,
  totalPages: Math.ceil(total / limit),
});
const equalities = (queries: { fieldName: string; value: string }[]): Condition[] =>
  queries.map((q) => ({ field: q.fieldName, match: q.value }));
/** A statistic filter's query as its body gives it: everything but the path's protocol. */
type BodyQuery = Omit<StatisticQuery, 'protocol'>;
/** What a filter remembers of a body text it validated: the query and the cache key's part. */
interface KnownQuery {
  query: BodyQuery;
  key: string;
}
const json = (reply: FastifyReply, body: string | Buffer) =>
  reply.type('application/json; charset=utf-8').send(body);

/** Trader statistics, search-after, daily PnL and positions (credentials per docs/api.md). */
export function statisticRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const known = new LiveProtocols(ctx.db);
  const protocolOf = (request: FastifyRequest): string => {
    const { protocol } = request.params as { protocol: string };
    if (!known.current().has(protocol)) {
      throw new ServiceError(
        'VALIDATION_FAILED',
        `protocol ${JSON.stringify(protocol)} is not a known protocol`,
      );
    }
    return protocol;
  };
  const credentials = (accepts: 'jwtOrApiKey' | 'apiKey') => async (request: FastifyRequest) => {
    await authenticate(ctx, request, accepts);
  };
  // The `/public/...` reads also answer anonymously with --public-anonymous (docs/real-clients.md).
  const publicRead = publicReadAccess(ctx);
  // Statistic reads change only when the statistics change, so their answers are cached per
  // version of the index (statisticsVersion); positions are live and never cached.
  const cache = new ResponseCache();
  // Tests read its counters; nothing else does.
  app.decorate('statisticCache', cache);
  // A body text a filter validated before is recognised by its text (json-body.ts): a repeat
  // skips the parse, the validation and the key's building (docs/statistics.md, "The columnar
  // index", Around the query). The route's parameters are read on every request.
  const bodies = { filter: new KnownBodies<KnownQuery>(), public: new KnownBodies<KnownQuery>() };
  // Tests read their counters; nothing else does.
  app.decorate('statisticBodies', bodies);
  // The key is the parsed query (defaults filled in), never the request's text: padding a body
  // with whitespace or reordering its keys must not make a new entry.
  const statisticPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    route: keyof typeof bodies,
    fromBody: (body: unknown) => BodyQuery,
  ) => {
    const protocol = protocolOf(request);
    let known = bodies[route].of(request);
    if (known === undefined) {
      const query = fromBody(request.body);
      known = { query, key: JSON.stringify(query) };
      bodies[route].remember(rawBodyOf(request), known);
    }
    const { query } = known;
    const key = `${statisticsVersion(ctx.db)}|${route}|${protocol}|${known.key}`;
    // Charged to the caller's search budget, a cached answer too (its cost is next to nothing).
    const answer = ctx.searchBudget.run(request, () =>
      cache.getOrCompute(key, () =>
        filterStatisticsAnswer(ctx.db, { protocol, ...query }, (total) =>
          pageMeta(total, query.limit, query.offset),
        ),
      ),
    );
    return json(reply, answer);
  };

  app.post(
    '/:protocol/position/statistic/filter',
    { preHandler: credentials('jwtOrApiKey'), config: knownBodiesConfig(bodies.filter) },
    async (request, reply) =>
      statisticPage(request, reply, 'filter', (given) => {
        const body = validate(statisticFilterBodySchema, given);
        return {
          conditions: [{ from: 'queries', list: equalities(body.queries) }],
          sort: { field: body.sortBy ?? DEFAULT_STATISTIC_SORT, direction: body.sortType },
          ...body.pagination,
          withRanking: false,
        };
      }),
  );

  app.post(
    '/public/:protocol/position/statistic/filter',
    { preHandler: publicRead, config: knownBodiesConfig(bodies.public) },
    async (request, reply) =>
      statisticPage(request, reply, 'public', (given) => {
        const body = validate(publicStatisticFilterBodySchema, given);
        const ranges: Condition[] = body.ranges.map(({ fieldName, ...bounds }) => ({
          field: fieldName,
          ...bounds,
        }));
        return {
          conditions: [
            { from: 'queries', list: equalities(body.queries) },
            { from: 'ranges', list: ranges },
          ],
          sort: { field: body.sortBy ?? DEFAULT_STATISTIC_SORT, direction: body.sortType },
          ...body.pagination,
          withRanking: true,
        };
      }),
  );

  app.get(
    '/public/:protocol/position/statistic/trader/:account',
    { preHandler: publicRead },
    async (request, reply) => {
      const protocol = protocolOf(request);
      const given = validate(addressSchema, (request.params as { account: string }).account, 'account');
      const body = traderStatisticsJson(ctx.db, protocol, storedAddress(given));
      if (body === null)
        throw new ServiceError('NOT_FOUND', `account ${given} has no statistics on ${protocol}`);
      return json(reply, body);
    },
  );

  app.post(SEARCH_AFTER_PATH, { preHandler: credentials('apiKey') }, async (request, reply) => {
    const body = validate(searchAfterRequestSchema, request.body);
    const sort = body.sort.map((entry) => {
      const [field, direction] = Object.entries(entry)[0] as [string, 'asc' | 'desc'];
      return { field, direction };
    });
    const batch = searchAfter(
      ctx.db,
      {
        size: body.size,
        sort,
        pitId: body.pitId,
        searchAfter: body.searchAfter,
        conditions: equalities(body.queries),
      },
      ctx.config.now().getTime(),
    );
    return json(reply, pageJsonBuffer(batch.rows, batch.meta));
  });

  const pnlHandler = async (request: FastifyRequest) => {
    const body = validate(pnlStatisticsRequestSchema, request.body);
    for (const [i, { protocol }] of body.accounts.entries()) {
      if (!known.current().has(protocol)) {
        throw new ServiceError(
          'VALIDATION_FAILED',
          `accounts[${i}].protocol ${JSON.stringify(protocol)} is not a known protocol`,
        );
      }
    }
    return pnlStatistics(ctx.db, body.accounts, body.statisticType, statisticsNowMs(ctx.config));
  };
  app.post(pnlStatisticsPath(ctx.config.venue), { preHandler: publicRead }, pnlHandler);
  app.post('/public/position/statistic/pnl-statistics', { preHandler: publicRead }, pnlHandler);

  const positionsHandler = async (request: FastifyRequest) => {
    const protocol = protocolOf(request);
    const body = validate(positionFilterBodySchema, request.body);
    const pathAccount = (request.params as { account?: string }).account;
    const conditions = equalities(body.queries);
    const account =
      pathAccount === undefined ? body.account : validate(addressSchema, pathAccount, 'account');
    if (
      pathAccount !== undefined &&
      body.account !== undefined &&
      storedAddress(body.account) !== storedAddress(account!)
    )
      throw new ServiceError(
        'VALIDATION_FAILED',
        `account ${body.account} in the body is not the path's account ${account}; send the same or leave it out`,
      );
    if (account !== undefined) conditions.push({ field: 'account', match: account });
    if (body.type !== undefined && body.type !== 'FULL') {
      const { fromMs, toMs } = windowBounds(body.type, statisticsNowMs(ctx.config));
      conditions.push({ field: 'closeBlockTime', gte: fromMs, lt: toMs });
    }
    const { limit, offset } = body.pagination;
    const page = filterPositions(ctx.db, {
      protocol,
      conditions,
      sort: { field: body.sortBy ?? DEFAULT_POSITION_SORT, direction: body.sortType },
      limit,
      offset,
    });
    return { data: page.rows, meta: pageMeta(page.total, limit, offset) };
  };
  app.post('/:protocol/position/filter', { preHandler: credentials('jwtOrApiKey') }, positionsHandler);
  app.post(
    '/:protocol/position/filter/:account',
    { preHandler: credentials('jwtOrApiKey') },
    positionsHandler,
  );
}
