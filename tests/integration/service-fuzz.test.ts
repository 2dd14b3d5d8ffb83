// Every route of the service, found from the service itself, sent random paths, query strings,
// headers and bodies over real HTTP: no answer is a 5xx, and the service keeps answering
// (issue 15, item 11). A new route is fuzzed without touching this file.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyFor, loginAs } from '../support/credentials';
import { startTestService, type RunningService } from '../support/service';

const ADMIN_KEY = 'fuzz-admin-key-0123456789';
let svc: RunningService;
let token: string;
let apiKey: string;

interface Route {
  method: string;
  path: string;
}

/**
 * The routes Fastify lists (`printRoutes` with full paths): a tree whose nested lines extend their
 * parent's path. HEAD copies of GET routes are left out; event streams are never fuzzed for
 * their body (they stay open), only for their credentials.
 */
function routesOf(tree: string): Route[] {
  const stack: string[] = [];
  const routes: Route[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(\S+)(?: \(([^)]+)\))?/.exec(line);
    if (!match) continue;
    const depth = (match[1] as string).length / 4;
    const path = (stack[depth - 1] ?? '') + (match[2] as string);
    stack[depth] = path;
    stack.length = depth + 1;
    for (const method of (match[3] ?? '').split(', ').filter((m) => m && m !== 'HEAD'))
      routes.push({ method, path });
  }
  return routes;
}

beforeAll(async () => {
  svc = await startTestService({ seedFixture: true, adminKey: ADMIN_KEY });
  token = (await loginAs(svc)).token;
  apiKey = apiKeyFor(svc);
});
afterAll(async () => {
  await svc?.close();
});

const segment = fc.oneof(
  fc.constantFrom(
    'NOVA_ARB',
    'HYPERLIQUID',
    'nova_arb',
    '0x0000000000000000000000000000000000000001',
    '1',
    '%ZZ',
    '..',
    '',
  ),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
);
const query = fc.oneof(
  fc.constant(''),
  fc
    .dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 12 }), { maxKeys: 3 })
    .map((q) => `?${new URLSearchParams(q).toString()}`),
  fc.constantFrom('?limit=-1', '?limit=1e99', '?offset=abc', '?limit=100000&offset=-5', '?%ZZ=1'),
);
/** Shapes an attacker sends on purpose: lists far past any cap, numbers past any bound. */
const hostile = fc.constantFrom(
  JSON.stringify({ queries: Array.from({ length: 1_001 }, () => ({ fieldName: 'type', value: 'D30' })) }),
  JSON.stringify({ ranges: Array.from({ length: 1_001 }, () => ({ fieldName: 'pnl', gte: 0 })) }),
  JSON.stringify({ ranges: [{ fieldName: 'pnl', in: Array.from({ length: 5_000 }, (_, i) => i) }] }),
  JSON.stringify({ pagination: { limit: 1e19, offset: 1e19 }, sortBy: 'pnl', sortType: 'desc' }),
  JSON.stringify({ lookBackOrders: 1e19, volume: 1e308, leverage: 1e19, maxVolMultiplier: 1e300 }),
  JSON.stringify({
    query:
      'query Q($body: SearchPayload!) { searchPositionStatistic(index: "local.position_statistics", body: $body) { data { account } } }',
    variables: {
      body: {
        filter: { and: Array.from({ length: 1_001 }, () => ({ field: 'type', match: 'D30' })) },
        sorts: Array.from({ length: 1_001 }, () => ({ field: 'pnl', direction: 'desc' })),
      },
    },
  }),
);
const body = fc.oneof(
  fc.constant(undefined),
  hostile,
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc
    .object({ maxDepth: 2 })
    .map((v) => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? String(x) : x))),
  fc.constantFrom(
    '{',
    '[]',
    'null',
    '{"pagination":{"limit":1e400}}',
    '{"queries":"x"}',
    '\u0000',
    'a'.repeat(2000),
  ),
);
const credentials = fc.constantFrom('none', 'jwt', 'apiKey', 'junk', 'admin');

