import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  PREPARING_RETRY_AFTER_S,
  type PreparingErrorBody,
  type PreparingProgress,
} from '../../shared/api/preparing';
import { errorBody, type SpecialAnswer } from './errors';

/**
 * The routes that answer while the service prepares its data: they read nothing it prepares (the
 * token catalogue is written before the service listens; users and login codes are the service's
 * own). Every other route answers 503 PREPARING until the data is ready (docs/service.md,
 * Listening while preparing).
 */
export const ROUTES_WHILE_PREPARING: ReadonlySet<string> = new Set([
  '/health',
  '/pairs/tokens',
  '/auth/web3/login',
  '/auth/web3/verify-login',
  '/events',
]);

/** The 503 answer of a request that needs data still being prepared. */
export function preparingBody(method: string, path: string, progress: PreparingProgress): PreparingErrorBody {
  const where = progress.total > 1 ? `, ${progress.done} of ${progress.total}` : '';
  return {
    ...errorBody(
      503,
      'PREPARING',
      `the service is preparing its data (step ${progress.step}${where}); ${method} ${path} answers once it is ready, ask again in ${PREPARING_RETRY_AFTER_S} s`,
    ),
    preparing: progress,
  };
}

/**
 * An onRequest hook: while `progress()` is not null, a request for any route outside
 * ROUTES_WHILE_PREPARING answers 503 with `Retry-After` before its handler runs, so nothing
 * changes and a client may send it again, a write included. Unknown paths keep their 404 and
 * CORS preflights their answer.
 */
export function installPreparingGuard(app: FastifyInstance, progress: () => PreparingProgress | null): void {
  app.addHook('onRequest', async (request, reply) => {
    const now = progress();
    if (now === null || request.method === 'OPTIONS') return;
    const route = request.routeOptions.url;
    if (route === undefined || ROUTES_WHILE_PREPARING.has(route)) return;
    return reply
      .code(503)
      .header('retry-after', String(PREPARING_RETRY_AFTER_S))
      .send(preparingBody(request.method, request.url.split('?')[0] ?? request.url, now));
  });
}

/**
 * A write that found the store's write lock held past SQLite's busy timeout while the worker
 * prepares the data (its statistics write is one long transaction: docs/service.md) answers 503
 * PREPARING with `Retry-After`, which a client waits out, instead of a 500. Other failures, and any
 * once the data is prepared, take the decided mapping.
 */
export function busyWhilePreparing(
  progress: () => PreparingProgress | null,
): (error: unknown, request: FastifyRequest) => SpecialAnswer | null {
  return (error, request) => {
    const now = progress();
    if (now === null || (error as { code?: unknown } | null)?.code !== 'SQLITE_BUSY') return null;
    return {
      statusCode: 503,
      headers: { 'retry-after': String(PREPARING_RETRY_AFTER_S) },
      body: preparingBody(request.method, request.url.split('?')[0] ?? request.url, now),
    };
  };
}
