import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { listTokensByProtocol } from '../../market/tokens';
import type { MarketHealth } from '../../world';

/** `GET /pairs/tokens`: the tradable tokens of every protocol. No credentials. */
export function tokenRoutes(
  app: FastifyInstance,
  ctx: ServiceContext,
  market: () => MarketHealth | null,
): void {
  app.get('/pairs/tokens', async () => ({ data: listTokensByProtocol(ctx.db) }));
  // Outside the spec: a liveness probe for the terminal and for load tests, with the live
  // market's state when it runs (`retrying` after a failed tick: docs/service.md).
  app.get('/health', async () => ({ status: 'ok', ...(market() ?? {}) }));
}
