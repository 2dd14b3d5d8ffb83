import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import { decodeJwt } from 'jose';
import type { ServiceContext } from '../context';
import { authenticate, bearerToken } from '../../auth/credentials';
import type { CopyEvent } from '../../copy-engine/types';

/** Keeps proxies and the client's timeout from closing an idle stream. */
const HEARTBEAT_MS = 15_000;
/** How often an open stream checks its token against the service clock. */
const EXPIRY_CHECK_MS = 1_000;
/**
 * Open streams per user. A terminal holds one; a few more cover a second window and a reconnect
 * racing the old stream's close. Opening one more closes that user's oldest (the newest is the
 * one a client is waiting on; a stale half-open stream is the likely oldest).
 */
export const EVENT_STREAMS_PER_USER = 5;

/**
 * `GET /events` (JWT, outside the spec): the caller's own copy events as server-sent events —
 * `id: <id>`, `event: <kind>` and `data: <json>` per event — so the terminal updates without
 * polling. A client that reconnects with `Last-Event-ID` first gets the events it missed (from
 * the bounded ring of UserEvents), or `event: resync` when they cannot all be replayed. The
 * stream ends when its token expires, and when the user opens more than EVENT_STREAMS_PER_USER.
 */
export function eventRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const open = new Map<string, Set<() => void>>();

  app.get('/events', async (request, reply) => {
    const caller = await authenticate(ctx, request, 'jwt');
    if (caller.kind !== 'user') return;
    const userId = caller.user.id;
    const expiresAtMs = tokenExpiryMs(bearerToken(request.headers.authorization));
    const lastId = header(request.headers['last-event-id']);
    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    out.write(': connected\n\n');
    const send = (event: CopyEvent, id: string) => {
      const { kind, userId: _userId, ...payload } = event;
      out.write(`id: ${id}\nevent: ${kind}\ndata: ${JSON.stringify(payload)}\n\n`);
    };
    if (lastId !== null) {
      const missed = ctx.events.since(userId, lastId);
      if (missed === null)
        out.write(
          `event: resync\ndata: ${JSON.stringify({ reason: 'missed events cannot be replayed; reload' })}\n\n`,
        );
      else for (const { event, id } of missed) send(event, id);
    }
    const unsubscribe = ctx.events.subscribe(userId, send);
    let streams = open.get(userId);
    if (!streams) open.set(userId, (streams = new Set()));
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(timer);
      unsubscribe();
      streams.delete(end);
      if (streams.size === 0 && open.get(userId) === streams) open.delete(userId);
      endResponse(out);
    };
    let ticks = 0;
    const timer = setInterval(() => {
      if (expiresAtMs !== null && ctx.config.now().getTime() >= expiresAtMs) return end();
      ticks += 1;
      if (ticks % (HEARTBEAT_MS / EXPIRY_CHECK_MS) === 0) out.write(': heartbeat\n\n');
    }, EXPIRY_CHECK_MS);
    timer.unref();
    streams.add(end);
    // Sets iterate in insertion order: the first is the oldest.
    while (streams.size > EVENT_STREAMS_PER_USER) streams.values().next().value?.();
    request.raw.once('close', end);
  });
}

function endResponse(out: ServerResponse): void {
  if (!out.writableEnded) out.end();
  // The client may never read the end: the socket must go too.
  out.socket?.destroySoon?.();
}

/** When the (already verified) token expires, from its `exp`; null when it carries none. */
function tokenExpiryMs(token: string | null): number | null {
  if (token === null) return null;
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    return null;
  }
}

function header(value: string | string[] | undefined): string | null {
  const first = Array.isArray(value) ? value[0] : value;
  return first && first.trim().length > 0 ? first.trim().slice(0, 100) : null;
}
