// `prices:candles`: a token's price candles from the service (docs/service.md, "Price candles").
import { candlesQuerySchema } from '../../api/candles';
import { protocolIdSchema, zNonEmpty, zStrict } from '../../api/common';

/** The token and the range: the service's query, with the path's protocol and index token. */
export const pricesCandlesRequestSchema = zStrict({
  protocol: protocolIdSchema,
  indexToken: zNonEmpty(100),
  query: candlesQuerySchema,
});
