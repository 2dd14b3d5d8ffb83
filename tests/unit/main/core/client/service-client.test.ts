// The core's client of the service (src/main/core/client/service-client.ts): re-login on a 401, the
// credential each call sends, the withdrawal fees it reads, and a service that answers 503 PREPARING
// while it prepares its data (issue #20 item 1; docs/core.md, A starting service): it waits as long
// as the preparation moves, whatever the call, and gives up with the service's words only when the
// preparation stands still.
import { describe, expect, it, vi } from 'vitest';
import { staticCredentials, type Credentials } from '../../../../../src/main/core/client/credentials';
import { ServiceClient } from '../../../../../src/main/core/client/service-client';
import { DEFAULT_WITHDRAW_FEES, feesOf } from '../../../../../src/main/core/handlers/wallets';
import { localProfile } from '../../../../../src/main/core/profiles/profile-manager';
import { preparingBody } from '../../../../../src/service/http/preparing-guard';
import type { PreparingProgress } from '../../../../../src/shared/api/preparing';
import { expectAll } from '../../../../support/expect-all';

const profile = { ...localProfile('http://127.0.0.1:9'), id: 'test' };
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const refused = () =>
  json(401, { statusCode: 401, error: 'Unauthorized', message: 'token expired', code: 'UNAUTHORIZED' });

/** A fetch that answers from a list, recording the credential headers of each request. */
function recordingFetch(answers: (() => Response)[]) {
  const seen: { authorization?: string; key?: string; path: string }[] = [];
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    seen.push({
      authorization: headers.authorization,
      key: headers['x-api-key'],
      path: new URL(String(url)).pathname,
    });
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    return next();
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, seen };
}

function credentials(renewed: string | null): Credentials & { renew: ReturnType<typeof vi.fn> } {
  let token = 'old-token';
  const renew = vi.fn(async () => {
    if (renewed !== null) token = renewed;
    return renewed;
  });
  return { accessToken: async () => token, apiKey: () => null, renew };
}

