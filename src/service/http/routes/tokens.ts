import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { listTokensByProtocol } from '../../market/tokens';

/** `GET /pairs/tokens`: the tradable tokens of every protocol. No credentials. */
export function tokenRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.get('/pairs/tokens', async () => ({ data: listTokensByProtocol(ctx.db) }));
  // Outside the spec: a liveness probe for the terminal and for load tests (a constant answer).
  app.get('/health', async () => ({ status: 'ok' }));
}
