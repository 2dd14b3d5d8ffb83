import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { listTokensByProtocol } from '../../market/token-listing';
import type { MarketHealth } from '../../preparation/demo-world';
import type { PreparingProgress } from '../../../shared/api/preparing';

/** What `GET /health` reports besides `status`: the live market, and a preparation under way. */
export interface HealthState {
  market: MarketHealth | null;
  preparing: PreparingProgress | null;
}

/** `GET /pairs/tokens`: the tradable tokens of every protocol. No credentials. */
export function tokenRoutes(app: FastifyInstance, ctx: ServiceContext, health: () => HealthState): void {
  app.get('/pairs/tokens', async () => ({ data: listTokensByProtocol(ctx.db) }));
  // Outside the spec: a liveness probe for the terminal and for load tests, with the live
  // market's state when it runs (`retrying` after a failed tick) and, while the service still
  // prepares its data, where it is (`preparing`: docs/service.md).
  app.get('/health', async () => {
    const { market, preparing } = health();
    return { status: 'ok', ...(market ?? {}), ...(preparing && { preparing }) };
  });
}
