// Issue 15, items 3, 4, 6 (service half) and 10 over real HTTP: limits keyed by identity, capped
// lists, event streams capped and closed at token expiry, id lines and replay, login codes nobody
// else can block, and the bodies real clients send (docs/security.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loginMessage } from '../../src/shared/api/auth';
import { signAccessToken, TOKEN_LIFETIME_S } from '../../src/service/auth/access-tokens';
import type { ResponseCache } from '../../src/service/statistics/queries/response-cache';
import { postJson, startTestService, type RunningService } from '../support/service';
import { apiKeyFor, loginAs } from '../support/credentials';
import { loginCopyUser } from '../support/copy-session';
import { searchQuery } from '../support/graphql-fixtures';

const PROTOCOL = 'NOVA_ARB';
const ACCOUNT = '0x' + 'ab'.repeat(20);

describe('the rate limit is keyed by identity', () => {
  it('puts junk credentials in the address bucket, not a fresh one each', async () => {
    const svc = await startTestService({ rateLimit: { perSecond: 1, burst: 3 } });
    try {
      const statuses: number[] = [];
      for (const authorization of ['bearer', 'Bearer  ', 'junk', 'Bearer junk2', 'x'])
        statuses.push(
          (await postJson(`${svc.url}/${PROTOCOL}/position/filter`, {}, { authorization })).status,
        );
      expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
      expect(statuses.slice(3)).toEqual([429, 429]);
    } finally {
      await svc.close();
    }
  });

  it('gives one user one bucket, whatever token text it sends', async () => {
    const svc = await startTestService({ rateLimit: { perSecond: 1, burst: 4 } });
    try {
      const { user, token } = await loginAs(svc);
      const other = await signAccessToken(svc.service.ctx.secret, user.id, new Date(svc.clock.ms - 5000));
      expect(other).not.toBe(token);
      const statuses: number[] = [];
      for (const authorization of [token, other, `Bearer ${token}`, `Bearer  ${other}`, other])
        statuses.push(
          (await postJson(`${svc.url}/${PROTOCOL}/position/filter`, {}, { authorization })).status,
        );
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
    } finally {
      await svc.close();
    }
  });
});

describe('capped lists and the statistics cache', () => {
  let svc: RunningService;
  let apiKey: string;
  beforeAll(async () => {
    svc = await startTestService();
    apiKey = apiKeyFor(svc);
  });
  afterAll(() => svc.close());

  const many = (n: number, item: unknown) => Array.from({ length: n }, () => item);

  it.each([
    [
      `/${PROTOCOL}/position/statistic/filter`,
      { queries: many(1001, { fieldName: 'type', value: 'D30' }) },
      'queries',
    ],
    [
      `/public/${PROTOCOL}/position/statistic/filter`,
      { ranges: many(1001, { fieldName: 'pnl', gte: 0 }) },
      'ranges',
    ],
    [
      `/${PROTOCOL}/position/filter`,
      { queries: many(1001, { fieldName: 'status', value: 'OPEN' }) },
      'queries',
    ],
    [
      `/public/${PROTOCOL}/position/statistic/filter`,
      { ranges: [{ fieldName: 'pnl', in: many(5001, 1) }] },
      'ranges[0].in',
    ],
  ])('%s refuses 1,001 entries of a list with 400 naming it', async (path, body, name) => {
    const res = await postJson(`${svc.url}${path}`, body, { 'x-api-key': apiKey });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(`${name} must have at most`);
  });

  it('GraphQL refuses 1,001 sorts and 1,001 ANDs naming the list', async () => {
    for (const [body, mentions] of [
      [{ sorts: many(1001, { field: 'pnl', direction: 'asc' }) }, /body\.sorts must have at most 10 entries/],
      [
        { filter: { and: many(1001, { field: 'pnl', gt: 0 }) } },
        /body\.filter\.and must hold at most 100 conditions/,
      ],
    ] as const) {
      const res = await postJson(
        `${svc.url}/graphql`,
        { query: searchQuery('livePosition'), variables: { index: 'local.positions', body } },
        { 'x-api-key': apiKey },
      );
      expect(res.status).toBe(200);
      const errors = res.body.errors as { message: string; extensions: { code: string } }[];
      expect(errors[0]!.extensions.code).toBe('VALIDATION_FAILED');
      expect(errors[0]!.message).toMatch(mentions);
    }
  });

  it('keys the cache by the parsed request, not its whitespace', async () => {
    const cache = (svc.service.app as unknown as { statisticCache: ResponseCache }).statisticCache;
    const url = `${svc.url}/${PROTOCOL}/position/statistic/filter`;
    const before = { misses: cache.misses, hits: cache.hits };
    for (const text of [
      '{"pagination":{"limit":7}}',
      '  {"pagination": {"limit": 7}}\n\n',
      '{"pagination":{"limit":7,"offset":0}}',
      '{"pagination":{"offset":0,"limit":7}}',
    ]) {
      const res = await postJson(url, text, { 'x-api-key': apiKey });
      expect(res.status).toBe(200);
    }
    // One key: its first two asks are misses (the second keeps the answer), the rest hits.
    expect(cache.misses - before.misses).toBe(2);
    expect(cache.hits - before.hits).toBe(2);
  });
});

