// A token's price candles, outside the spec (docs/service.md, "Price candles"): what the trader
// page draws the trader's entries and exits on. A venue feed's tokens are served the venue's own
// candles (docs/venue-feed.md, Candles). JWT or API key, like the other private reads.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  CANDLE_INTERVAL_MS,
  candlesQuerySchema,
  type CandlesQuery,
  type CandlesResponse,
} from '../../../shared/api/candles';
import { authenticate } from '../../auth/credentials';
import { LiveProtocols } from '../../market/token-listing';
import { buildCandles } from '../../prices/candle-building';
import { PriceSources } from '../../prices/price-sources';
import { VenuePrices } from '../../prices/venue-prices';
import type { VenueCandles } from '../../venues/hyperliquid/venue-candles';
import type { ServiceContext } from '../context';
import { ServiceError } from '../errors';
import { validate } from '../validate';

/** `GET /prices/{protocol}/{indexToken}/candles?from&to&interval`; `candles`: the venue feed's. */
export function candleRoutes(
  app: FastifyInstance,
  ctx: ServiceContext,
  candles: VenueCandles | null = null,
): void {
  const known = new LiveProtocols(ctx.db);
  const sources = new PriceSources(ctx.db, ctx.config.demo);
  const venue = candles && new VenuePrices(ctx.db, candles);
  const credentials = async (request: FastifyRequest) => {
    await authenticate(ctx, request, 'jwtOrApiKey');
  };
  app.get('/prices/:protocol/:indexToken/candles', { preHandler: credentials }, async (request) => {
    const { protocol, indexToken } = request.params as { protocol: string; indexToken: string };
    if (!known.current().has(protocol))
      throw new ServiceError(
        'VALIDATION_FAILED',
        `protocol ${JSON.stringify(protocol.slice(0, 64))} is not a known protocol`,
      );
    const query = validate(candlesQuerySchema, request.query, 'query');
    const symbol = sources.symbol(protocol, indexToken);
    if (symbol === null)
      throw new ServiceError(
        'VALIDATION_FAILED',
        `indexToken ${JSON.stringify(indexToken.slice(0, 100))} is not a token of ${protocol}`,
      );
    if (venue?.protocol === protocol) {
      const { stored, fetch } = await venue.chartCandles(symbol, query.interval, query.from, query.to);
      // The venue's candles when it has any in the range; else the stored fills, saying why.
      if (stored.candles.length > 0) {
        const answer: CandlesResponse = {
          protocol,
          indexToken,
          interval: query.interval,
          source: 'venue',
          candles: stored.candles.map(({ timeMs, open, high, low, close }) => ({
            time: timeMs,
            open,
            high,
            low,
            close,
          })),
          venue: fetch,
        };
        return answer;
      }
      return { ...fromStore(protocol, indexToken, symbol, query), venue: fetch };
    }
    return fromStore(protocol, indexToken, symbol, query);
  });

  /** Candles built from the prices the service stores (the demo market's, or the fills). */
  function fromStore(
    protocol: string,
    indexToken: string,
    symbol: string,
    query: CandlesQuery,
  ): CandlesResponse {
    const prices = sources.inRange(protocol, indexToken, symbol, query.from, query.to);
    const response: CandlesResponse = {
      protocol,
      indexToken,
      interval: query.interval,
      source: prices.source,
      candles: buildCandles(prices.points, query.from, query.to, CANDLE_INTERVAL_MS[query.interval]),
    };
    return response;
  }
}