function headersFor(kind: string, withBody: boolean, contentType: string): Record<string, string> {
  const headers: Record<string, string> = withBody ? { 'content-type': contentType } : {};
  if (kind === 'jwt') headers.authorization = `Bearer ${token}`;
  if (kind === 'apiKey') headers['x-api-key'] = apiKey;
  if (kind === 'junk') headers.authorization = 'bearer  x.y.z';
  if (kind === 'admin') headers['x-admin-key'] = ADMIN_KEY;
  return headers;
}

describe('the service under random requests', () => {
  it('answers every route with no 5xx and keeps answering', async () => {
    const routes = routesOf(svc.service.app.printRoutes({ commonPrefix: false }));
    // The tree holds the spec's routes and ours: far more than a handful, and these among them.
    expect(routes.length).toBeGreaterThan(25);
    expect(routes).toContainEqual({ method: 'POST', path: '/:protocol/position/statistic/filter' });
    expect(routes).toContainEqual({ method: 'POST', path: '/copy-trades' });
    const fuzzed = routes.filter((r) => r.path !== '/events');
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...fuzzed),
        fc.array(segment, { minLength: 3, maxLength: 3 }),
        query,
        body,
        credentials,
        fc.constantFrom('application/json', 'text/plain', 'application/json; charset=latin1'),
        async (route, segments, q, payload, kind, contentType) => {
          let i = 0;
          const path = route.path.replace(/:[a-zA-Z]+/g, () => segments[i++] ?? 'x');
          const withBody = route.method !== 'GET' && payload !== undefined;
          const response = await fetch(`${svc.url}${path}${q}`, {
            method: route.method,
            headers: headersFor(kind, withBody, contentType),
            ...(withBody && { body: payload }),
          });
          const text = await response.text();
          if (response.status >= 500)
            failures.push(
              `${route.method} ${path}${q} (${kind}) ${payload?.slice(0, 200)} → ${response.status} ${text.slice(0, 200)}`,
            );
          return response.status < 500;
        },
      ),
      { numRuns: 400, seed: 15 },
    );
    expect(failures).toEqual([]);
    expect((await fetch(`${svc.url}/health`)).status).toBe(200);
  });

  it('answers every hostile body on every route, with each credential, with no 5xx', async () => {
    const routes = routesOf(svc.service.app.printRoutes({ commonPrefix: false })).filter(
      (r) => r.method !== 'GET',
    );
    const bodies = fc.sample(hostile, { numRuns: 60, seed: 3 });
    expect(new Set(bodies).size).toBe(6);
    const failures: string[] = [];
    for (const route of routes)
      for (const payload of new Set(bodies))
        for (const kind of ['jwt', 'apiKey', 'admin']) {
          const path = route.path.replace(/:protocol/g, 'NOVA_ARB').replace(/:[a-zA-Z]+/g, '1');
          const response = await fetch(`${svc.url}${path}`, {
            method: route.method,
            headers: headersFor(kind, true, 'application/json'),
            body: payload,
          });
          const text = await response.text();
          if (response.status >= 500)
            failures.push(
              `${route.method} ${path} (${kind}) ${payload.slice(0, 120)} → ${response.status} ${text.slice(0, 200)}`,
            );
        }
    expect(failures).toEqual([]);
  });

  it('answers random paths and methods with 4xx, never 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(segment, { minLength: 1, maxLength: 5 }),
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
        async (segments, method) => {
          const response = await fetch(`${svc.url}/${segments.join('/')}`, { method });
          await response.text();
          return response.status >= 400 && response.status < 500 ? true : response.status < 300;
        },
      ),
      { numRuns: 200, seed: 16 },
    );
    expect((await fetch(`${svc.url}/health`)).status).toBe(200);
  });
});