/** Opens `GET /events`; collects frames (with their id) and notices when the service ends it. */
async function openStream(svc: RunningService, token: string, lastEventId?: string) {
  const controller = new AbortController();
  const res = await fetch(`${svc.url}/events`, {
    headers: { authorization: token, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
    signal: controller.signal,
  });
  const frames: { id?: string; event: string; data: Record<string, unknown> }[] = [];
  const state = { ended: false };
  if (res.body) {
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) {
          state.ended = true;
          return;
        }
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: (.+)$/m.exec(block)?.[1];
          const event = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (event && data) frames.push({ id, event, data: JSON.parse(data) as Record<string, unknown> });
        }
      }
    })();
  }
  return { res, frames, state, close: () => controller.abort() };
}

describe('event streams', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc.close());

  const withdraw = (user: { token: string; embeddedWallet: string }) =>
    postJson(
      `${svc.url}/embedded-wallets/perpx/withdraw`,
      { sourceAddress: user.embeddedWallet, destinationAddress: '0x' + '2'.repeat(40), amount: 10 },
      { authorization: user.token },
    );

  it('closes the oldest of a user’s streams past the cap', async () => {
    const user = await loginCopyUser(svc);
    const streams: Awaited<ReturnType<typeof openStream>>[] = [];
    for (let i = 0; i < 5; i++) streams.push(await openStream(svc, user.token));
    const sixth = await openStream(svc, user.token);
    expect(sixth.res.status).toBe(200);
    await expect.poll(() => streams[0]!.state.ended).toBe(true);
    expect(streams.slice(1).map((s) => s.state.ended)).toEqual([false, false, false, false]);
    for (const s of [...streams, sixth]) s.close();
  });

  it('ends a stream when its token expires', async () => {
    const user = await loginCopyUser(svc);
    const stream = await openStream(svc, user.token);
    expect(stream.res.status).toBe(200);
    svc.clock.advance(TOKEN_LIFETIME_S * 1000 + 1000);
    try {
      await expect.poll(() => stream.state.ended, { timeout: 5000 }).toBe(true);
    } finally {
      svc.clock.advance(-(TOKEN_LIFETIME_S * 1000 + 1000));
      stream.close();
    }
  });

  it('sends id lines and replays what a reconnecting client missed', async () => {
    const user = await loginCopyUser(svc);
    const first = await openStream(svc, user.token);
    expect((await withdraw(user)).status).toBe(201);
    await expect.poll(() => first.frames.length).toBe(1);
    const lastId = first.frames[0]!.id;
    expect(lastId).toMatch(/\S/);
    first.close();
    expect((await withdraw(user)).status).toBe(201);
    expect((await withdraw(user)).status).toBe(201);
    const again = await openStream(svc, user.token, lastId);
    await expect.poll(() => again.frames.length).toBe(2);
    expect(again.frames.map((f) => f.event)).toEqual(['withdrawalSettled', 'withdrawalSettled']);
    expect(new Set([lastId, ...again.frames.map((f) => f.id)]).size).toBe(3);
    again.close();
  });
});