describe('re-login on 401', () => {
  it('renews the token once and sends the call again, also a write', async () => {
    const { fetch, seen } = recordingFetch([refused, () => json(201, tradeAnswer())]);
    const creds = credentials('new-token');
    const client = new ServiceClient(profile, { fetch, credentials: creds });
    await expect(client.updateCopyTrade('t1', { title: 'x' })).resolves.toMatchObject({ id: 't1' });
    expect(creds.renew).toHaveBeenCalledExactlyOnceWith('jwt');
    expect(seen.map((s) => s.authorization)).toEqual(['old-token', 'new-token']);
  });

  it('gives up with the service answer when renewal fails, or when the renewed token is refused too', async () => {
    const failing = recordingFetch([refused]);
    const none = credentials(null);
    await expect(
      new ServiceClient(profile, { fetch: failing.fetch, credentials: none }).listCopyWallets(),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(none.renew).toHaveBeenCalledTimes(1);

    const twice = recordingFetch([refused, refused]);
    const creds = credentials('new-token');
    await expect(
      new ServiceClient(profile, { fetch: twice.fetch, credentials: creds }).listCopyWallets(),
    ).rejects.toMatchObject({ status: 401 });
    expect(creds.renew).toHaveBeenCalledTimes(1);
    expect(twice.seen).toHaveLength(2);
  });

  it('does not renew anything for anonymous calls, nor for other refusals', async () => {
    const { fetch } = recordingFetch([refused, () => json(403, { message: 'blocked', code: 'FORBIDDEN' })]);
    const creds = credentials('new-token');
    const client = new ServiceClient(profile, { fetch, credentials: creds });
    await expect(client.login('0x1111111111111111111111111111111111111111')).rejects.toMatchObject({
      status: 401,
    });
    await expect(client.listCopyWallets()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(creds.renew).not.toHaveBeenCalled();
  });

  it('asks for an API key when a key-only call has none, and renews a refused key', async () => {
    const { fetch, seen } = recordingFetch([
      refused,
      () => json(200, { data: [], meta: { total: 0, totalPages: 0, pitId: 'p', searchAfter: null } }),
    ]);
    let key: string | null = null;
    const renew = vi.fn(async () => (key = key === null ? 'first-key' : 'second-key'));
    const client = new ServiceClient(profile, {
      fetch,
      credentials: { accessToken: () => null, apiKey: () => key, renew },
    });
    await expect(client.searchAfter({ size: 1 })).resolves.toMatchObject({ data: [] });
    expect(renew.mock.calls).toEqual([['apiKey'], ['apiKey']]);
    expect(seen.map((s) => s.key)).toEqual(['first-key', 'second-key']);
  });
});

describe('a call that takes a token or a key', () => {
  it('with neither, asks for a key before giving up; with a token, asks for nothing', async () => {
    const page = () => json(200, { data: [], meta: { total: 0, totalPages: 0, limit: 10, offset: 0 } });
    const keyless = recordingFetch([page]);
    const renew = vi.fn(async () => 'provisioned-key');
    const client = new ServiceClient(profile, {
      fetch: keyless.fetch,
      credentials: { accessToken: () => null, apiKey: () => null, renew },
    });
    await expect(client.statisticFilter('HELIX_OP', {})).resolves.toMatchObject({ data: [] });
    expect(renew.mock.calls).toEqual([['apiKey']]);
    expect(keyless.seen.map((s) => s.key)).toEqual(['provisioned-key']);

    const none = vi.fn(async () => null);
    const refusedLocally = new ServiceClient(profile, {
      fetch: recordingFetch([]).fetch,
      credentials: { accessToken: () => null, apiKey: () => null, renew: none },
    });
    await expect(refusedLocally.statisticFilter('HELIX_OP', {})).rejects.toMatchObject({
      code: 'NOT_LOGGED_IN',
    });

    const withToken = recordingFetch([page]);
    const unused = vi.fn(async () => 'never');
    await new ServiceClient(profile, {
      fetch: withToken.fetch,
      credentials: { accessToken: () => 'a-token', apiKey: () => null, renew: unused },
    }).statisticFilter('HELIX_OP', {});
    expect(unused).not.toHaveBeenCalled();
    expect(withToken.seen.map((s) => s.authorization)).toEqual(['a-token']);
  });
});

describe('withdrawal fees', () => {
  it("reads the service's fees, and falls back to the profile's, then to the defaults, on a 404", async () => {
    const fees = { feeAmount: 2, transferFee: 0.5, withdrawFee: 0.25, minimum: 7.75 };
    const served = recordingFetch([() => json(200, fees)]);
    expect(await feesOf(new ServiceClient(profile, { fetch: served.fetch }), profile)).toEqual({
      fees,
      source: 'service',
    });
    expect(served.seen[0]?.path).toBe('/embedded-wallets/perpx/withdraw-fees');

    const missing = () => json(404, { message: 'Route not found', code: 'NOT_FOUND' });
    const own = { feeAmount: 3, transferFee: 1, withdrawFee: 1, minimum: 10 };
    const withFees = { ...profile, withdrawFees: own };
    expect(
      await feesOf(new ServiceClient(withFees, { fetch: recordingFetch([missing]).fetch }), withFees),
    ).toEqual({
      fees: own,
      source: 'profile',
    });
    expect(
      await feesOf(new ServiceClient(profile, { fetch: recordingFetch([missing]).fetch }), profile),
    ).toEqual({
      fees: DEFAULT_WITHDRAW_FEES,
      source: 'profile',
    });
    const broken = recordingFetch([() => json(500, { message: 'boom', code: 'INTERNAL' })]);
    await expect(feesOf(new ServiceClient(profile, { fetch: broken.fetch }), profile)).rejects.toMatchObject({
      code: 'INTERNAL',
    });
  });
});

function tradeAnswer() {
  return {
    id: 't1',
    userId: 'u1',
    title: 'x',
    account: '0x1111111111111111111111111111111111111111',
    accounts: [],
    copyWalletId: 'w1',
    protocol: 'NOVA_ARB',
    exchange: 'PERPX',
    type: 'COPY_TRADER',
    side: 'BOTH',
    volume: 100,
    leverage: 10,
    tokenAddresses: [],
    excludingTokenAddresses: [],
    copyAll: true,
    hasExclude: false,
    multipleCopy: false,
    reverseCopy: false,
    enableStopLoss: false,
    stopLossType: 'USD',
    stopLossAmount: null,
    enableTakeProfit: false,
    takeProfitType: 'USD',
    takeProfitAmount: null,
    volumeProtection: true,
    lookBackOrders: null,
    maxVolMultiplier: null,
    skipLowLeverage: false,
    lowLeverage: null,
    skipLowCollateral: false,
    lowCollateral: null,
    skipLowSize: false,
    lowSize: null,
    status: 'RUNNING',
    createdAt: '2026-03-02T12:00:00.000Z',
  };
}

/** The service's own 503 answer (src/service/http/preparing-guard.ts) at `progress`. */
const preparing =
  (progress: PreparingProgress, retryAfterS = 1) =>
  () =>
    json(503, preparingBody('POST', '/x', progress), { 'retry-after': String(retryAfterS) });

const tokens = () => json(200, { data: { GMX: [{ symbol: 'BTC', indexTokens: ['0xb'], isForex: false }] } });
const code = () => json(200, { verifyCode: '123456' });

/** A fetch answering from a list, and a test clock that each sleep moves. */
function preparingClient(answers: (() => Response)[]) {
  const clock = { ms: 0 };
  const sleeps: number[] = [];
  const fetch = vi.fn(async () => {
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    return next();
  });
  const sleep = async (ms: number) => {
    sleeps.push(ms);
    clock.ms += ms;
  };
  const client = new ServiceClient(profile, {
    fetch: fetch as unknown as typeof globalThis.fetch,
    credentials: staticCredentials({ accessToken: 'token' }),
    sleep,
    now: () => clock.ms,
    preparing: { stallMs: 10_000 },
  });
  return { client, fetch, sleeps, clock };
}

describe('a service preparing its data', () => {
  it('is waited out for as long as its preparation moves, far past the stall limit in all', async () => {
    // 40 answers of 503, each a step further: 40 s of waiting, four times the 10 s stall limit.
    const steps = Array.from({ length: 40 }, (_, i) =>
      preparing({ step: 'positions', done: i * 100, total: 5000 }),
    );
    const { client, fetch, sleeps, clock } = preparingClient([...steps, tokens]);
    await expect(client.tokens()).resolves.toEqual({
      GMX: [{ symbol: 'BTC', indexTokens: ['0xb'], isForex: false }],
    });
    expect(fetch).toHaveBeenCalledTimes(41);
    // Each wait is the Retry-After the service asked for.
    expectAll(sleeps, (ms) => ms === 1000);
    expect(clock.ms).toBe(40_000);
  });

  it('sends a write again too: the service refused it before acting', async () => {
    const { client, fetch } = preparingClient([
      preparing({ step: 'statistics', done: 0, total: 1 }),
      preparing({ step: 'statistics', done: 1, total: 1 }),
      code,
    ]);
    // A write that is never retried otherwise (POST /auth/web3/login makes a login code).
    await expect(client.login('0x0000000000000000000000000000000000000001')).resolves.toBe('123456');
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('fails with the service words and the stall once the preparation stands still', async () => {
    const still = { step: 'indexes', done: 3, total: 8 };
    const { client, clock } = preparingClient(Array.from({ length: 30 }, () => preparing(still)));
    const failure = await client.tokens().catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'PREPARING', status: 503, preparing: still });
    expect((failure as Error).message).toMatch(/step indexes, 3 of 8/);
    expect((failure as Error).message).toMatch(/made no progress for 10 s, so Copydesk stopped waiting/);
    // It waited the stall limit, not less and not much more.
    expect(clock.ms).toBeGreaterThanOrEqual(10_000);
    expect(clock.ms).toBeLessThanOrEqual(11_000);
  });

  it('caps a long Retry-After, and treats any other 503 as the failure it is', async () => {
    const capped = preparingClient([preparing({ step: 'prices', done: 0, total: 20 }, 60), tokens]);
    await capped.client.tokens();
    expect(capped.sleeps).toEqual([5_000]);

    const other = preparingClient([
      () => json(503, { statusCode: 503, error: 'Service Unavailable', message: 'down', code: 'INTERNAL' }),
    ]);
    await expect(other.client.tokens()).rejects.toMatchObject({ code: 'INTERNAL', status: 503 });
    expect(other.fetch).toHaveBeenCalledTimes(1);
  });
});
