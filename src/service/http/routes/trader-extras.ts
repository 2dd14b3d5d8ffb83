import type { FastifyInstance, FastifyRequest } from 'fastify';
import { addressSchema } from '../../../shared/api/common';
import { pnlStatisticsRequestSchema } from '../../../shared/api/statistics';
import {
  openingPositionsQuerySchema,
  pnlStatisticsV2Key,
  type PnlStatisticsV2Response,
  tokenStatisticQuerySchema,
  traderPnlQuerySchema,
} from '../../../shared/api/real-client';
import type { ServiceContext } from '../context';
import { statisticsNowMs } from '../../config';
import { ServiceError } from '../errors';
import { validate } from '../validate';
import { publicReadAccess } from '../public-access';
import { LiveProtocols } from '../../market/token-listing';
import { storedAddress } from '../../store/conditions';
import { pnlStatistics } from '../../statistics/compute/daily-series';
import {
  lastOrder,
  openingPositions,
  tokenStatistics,
  traderExchanges,
  traderPnlDays,
} from '../../real-client/trader-reads';

/**
 * The trader reads the real web client makes beside the spec's, on its explorer (PnL sparklines)
 * and trader page (docs/real-clients.md, "The endpoints outside the spec"). They take what the
 * spec's public statistic endpoints take: a JWT or an API key, or nothing with
 * `--public-anonymous`, since the client calls them logged out beside those. An account the
 * service does not know answers empty.
 */
export function traderExtraRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const known = new LiveProtocols(ctx.db);
  const preHandler = publicReadAccess(ctx);
  const traderOf = (request: FastifyRequest) => {
    const { protocol, account } = request.params as { protocol: string; account: string };
    if (!known.current().has(protocol))
      throw new ServiceError(
        'VALIDATION_FAILED',
        `protocol ${JSON.stringify(protocol)} is not a known protocol`,
      );
    return { protocol, account: storedAddress(validate(addressSchema, account, 'account')) };
  };

  app.get('/public/position/statistic/exchange/:account', { preHandler }, async (request) => {
    const { account } = request.params as { account: string };
    return traderExchanges(ctx.db, storedAddress(validate(addressSchema, account, 'account')));
  });

  app.post('/public/position/statistic/pnl-statistics-v2', { preHandler }, async (request) => {
    const body = validate(pnlStatisticsRequestSchema, request.body);
    for (const [i, { protocol }] of body.accounts.entries())
      if (!known.current().has(protocol))
        throw new ServiceError(
          'VALIDATION_FAILED',
          `accounts[${i}].protocol ${JSON.stringify(protocol)} is not a known protocol`,
        );
    const answer: PnlStatisticsV2Response = {};
    const nowMs = statisticsNowMs(ctx.config);
    for (const pair of body.accounts) {
      const series = pnlStatistics(ctx.db, [pair], body.statisticType, nowMs)[pair.account];
      if (series) answer[pnlStatisticsV2Key(pair.account, pair.protocol)] = series;
    }
    return answer;
  });

  app.get('/:protocol/statistic/trader/pnl/:account', { preHandler }, async (request) => {
    const { protocol, account } = traderOf(request);
    const query = validate(traderPnlQuerySchema, request.query, 'query');
    return traderPnlDays(ctx.db, protocol, account, query, statisticsNowMs(ctx.config));
  });

  app.get('/:protocol/position/tokens/:account/statistic', { preHandler }, async (request) => {
    const { protocol, account } = traderOf(request);
    return tokenStatistics(
      ctx.db,
      protocol,
      account,
      validate(tokenStatisticQuerySchema, request.query, 'query'),
    );
  });

  app.get('/:protocol/position/opening/:account', { preHandler }, async (request) => {
    const { protocol, account } = traderOf(request);
    const query = validate(openingPositionsQuerySchema, request.query, 'query');
    return openingPositions(ctx.db, protocol, account, query);
  });

  app.get('/:protocol/order/:account/last-order', { preHandler }, async (request) => {
    const { protocol, account } = traderOf(request);
    return lastOrder(ctx.db, protocol, account);
  });
}