describe('login codes', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc.close());

  const codeFor = async (address: string) =>
    (await postJson(`${svc.url}/auth/web3/login`, { address })).body.verifyCode as string;
  const verify = async (account: ReturnType<typeof privateKeyToAccount>, code: string, signer = account) => {
    const time = svc.clock.now().toISOString();
    const sign = await signer.signMessage({
      message: loginMessage(svc.service.config.serviceName, time, code),
    });
    return postJson(`${svc.url}/auth/web3/verify-login`, { address: account.address, sign, time });
  };

  it('keeps the owner’s code when someone else asks for another', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const mine = await codeFor(account.address);
    await codeFor(account.address);
    await codeFor(account.address);
    expect((await verify(account, mine)).status).toBe(200);
  });

  it('burns nothing on a wrong signature', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const stranger = privateKeyToAccount(generatePrivateKey());
    const code = await codeFor(account.address);
    expect((await verify(account, code, stranger)).status).toBe(401);
    expect((await verify(account, code)).status).toBe(200);
    // A code serves one login.
    expect((await verify(account, code)).status).toBe(401);
  });

  it('purges expired codes', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    await codeFor(account.address);
    svc.clock.advance(6 * 60_000);
    await codeFor(privateKeyToAccount(generatePrivateKey()).address);
    const expired = svc.service.db
      .prepare('SELECT COUNT(*) AS n FROM login_codes WHERE expires_at_ms <= ?')
      .get(svc.clock.ms) as { n: number };
    expect(expired.n).toBe(0);
  });
});

describe('what real clients send', () => {
  let svc: RunningService;
  let apiKey: string;
  beforeAll(async () => {
    // The fixture's positions closed over months, so the D7 window has some to keep and some to drop.
    svc = await startTestService({ seedFixture: true });
    apiKey = apiKeyFor(svc);
  });
  afterAll(() => svc.close());

  it('takes the account (and the window as type) in the body of position/filter/{account}', async () => {
    const url = `${svc.url}/${PROTOCOL}/position/filter/${ACCOUNT}`;
    const plain = await postJson(url, { account: ACCOUNT }, { 'x-api-key': apiKey });
    expect(plain.status).toBe(200);
    const cased = await postJson(
      url,
      { account: ACCOUNT.toUpperCase().replace('0X', '0x'), type: 'D30' },
      { 'x-api-key': apiKey },
    );
    expect(cased.status).toBe(200);
  });

  it('refuses a body account that is not the path’s, naming it', async () => {
    const res = await postJson(
      `${svc.url}/${PROTOCOL}/position/filter/${ACCOUNT}`,
      { account: '0x' + 'cd'.repeat(20) },
      { 'x-api-key': apiKey },
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^account /);
  });

  it('filters by the window: D7 holds only positions closed in the last 7 whole days', async () => {
    const res = await postJson(
      `${svc.url}/${PROTOCOL}/position/filter`,
      { type: 'D7', pagination: { limit: 500 } },
      { 'x-api-key': apiKey },
    );
    expect(res.status).toBe(200);
    const day = 86_400_000;
    const t0 = Math.floor(svc.clock.ms / day) * day;
    expect((res.body.data as unknown[]).length).toBeGreaterThan(0);
    for (const p of res.body.data as { status: string; closeBlockTime: string | null }[]) {
      expect(p.status).toBe('CLOSE');
      const closed = Date.parse(p.closeBlockTime!);
      expect(closed).toBeGreaterThanOrEqual(t0 - 7 * day);
      expect(closed).toBeLessThan(t0);
    }
  });
});
