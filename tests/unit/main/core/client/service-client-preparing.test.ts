// The core's client and a service that answers 503 PREPARING while it prepares its data (issue #20
// item 1; docs/core.md, A starting service): it waits as long as the preparation moves, whatever
// the call, and gives up with the service's words only when the preparation stands still.
import { expectAll } from '../../../../support/expect-all';
import { describe, expect, it, vi } from 'vitest';
import { ServiceClient } from '../../../../../src/main/core/client/service-client';
import { staticCredentials } from '../../../../../src/main/core/client/credentials';
import { localProfile } from '../../../../../src/main/core/profiles/profile-manager';
import { preparingBody } from '../../../../../src/service/http/preparing-guard';
import type { PreparingProgress } from '../../../../../src/shared/api/preparing';

const profile = { ...localProfile('http://127.0.0.1:9'), id: 'test' };
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

/** The service's own 503 answer (src/service/http/preparing-guard.ts) at `progress`. */
const preparing =
  (progress: PreparingProgress, retryAfterS = 1) =>
  () =>
    json(503, preparingBody('POST', '/x', progress), { 'retry-after': String(retryAfterS) });

const tokens = () => json(200, { data: { GMX: [{ symbol: 'BTC', indexTokens: ['0xb'], isForex: false }] } });
const code = () => json(200, { verifyCode: '123456' });

/** A fetch answering from a list, and a test clock that each sleep moves. */
function scripted(answers: (() => Response)[]) {
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
    const { client, fetch, sleeps, clock } = scripted([...steps, tokens]);
    await expect(client.tokens()).resolves.toEqual({
      GMX: [{ symbol: 'BTC', indexTokens: ['0xb'], isForex: false }],
    });
    expect(fetch).toHaveBeenCalledTimes(41);
    // Each wait is the Retry-After the service asked for.
    expectAll(sleeps, (ms) => ms === 1000);
    expect(clock.ms).toBe(40_000);
  });

  it('sends a write again too: the service refused it before acting', async () => {
    const { client, fetch } = scripted([
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
    const { client, clock } = scripted(Array.from({ length: 30 }, () => preparing(still)));
    const failure = await client.tokens().catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'PREPARING', status: 503, preparing: still });
    expect((failure as Error).message).toMatch(/step indexes, 3 of 8/);
    expect((failure as Error).message).toMatch(/made no progress for 10 s, so Copydesk stopped waiting/);
    // It waited the stall limit, not less and not much more.
    expect(clock.ms).toBeGreaterThanOrEqual(10_000);
    expect(clock.ms).toBeLessThanOrEqual(11_000);
  });

  it('caps a long Retry-After, and treats any other 503 as the failure it is', async () => {
    const capped = scripted([preparing({ step: 'prices', done: 0, total: 20 }, 60), tokens]);
    await capped.client.tokens();
    expect(capped.sleeps).toEqual([5_000]);

    const other = scripted([
      () => json(503, { statusCode: 503, error: 'Service Unavailable', message: 'down', code: 'INTERNAL' }),
    ]);
    await expect(other.client.tokens()).rejects.toMatchObject({ code: 'INTERNAL', status: 503 });
    expect(other.fetch).toHaveBeenCalledTimes(1);
  });
});
