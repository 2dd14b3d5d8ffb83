// Backtests (issue 16; docs/backtest.md): what copy settings would have done over a trader's
// stored orders. JWT or API key, like the other private reads.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { backtestRequestSchema, sweepRequestSchema } from '../../../shared/api/backtest';
import { authenticate } from '../../auth/credentials';
import { Backtests } from '../../backtest/backtests';
import { LiveProtocols } from '../../market/token-listing';
import { VenuePrices } from '../../prices/venue-prices';
import type { VenueCandles } from '../../venues/hyperliquid/venue-candles';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { validate } from '../validate';

/**
 * `POST /{protocol}/back-testing/multiple-order` and `POST /{protocol}/back-testing/sweep`;
 * `candles`: the venue feed's, which its protocol's traders walk.
 */
export function backtestRoutes(
  app: FastifyInstance,
  ctx: ServiceContext,
  candles: VenueCandles | null = null,
): void {
  const backtests = new Backtests(ctx.db, {
    demo: ctx.config.demo,
    nowMs: () => ctx.config.now().getTime(),
    venue: candles && new VenuePrices(ctx.db, candles),
  });
  const known = new LiveProtocols(ctx.db);
  const protocolOf = (request: FastifyRequest): string => {
    const { protocol } = request.params as { protocol: string };
    if (!known.current().has(protocol))
      throw new ServiceError(
        'VALIDATION_FAILED',
        `protocol ${JSON.stringify(protocol.slice(0, 64))} is not a known protocol`,
      );
    return protocol;
  };
  const credentials = async (request: FastifyRequest) => {
    await authenticate(ctx, request, 'jwtOrApiKey');
  };
  app.post('/:protocol/back-testing/multiple-order', { preHandler: credentials }, async (request) => {
    const protocol = protocolOf(request);
    const body = validate(backtestRequestSchema, request.body);
    await backtests.fetchPrices(protocol, body);
    return backtests.multipleOrder(protocol, body);
  });
  app.post('/:protocol/back-testing/sweep', { preHandler: credentials }, async (request) => {
    const protocol = protocolOf(request);
    const body = validate(sweepRequestSchema, request.body);
    await backtests.fetchPrices(protocol, body);
    return backtests.sweep(protocol, body);
  });
  app.addHook('onClose', () => backtests.close());
}
