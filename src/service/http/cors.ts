import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Request headers a browser may send cross-origin. The real web client sends `authorization`,
 * `content-type` and, on every request, `access-control-max-age` (docs/real-clients.md); its error
 * reporter may add `sentry-trace` and `baggage`. `x-api-key` and `idempotency-key` are the API's own.
 */
export const CORS_ALLOWED_HEADERS = [
  'accept',
  'access-control-max-age',
  'authorization',
  'baggage',
  'content-type',
  'idempotency-key',
  'sentry-trace',
  'x-api-key',
] as const;

/** Methods the service's routes answer. */
export const CORS_ALLOWED_METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;

/** How long a browser may reuse a preflight's answer, in seconds. */
export const CORS_MAX_AGE_S = 600;

/** Response headers a page may read besides the simple ones: the rate limit's wait. */
const EXPOSED_HEADERS = 'retry-after';

/**
 * Cross-origin access for the origins given with `--cors-origin`, and for no other
 * (docs/api.md: none by default; docs/real-clients.md). A preflight from an allowed origin answers
 * 204 with the allowed methods and headers; a preflight from any other origin is not answered as
 * one (it falls through to 404, and the browser blocks the call). Every answer to an allowed origin
 * carries `Access-Control-Allow-Origin` with that origin, errors included, so a page can read
 * why a call failed. No cookies are used, so credentials are never allowed.
 *
 * Installed before the rate limit so that its 429 carries the headers too.
 */
export function installCors(app: FastifyInstance, origins: readonly string[]): void {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  app.addHook('onRequest', async (request, reply) => {
    // Answers differ by Origin, so a cache must key on it whether or not this one is allowed.
    void reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    if (origin === undefined || !allowed.has(origin)) return;
    void reply.header('access-control-allow-origin', origin);
    if (isPreflight(request)) return answerPreflight(reply);
    void reply.header('access-control-expose-headers', EXPOSED_HEADERS);
  });
}

function isPreflight(request: FastifyRequest): boolean {
  return request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
}

function answerPreflight(reply: FastifyReply): FastifyReply {
  return reply
    .code(204)
    .headers({
      'access-control-allow-methods': CORS_ALLOWED_METHODS.join(', '),
      'access-control-allow-headers': CORS_ALLOWED_HEADERS.join(', '),
      'access-control-max-age': String(CORS_MAX_AGE_S),
    })
    .send();
}

/**
 * Parses `--cors-origin` (comma-separated): each entry must be an origin, `scheme://host[:port]`
 * with http or https and nothing after it, as a browser writes it in `Origin`. Returns the list,
 * or the message naming the entry and the rule.
 */
export function parseCorsOrigins(raw: string): { origins: string[] } | { error: string } {
  const origins: string[] = [];
  for (const entry of raw.split(',').map((e) => e.trim())) {
    const url = URL.canParse(entry) ? new URL(entry) : null;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      return {
        error: `--cors-origin: '${entry}' is not an origin; write it as http(s)://host[:port], without a path`,
      };
    const origin = url.origin;
    // A browser's Origin header has no default port, no upper case and no path: an entry written
    // otherwise would never match, so say the form it must take.
    if (origin !== entry.replace(/\/$/, ''))
      return {
        error: `--cors-origin: '${entry}' would never match a browser's Origin header; write it as '${origin}' (no path, no default port, lower case)`,
      };
    origins.push(origin);
  }
  return { origins };
}
