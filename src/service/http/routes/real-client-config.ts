import type { FastifyInstance } from 'fastify';
import { tradingEventListQuerySchema, type TradingEvent } from '../../../shared/api/real-client';
import { zStrict } from '../../../shared/api/common';
import type { ServiceContext } from '../context';
import { validate } from '../validate';
import { LiveProtocols } from '../../market/token-listing';
import { permissionsOf, systemConfigOf } from '../../real-client/configuration';

/** The three calls take no parameters; any given is a mistake worth a 400. */
const noQuerySchema = zStrict({});

/**
 * The configuration the real web client loads before it shows anything (outside the spec;
 * docs/real-clients.md). No credentials: it describes the service, not anyone's data, and the
 * client loads it logged out.
 */
export function realClientConfigRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const protocols = new LiveProtocols(ctx.db);
  const startedAt = ctx.config.now().toISOString();
  app.get('/permissions/all', async (request) => {
    validate(noQuerySchema, request.query, 'query');
    return permissionsOf([...protocols.current()].sort(), ctx.config);
  });
  app.get('/public/system-configs', async (request) => {
    validate(noQuerySchema, request.query, 'query');
    return systemConfigOf(ctx.config, startedAt);
  });
  // The local service runs no trading events: the list is empty, public or not.
  app.get('/public/trading-event/list', async (request): Promise<TradingEvent[]> => {
    validate(tradingEventListQuerySchema, request.query, 'query');
    return [];
  });
}
