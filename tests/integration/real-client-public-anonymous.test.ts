import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pnlStatisticsPath } from '../../src/shared/profile';
import { startTestService, type RunningService } from '../support/service';
import { apiKeyFor, loginAs } from '../support/credentials';

const P = 'NOVA_ARB';

/** A trader of the fixture world with a FULL record on P. */
function someTrader(svc: RunningService): string {
  return svc.service.db
    .prepare(`SELECT account FROM statistics WHERE protocol = ? AND type = 'FULL' AND gen_to IS NULL LIMIT 1`)
    .pluck()
    .get(P) as string;
}

/**
 * Every trader read a logged-out browser makes: the spec's `/public/...` statistic endpoints and
 * the trader endpoints outside the spec that the real web client calls beside them.
 */
function publicReads(account: string): { name: string; init: RequestInit; path: string }[] {
  const post = (body: unknown): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const now = Date.now();
  return [
    {
      name: 'public statistic filter',
      path: `/public/${P}/position/statistic/filter`,
      init: post({ queries: [{ fieldName: 'type', value: 'D30' }] }),
    },
    { name: 'one trader by window', path: `/public/${P}/position/statistic/trader/${account}`, init: {} },
    {
      name: 'pnl-statistics (spec path)',
      path: pnlStatisticsPath('perpx'),
      init: post({ accounts: [{ account, protocol: P }], statisticType: 'D30' }),
    },
    {
      name: 'pnl-statistics (short path)',
      path: '/public/position/statistic/pnl-statistics',
      init: post({ accounts: [{ account, protocol: P }], statisticType: 'D30' }),
    },
    {
      name: 'pnl-statistics-v2',
      path: '/public/position/statistic/pnl-statistics-v2',
      init: post({ accounts: [{ account, protocol: P }], statisticType: 'D30' }),
    },
    { name: 'trader protocols', path: `/public/position/statistic/exchange/${account}`, init: {} },
    {
      name: 'daily PnL',
      path: `/${P}/statistic/trader/pnl/${account}?from=${now - 7 * 86_400_000}&to=${now}`,
      init: {},
    },
    { name: 'per-token results', path: `/${P}/position/tokens/${account}/statistic`, init: {} },
    { name: 'open positions', path: `/${P}/position/opening/${account}`, init: {} },
    { name: 'last order', path: `/${P}/order/${account}/last-order`, init: {} },
  ];
}

const call = (
  svc: RunningService,
  read: { path: string; init: RequestInit },
  headers: Record<string, string> = {},
) =>
  fetch(`${svc.url}${read.path}`, {
    ...read.init,
    headers: { ...(read.init.headers as Record<string, string>), ...headers },
  });

describe('without --public-anonymous (the default)', () => {
  let svc: RunningService;
  let account: string;
  let key: string;
  let jwt: string;
  beforeAll(async () => {
    svc = await startTestService({ seedFixture: true });
    account = someTrader(svc);
    key = apiKeyFor(svc);
    jwt = (await loginAs(svc)).token;
  });
  afterAll(() => svc.close());

  it('every public trader read still needs a credential: none answers 401', async () => {
    expect(svc.service.config.publicAnonymous).toBe(false);
    for (const read of publicReads(account)) {
      const res = await call(svc, read);
      expect({ name: read.name, status: res.status }).toEqual({ name: read.name, status: 401 });
      expect(((await res.json()) as { message: string }).message).toMatch(/needs credentials/);
    }
  });

  it('and answers each of them with an API key or a JWT', async () => {
    for (const read of publicReads(account)) {
      for (const headers of [{ 'x-api-key': key }, { authorization: jwt }] as Record<string, string>[]) {
        const res = await call(svc, read, headers);
        expect({ name: read.name, status: res.status }).toEqual({ name: read.name, status: 200 });
      }
    }
  });
});

describe('with --public-anonymous', () => {
  let svc: RunningService;
  let account: string;
  let key: string;
  beforeAll(async () => {
    svc = await startTestService({ seedFixture: true, publicAnonymous: true });
    account = someTrader(svc);
    key = apiKeyFor(svc);
  });
  afterAll(() => svc.close());

  it('every public trader read answers without a credential, the same as with one', async () => {
    for (const read of publicReads(account)) {
      const anonymous = await call(svc, read);
      expect({ name: read.name, status: anonymous.status }).toEqual({ name: read.name, status: 200 });
      const keyed = await call(svc, read, { 'x-api-key': key });
      expect(await anonymous.json()).toEqual(await keyed.json());
    }
  });

  it('still checks a credential that is sent: a bad one answers 401', async () => {
    const read = publicReads(account)[0]!;
    expect((await call(svc, read, { 'x-api-key': 'cdk_not-a-key' })).status).toBe(401);
    expect((await call(svc, read, { authorization: 'Bearer not.a.jwt' })).status).toBe(401);
  });

  it('opens nothing else: endpoints outside /public that the spec gives JWT or API key still need one', async () => {
    const filter = await fetch(`${svc.url}/${P}/position/statistic/filter`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(filter.status).toBe(401);
    const graphql = await fetch(`${svc.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(graphql.status).toBe(401);
    expect((await fetch(`${svc.url}/copy-wallets/list`)).status).toBe(401);
    const searchAfter = await fetch(`${svc.url}/trial/position/statistic/search-after`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ size: 10 }),
    });
    expect(searchAfter.status).toBe(401);
  });
});

describe('anonymous reads are rate-limited by the client address', () => {
  let svc: RunningService;
  let key: string;
  beforeAll(async () => {
    svc = await startTestService({
      seedFixture: true,
      publicAnonymous: true,
      rateLimit: { perSecond: 1, burst: 3 },
    });
    key = apiKeyFor(svc);
  });
  afterAll(() => svc.close());

  it('the address gets its own bucket: past the burst it answers 429, while a key still has its own', async () => {
    const read = publicReads(someTrader(svc))[1]!;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(svc, read)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await call(svc, read);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await call(svc, read, { 'x-api-key': key })).status).toBe(200);
  });
});
