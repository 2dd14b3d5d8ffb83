// ServiceClient retries (429 with Retry-After, network errors), writes that never retry, and the
// tolerant reader on the "also seen" shapes of docs/api.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loginMessage } from '../../src/shared/api/auth';
import { DEMO_PRIVATE_KEY } from '../../src/service/fixture/seed';
import type { ServiceProfile } from '../../src/shared/profile';
import { ServiceClient } from '../../src/main/core/client/service-client';
import { staticCredentials } from '../../src/main/core/client/credentials';
import { ServiceRequestError } from '../../src/main/core/client/http';
import { startTestService, type RunningService } from '../support/service';
import { loginAs } from '../support/credentials';

const profileOf = (svc: RunningService): ServiceProfile => ({
  id: 'test',
  name: 'Test service',
  kind: 'local',
  baseUrl: svc.url,
  serviceName: svc.service.config.serviceName,
  venue: svc.service.config.venue,
  graphqlNamespace: svc.service.config.graphqlNamespace,
});

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('retries against a rate-limited service', () => {
  let svc: RunningService;
  let token: string;
  let requests: string[];
  let sleeps: number[];
  let client: ServiceClient;

  beforeAll(async () => {
    svc = await startTestService({ rateLimit: { perSecond: 1, burst: 1 } });
    // Logging in takes two requests; the bucket refills between them. Login is not retried.
    const account = privateKeyToAccount(generatePrivateKey());
    const client = new ServiceClient(profileOf(svc));
    const verifyCode = await client.login(account.address);
    svc.clock.advance(10_000);
    const time = svc.clock.now().toISOString();
    const sign = await account.signMessage({
      message: loginMessage(svc.service.config.serviceName, time, verifyCode),
    });
    token = (await client.verifyLogin({ address: account.address, sign, time })).access_token;
  });
  afterAll(() => svc.close());

  const setUp = () => {
    requests = [];
    sleeps = [];
    svc.clock.advance(10_000);
    client = new ServiceClient(profileOf(svc), {
      credentials: staticCredentials({ accessToken: token }),
      fetch: (input, init) => {
        requests.push(`${init?.method} ${new URL(String(input)).pathname}`);
        return fetch(input, init);
      },
      // Waiting moves the service clock instead of the test's.
      sleep: async (ms) => {
        sleeps.push(ms);
        svc.clock.advance(ms);
      },
    });
  };

  it('retries a read after 429, waiting what Retry-After asks', async () => {
    setUp();
    await client.tokens();
    const tokens = await client.tokens();
    expect(tokens).toEqual(expect.any(Object));
    expect(requests).toEqual(['GET /pairs/tokens', 'GET /pairs/tokens', 'GET /pairs/tokens']);
    expect(sleeps).toEqual([1000]);
  });

  it('retries a read-only POST filter (copy trades list)', async () => {
    setUp();
    await client.listCopyWallets();
    expect(await client.listCopyTrades()).toEqual([]);
    expect(requests).toHaveLength(3);
    expect(sleeps).toEqual([1000]);
  });

  it('never retries a write: the 429 reaches the caller with its wait', async () => {
    setUp();
    await client.listCopyWallets();
    const error = await client.closeCopyPosition('some-id').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceRequestError);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429, retryAfterMs: 1000 });
    expect(requests).toEqual(['GET /copy-wallets/list', 'POST /copy-positions/some-id/close']);
    expect(sleeps).toEqual([]);
  });
});

