// The service's answers while it prepares its data (docs/service.md, Listening while preparing):
// the routes that need no prepared data answer, every other one 503 PREPARING with Retry-After and
// the step, before its handler runs; a write that found the store busy meanwhile is told to retry.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installErrorHandlers } from '../../../../src/service/http/errors';
import { busyWhilePreparing, installPreparingGuard } from '../../../../src/service/http/preparing-guard';
import { preparingErrorBodySchema, type PreparingProgress } from '../../../../src/shared/api/preparing';

/** A service with a guarded route, the login route (which may find the store busy), and health. */
function service() {
  let progress: PreparingProgress | null = { step: 'positions', done: 1200, total: 5000 };
  let ran = 0;
  const app = Fastify();
  installErrorHandlers(
    app,
    busyWhilePreparing(() => progress),
  );
  installPreparingGuard(app, () => progress);
  app.post('/NOVA_ARB/position/statistic/filter', async () => {
    ran += 1;
    return { data: [] };
  });
  app.post('/auth/web3/login', async () => {
    throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
  });
  app.get('/health', async () => ({ status: 'ok' }));
  return {
    app,
    ran: () => ran,
    prepared: () => {
      progress = null;
    },
  };
}

describe('a service preparing its data', () => {
  it('answers 503 PREPARING with Retry-After and the step, and runs no handler', async () => {
    const s = service();
    const answer = await s.app.inject({
      method: 'POST',
      url: '/NOVA_ARB/position/statistic/filter?x=1',
      payload: {},
    });
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    const body = preparingErrorBodySchema.parse(answer.json());
    expect(body).toMatchObject({
      statusCode: 503,
      error: 'Service Unavailable',
      code: 'PREPARING',
      preparing: { step: 'positions', done: 1200, total: 5000 },
    });
    expect(body.message).toBe(
      'the service is preparing its data (step positions, 1200 of 5000); POST /NOVA_ARB/position/statistic/filter answers once it is ready, ask again in 1 s',
    );
    expect(s.ran()).toBe(0);
  });

  it('lets health, unknown paths and CORS preflights through', async () => {
    const s = service();
    expect((await s.app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    expect((await s.app.inject({ method: 'GET', url: '/no/such/path' })).json()).toMatchObject({
      statusCode: 404,
      code: 'NOT_FOUND',
    });
    const preflight = await s.app.inject({ method: 'OPTIONS', url: '/NOVA_ARB/position/statistic/filter' });
    expect(preflight.statusCode).not.toBe(503);
  });

  it('tells a write that found the store busy to retry, and only while preparing', async () => {
    const s = service();
    const busy = await s.app.inject({ method: 'POST', url: '/auth/web3/login', payload: {} });
    expect(busy.statusCode).toBe(503);
    expect(busy.headers['retry-after']).toBe('1');
    expect(busy.json()).toMatchObject({ code: 'PREPARING' });

    s.prepared();
    const after = await s.app.inject({ method: 'POST', url: '/auth/web3/login', payload: {} });
    expect(after.statusCode).toBe(500);
    expect(after.json()).toMatchObject({ code: 'INTERNAL' });
  });

  it('answers everything once prepared', async () => {
    const s = service();
    s.prepared();
    const answer = await s.app.inject({
      method: 'POST',
      url: '/NOVA_ARB/position/statistic/filter',
      payload: {},
    });
    expect(answer.statusCode).toBe(200);
    expect(s.ran()).toBe(1);
  });
});
