import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { eventNames, WEB_EVENTS_PATH, WEB_IPC_PREFIX, WEB_TOKEN_HEADER, WEB_TOKEN_QUERY } from '../../shared';
import type { Core } from '../core/core';
import { decodePath } from './decode-path';
import { readStatic } from './static-files';

export interface WebShellOptions {
  core: Core;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** 0 picks a free port. */
  port?: number;
  /** Fixed for tests; random per run otherwise. */
  token?: string;
}

export interface WebShell {
  /** The URL to open, token included. */
  url: string;
  origin: string;
  token: string;
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;
/**
 * Event sockets one web shell keeps open: a page opens one, a few tabs a few. Past this the
 * oldest is closed (1008), so a page that reconnects in a loop cannot pile sockets up. The per-run
 * token does not expire, so no socket is closed for that (docs/security.md, Web shell).
 */
export const MAX_EVENT_SOCKETS = 8;
const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // The token rides in the first URL; never let it leak through a Referer.
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/**
 * The web shell: serves the built renderer and the IPC contract to a browser on 127.0.0.1 only.
 * Every call needs the per-run token; requests from any other origin or host are refused.
 */
export async function startWebShell(options: WebShellOptions): Promise<WebShell> {
  const token = options.token ?? randomBytes(24).toString('base64url');
  const server = createServer();
  const sockets = new WebSocketServer({ noServer: true });
  let origin = '';
  const allowedHosts = () => [origin.replace('http://', ''), origin.replace('http://127.0.0.1', 'localhost')];
  const allowedOrigins = () => [origin, origin.replace('127.0.0.1', 'localhost')];

  const guard = (req: IncomingMessage): string | null => {
    if (!allowedHosts().includes(req.headers.host ?? '')) return 'unexpected Host header';
    const from = req.headers.origin;
    if (from !== undefined && !allowedOrigins().includes(from)) return `requests from ${from} are refused`;
    return null;
  };

  // One place answers every request, and one catch answers a handler that fails: no request,
  // however malformed, may end the process that holds the core.
  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refused = guard(req);
    if (refused) return send(res, 403, { ok: false, error: { code: 'FORBIDDEN', message: refused } });
    const url = parseTarget(req.url, origin);
    if (!url) return send(res, 400, badRequest('the request target is not a valid path'));
    if (url.pathname.startsWith(WEB_IPC_PREFIX)) return handleIpc(req, res, url, options.core, token);
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return send(res, 405, { ok: false, error: { code: 'FORBIDDEN', message: 'method not allowed' } });
    // A malformed escape names no page: refused here, before the page fallback would answer it.
    if (decodePath(url.pathname) === null)
      return send(res, 400, badRequest('the path is not validly escaped'));
    return serveStatic(res, options.rendererDir, url.pathname);
  };
  server.on('request', (req, res) => {
    answer(req, res).catch((error: unknown) => failed(res, error));
  });

  server.on('upgrade', (req, socket, head) => {
    const url = parseTarget(req.url, origin);
    if (
      !url ||
      guard(req) !== null ||
      url.pathname !== WEB_EVENTS_PATH ||
      !sameToken(url.searchParams.get(WEB_TOKEN_QUERY), token)
    ) {
      socket.write('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return socket.destroy();
    }
    sockets.handleUpgrade(req, socket, head, (ws) => {
      attachEvents(ws, options.core);
      closeOldestBeyond(sockets.clients, MAX_EVENT_SOCKETS);
    });
  });

  await new Promise<void>((done, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => done());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/?${WEB_TOKEN_QUERY}=${token}`,
    origin,
    token,
    close: async () => {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

async function handleIpc(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  core: Core,
  token: string,
): Promise<void> {
  if (req.method !== 'POST')
    return send(res, 405, { ok: false, error: { code: 'FORBIDDEN', message: 'IPC calls are POST' } });
  if (!sameToken(headerOf(req, WEB_TOKEN_HEADER), token)) {
    return send(res, 401, {
      ok: false,
      error: {
        code: 'UNAUTHORIZED',
        message: 'This page is not the one Copydesk opened: reopen the URL it printed.',
      },
    });
  }
  let body: unknown;
  try {
    body = await readJson(req);
  } catch (error) {
    return send(res, 400, {
      ok: false,
      error: { code: 'VALIDATION_FAILED', message: (error as Error).message },
    });
  }
  const channel = decodePath(url.pathname.slice(WEB_IPC_PREFIX.length));
  if (channel === null) return send(res, 400, badRequest('the channel name is not validly escaped'));
  send(res, 200, await core.invoke(channel, body));
}

/** Closes the oldest open sockets until at most `max` remain open (a Set keeps insertion order). */
function closeOldestBeyond(clients: Set<WebSocket>, max: number): void {
  const open = [...clients].filter((client) => client.readyState === client.OPEN);
  for (const client of open.slice(0, Math.max(0, open.length - max)))
    client.close(1008, 'too many event sockets: the oldest is closed');
}

function attachEvents(ws: WebSocket, core: Core): void {
  const forward = (event: string, payload: unknown) => ws.send(JSON.stringify({ event, payload }));
  // A page that connects late still learns the current service state.
  for (const event of eventNames) {
    const latest = core.events.latest(event);
    if (latest !== undefined) forward(event, latest);
  }
  const off = core.events.onAny(forward, eventNames);
  ws.on('close', off);
  ws.on('message', () => undefined);
}

async function serveStatic(res: ServerResponse, root: string, path: string): Promise<void> {
  const file = (await readStatic(root, path)) ?? (path.includes('.') ? null : await readStatic(root, '/'));
  if (!file) return send(res, 404, { ok: false, error: { code: 'NOT_FOUND', message: `${path} not found` } });
  res.writeHead(200, { 'content-type': file.type, ...SECURITY_HEADERS });
  res.end(file.body);
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new Error('the request must be at most 1 MiB'));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return resolve({});
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new Error('the request is not valid JSON'));
      }
    });
    req.on('error', reject);
  });
}

/**
 * The request's target as a URL on this shell's origin, or null when it is not a path (`//[`,
 * `*`, an absolute URL of another host).
 */
function parseTarget(target: string | undefined, origin: string): URL | null {
  if (!target?.startsWith('/') || target.startsWith('//')) return null;
  try {
    return new URL(target, origin);
  } catch {
    return null;
  }
}

function badRequest(message: string) {
  return { ok: false, error: { code: 'VALIDATION_FAILED', message } };
}

/** The answer of a handler that threw: logged here, a 500 to the page (or a closed socket). */
function failed(res: ServerResponse, error: unknown): void {
  console.error('[copydesk web] a request failed:', error);
  if (res.headersSent) return void res.destroy();
  send(res, 500, {
    ok: false,
    error: { code: 'INTERNAL', message: 'the web shell could not answer this request' },
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...SECURITY_HEADERS });
  res.end(JSON.stringify(body));
}

function headerOf(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return typeof value === 'string' ? value : null;
}

function sameToken(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
