import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCorsOrigins } from '../../src/service/http/cors';
import { startTestService, type RunningService } from '../support/service';
import { spawnServiceProcess } from '../support/service-process';

const CLIENT = 'http://localhost:3000';
const OTHER_CLIENT = 'https://copy.example.org';
const FOREIGN = 'http://evil.example.com';

let svc: RunningService;
let closed: RunningService;
beforeAll(async () => {
  svc = await startTestService({ corsOrigins: [CLIENT, OTHER_CLIENT] });
  closed = await startTestService();
});
afterAll(async () => {
  await svc.close();
  await closed.close();
});

/** A browser's preflight of a GET with the headers the real web client sends. */
const preflight = (base: string, origin: string, path = '/pairs/tokens') =>
  fetch(`${base}${path}`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'access-control-max-age,authorization,content-type',
    },
  });

describe('--cors-origin', () => {
  it('answers a preflight from a listed origin with the methods and the headers the client sends', async () => {
    for (const origin of [CLIENT, OTHER_CLIENT]) {
      const res = await preflight(svc.url, origin);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      const headers = res.headers.get('access-control-allow-headers')!.split(', ');
      expect(headers).toEqual(
        expect.arrayContaining(['authorization', 'content-type', 'access-control-max-age']),
      );
      expect(headers).toContain('x-api-key');
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, DELETE');
      expect(res.headers.get('access-control-max-age')).toBe('600');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(res.headers.get('vary')).toMatch(/Origin/);
    }
  });

  it('answers a preflight for a route with a path parameter too, before any credential check', async () => {
    const res = await preflight(svc.url, CLIENT, '/public/NOVA_ARB/position/statistic/filter');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(CLIENT);
  });

  it('gives a foreign origin no allow header, on the preflight or on the call', async () => {
    const pre = await preflight(svc.url, FOREIGN);
    expect(pre.status).toBe(404);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    expect(pre.headers.get('access-control-allow-headers')).toBeNull();
    const call = await fetch(`${svc.url}/pairs/tokens`, { headers: { origin: FOREIGN } });
    expect(call.status).toBe(200);
    expect(call.headers.get('access-control-allow-origin')).toBeNull();
    expect(call.headers.get('vary')).toMatch(/Origin/);
  });

  it('compares the whole origin: another port or scheme of a listed host is foreign', async () => {
    for (const origin of ['http://localhost:3001', 'https://localhost:3000', 'http://copy.example.org']) {
      const res = await preflight(svc.url, origin);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('sets the allow header on answers to a listed origin, errors included, and exposes Retry-After', async () => {
    const ok = await fetch(`${svc.url}/pairs/tokens`, { headers: { origin: CLIENT } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(CLIENT);
    expect(ok.headers.get('access-control-expose-headers')).toBe('retry-after');
    const denied = await fetch(`${svc.url}/NOVA_ARB/position/statistic/filter`, {
      method: 'POST',
      headers: { origin: CLIENT, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('access-control-allow-origin')).toBe(CLIENT);
    const missing = await fetch(`${svc.url}/no/such/route`, { headers: { origin: CLIENT } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe(CLIENT);
  });

  it('with no --cors-origin (the default) answers no preflight and sets no header for anyone', async () => {
    expect(closed.service.config.corsOrigins).toEqual([]);
    const pre = await preflight(closed.url, CLIENT);
    expect(pre.status).toBe(404);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    const call = await fetch(`${closed.url}/pairs/tokens`, { headers: { origin: CLIENT } });
    expect(call.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('a rate-limited answer to a listed origin', () => {
  let limited: RunningService;
  beforeAll(async () => {
    limited = await startTestService({ corsOrigins: [CLIENT], rateLimit: { perSecond: 1, burst: 1 } });
  });
  afterAll(() => limited.close());

  it('carries the allow header, so the page can read its Retry-After', async () => {
    await fetch(`${limited.url}/pairs/tokens`, { headers: { origin: CLIENT } });
    const res = await fetch(`${limited.url}/pairs/tokens`, { headers: { origin: CLIENT } });
    expect(res.status).toBe(429);
    expect(res.headers.get('access-control-allow-origin')).toBe(CLIENT);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

describe('parseCorsOrigins (the --cors-origin flag)', () => {
  it('takes a comma-separated list of origins, a trailing slash allowed', () => {
    expect(parseCorsOrigins('http://localhost:3000, https://copy.example.org/')).toEqual({
      origins: ['http://localhost:3000', 'https://copy.example.org'],
    });
  });

  it.each(['*', 'localhost:3000', 'ftp://example.org', 'http://a.org,'])(
    'refuses %j naming the entry and the rule',
    (raw) => {
      const parsed = parseCorsOrigins(raw);
      expect(parsed).toHaveProperty('error');
      expect((parsed as { error: string }).error).toMatch(
        /^--cors-origin: '.*' is not an origin; write it as/,
      );
    },
  );

  it.each([
    ['http://localhost:3000/app', 'http://localhost:3000'],
    ['http://a.com:80', 'http://a.com'],
    ['https://a.com:443', 'https://a.com'],
    ['HTTP://A.COM', 'http://a.com'],
  ])('refuses %j, which no Origin header matches, and says to write %j', (raw, origin) => {
    const parsed = parseCorsOrigins(raw);
    expect((parsed as { error: string }).error).toBe(
      `--cors-origin: '${raw}' would never match a browser's Origin header; write it as '${origin}' (no path, no default port, lower case)`,
    );
  });
});

describe('the command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'copydesk-cors-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves CORS and anonymous public reads when started with --cors-origin and --public-anonymous', async () => {
    const proc = spawnServiceProcess(join(dir, 'service.db'), [
      '--cors-origin',
      `${CLIENT},${OTHER_CLIENT}`,
      '--public-anonymous',
    ]);
    try {
      const url = await proc.url;
      const pre = await preflight(url, OTHER_CLIENT);
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe(OTHER_CLIENT);
      const anonymous = await fetch(`${url}/public/position/statistic/exchange/0x${'1'.repeat(40)}`, {
        headers: { origin: CLIENT },
      });
      expect(anonymous.status).toBe(200);
      expect(await anonymous.json()).toEqual({});
    } finally {
      proc.child.kill();
    }
  });

  it('refuses a bad --cors-origin with exit code 2 and the rule', async () => {
    const proc = spawnServiceProcess(join(dir, 'bad.db'), ['--cors-origin', 'http://localhost:3000/app']);
    // It never listens: its URL promise rejects when it exits.
    proc.url.catch(() => undefined);
    const code = await new Promise<number | null>((resolve) => proc.child.once('exit', resolve));
    expect(code).toBe(2);
  });
});
