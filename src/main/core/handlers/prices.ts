// `prices:candles` (docs/service.md, Price candles): a token's candles from the active service.
// Not cached: a chart asks for a range once, and the latest candle is still moving.
import type { ServiceClient } from '../client/service-client';
import type { Handlers } from './handlers';

export interface PriceHandlerDeps {
  /** The active profile's client, with its credentials (JWT and/or API key). */
  client: () => Promise<ServiceClient>;
}

/** The price channels. */
export function createPriceHandlers(deps: PriceHandlerDeps): Pick<Handlers, 'prices:candles'> {
  return {
    'prices:candles': async (request) =>
      (await deps.client()).candles(request.protocol, request.indexToken, request.query),
  };
}