describe('retry policy with a fake transport', () => {
  const profile: ServiceProfile = {
    id: 'fake',
    name: 'Fake',
    kind: 'remote',
    baseUrl: 'http://fake.invalid',
    serviceName: 'Fake',
    venue: 'acme',
    graphqlNamespace: 'prod',
  };

  it('caps the wait and stops after 3 tries', async () => {
    const sleeps: number[] = [];
    let tries = 0;
    const client = new ServiceClient(profile, {
      retry: { maxDelayMs: 2000 },
      sleep: async (ms) => void sleeps.push(ms),
      fetch: async () => {
        tries += 1;
        return json(
          { statusCode: 429, error: 'Too Many Requests', message: 'slow down', code: 'RATE_LIMITED' },
          429,
          {
            'retry-after': '120',
          },
        );
      },
    });
    await expect(client.tokens()).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      message: 'The service says: slow down',
    });
    expect(tries).toBe(3);
    expect(sleeps).toEqual([2000, 2000]);
  });

  it('backs off exponentially on network errors, then succeeds', async () => {
    const sleeps: number[] = [];
    let tries = 0;
    const client = new ServiceClient(profile, {
      sleep: async (ms) => void sleeps.push(ms),
      fetch: async () => {
        tries += 1;
        if (tries < 3) throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
        return json({ data: { X: [{ symbol: 'BTC', indexTokens: ['0x1'], isForex: false }] } });
      },
    });
    expect(await client.tokens()).toEqual({ X: [{ symbol: 'BTC', indexTokens: ['0x1'], isForex: false }] });
    expect(sleeps).toEqual([250, 500]);
  });

  it('does not retry a withdrawal without an idempotency key, and does with one', async () => {
    let tries = 0;
    const client = new ServiceClient(profile, {
      credentials: staticCredentials({ accessToken: 't' }),
      sleep: async () => undefined,
      fetch: async (_input, init) => {
        tries += 1;
        expect(new Headers(init?.headers).get('idempotency-key')).toBe(tries > 1 ? 'k1' : null);
        throw new TypeError('fetch failed');
      },
    });
    const body = {
      sourceAddress: `0x${'1'.repeat(40)}`,
      destinationAddress: `0x${'2'.repeat(40)}`,
      amount: 10,
    };
    await expect(client.withdraw(body)).rejects.toMatchObject({ code: 'OFFLINE' });
    expect(tries).toBe(1);
    await expect(client.withdraw(body, { idempotencyKey: 'k1' })).rejects.toMatchObject({ code: 'OFFLINE' });
    expect(tries).toBe(4);
  });

  it('reads an error message given as an array of strings', async () => {
    const client = new ServiceClient(profile, {
      fetch: async () => json({ statusCode: 400, message: ['a must be set', 'b is wrong'] }, 400),
    });
    await expect(client.tokens()).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'The service says: a must be set; b is wrong',
    });
  });
});

describe('tolerant reader on the real answers, reshaped', () => {
  let svc: RunningService;
  let token: string;
  beforeAll(async () => {
    svc = await startTestService({ seedFixture: true });
    token = (await loginAs(svc, DEMO_PRIVATE_KEY)).token;
  });
  afterAll(() => svc.close());

  /** A client whose transport passes through the real service and reshapes its answers. */
  const reshaping = (reshape: (path: string, body: unknown) => unknown) =>
    new ServiceClient(profileOf(svc), {
      credentials: staticCredentials({ accessToken: token }),
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        return json(reshape(new URL(String(input)).pathname, await res.json()), res.status);
      },
    });
  const plain = () =>
    new ServiceClient(profileOf(svc), { credentials: staticCredentials({ accessToken: token }) });

  it('accepts the bare lists wrapped in {data: [...]}', async () => {
    const wrapped = reshaping((_path, body) => (Array.isArray(body) ? { data: body } : body));
    const client = plain();
    expect(await wrapped.listCopyTrades()).toEqual(await client.listCopyTrades());
    expect(await wrapped.listCopyWallets()).toEqual(await client.listCopyWallets());
    expect(await wrapped.listEmbeddedWallets()).toEqual(await client.listEmbeddedWallets());
    const position = (await client.copyPositionsPage({ limit: 1 })).data[0]!;
    const orders = await client.copyPositionOrders(position.id);
    expect(orders.length).toBeGreaterThan(0);
    expect(await wrapped.copyPositionOrders(position.id)).toEqual(orders);
  });

  it('accepts a flat {data, meta} GraphQL page', async () => {
    const flat = reshaping((path, body) => {
      if (path !== '/graphql') return body;
      const { data } = body as { data: Record<string, unknown> };
      return Object.values(data)[0];
    });
    const body = { paging: { size: 3 } };
    const nested = await plain().searchOrders(body);
    expect(nested.data).toHaveLength(3);
    expect(await flat.searchOrders(body)).toEqual(nested);
    expect(await flat.searchPositionStatistics(body)).toEqual(await plain().searchPositionStatistics(body));
  });

  it('says so when an answer has a shape it does not understand', async () => {
    const odd = reshaping(() => ({ surprise: true }));
    await expect(odd.listCopyWallets()).rejects.toMatchObject({
      code: 'INTERNAL',
      message: expect.stringMatching(/shape Copydesk does not understand/),
    });
    await expect(odd.searchOrders()).rejects.toMatchObject({ code: 'INTERNAL' });
  });
});
