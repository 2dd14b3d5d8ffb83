import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { authenticate } from '../../auth/credentials';

/** Keeps proxies and the client's timeout from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

/**
 * `GET /events` (JWT, outside the spec): the caller's own copy events as server-sent events —
 * `event: <kind>` and `data: <json>` per event — so the terminal updates without polling.
 */
export function eventRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.get('/events', async (request, reply) => {
    const caller = await authenticate(ctx, request, 'jwt');
    if (caller.kind !== 'user') return;
    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    out.write(': connected\n\n');
    const unsubscribe = ctx.events.subscribe(caller.user.id, (event) => {
      const { kind, userId: _userId, ...payload } = event;
      out.write(`event: ${kind}\ndata: ${JSON.stringify(payload)}\n\n`);
    });
    const heartbeat = setInterval(() => out.write(': heartbeat\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    request.raw.once('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
    });
  });
}
