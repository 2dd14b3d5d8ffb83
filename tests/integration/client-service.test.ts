// The desktop core's ServiceClient against the real local service over HTTP, with the seeded
// fixture world and the demo user: every method's answer is the service's own answer, parsed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PRIVATE_KEY } from '../../src/service/fixture/seed';
import { exchangeOf, type ServiceProfile } from '../../src/shared/profile';
import { venueAccountOf } from '../../src/shared/api/copy-wallets';
import { ServiceClient } from '../../src/main/core/client/service-client';
import { staticCredentials } from '../../src/main/core/client/credentials';
import { fetchBytes, ServiceRequestError } from '../../src/main/core/client/http';
import { startTestService, type RunningService } from '../support/service';
import { apiKeyFor, loginAs } from '../support/credentials';
import { expectAll } from '../support/expect-all';

let svc: RunningService;
let token: string;
let key: string;
let profile: ServiceProfile;
/** The demo user with a token only. */
let user: ServiceClient;
/** An API key only. */
let keyed: ServiceClient;
const P = 'NOVA_ARB';

beforeAll(async () => {
  svc = await startTestService({ seedFixture: true });
  token = (await loginAs(svc, DEMO_PRIVATE_KEY)).token;
  key = apiKeyFor(svc);
  const config = svc.service.config;
  profile = {
    id: 'test',
    name: 'Test service',
    kind: 'local',
    baseUrl: svc.url,
    serviceName: config.serviceName,
    venue: config.venue,
    graphqlNamespace: config.graphqlNamespace,
  };
  user = new ServiceClient(profile, { credentials: staticCredentials({ accessToken: token }) });
  keyed = new ServiceClient(profile, { credentials: staticCredentials({ apiKey: key }) });
});
afterAll(() => svc.close());

/** The service's own answer to the same call, as JSON. */
async function raw(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = { authorization: token },
): Promise<unknown> {
  const res = await fetch(`${svc.url}${path}`, {
    method,
    headers: { ...headers, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return res.json();
}

const someAccount = (protocol = P): string =>
  svc.service.db
    .prepare(
      "SELECT account FROM statistics WHERE protocol = ? AND type = 'FULL' AND gen_to IS NULL ORDER BY account LIMIT 1",
    )
    .pluck()
    .get(protocol) as string;

describe('statistics and positions', () => {
  it('statisticFilter answers the service page, with either credential', async () => {
    const body = { pagination: { limit: 5 }, sortBy: 'pnl', queries: [{ fieldName: 'type', value: 'D30' }] };
    const page = await user.statisticFilter(P, body);
    expect(page.data).toHaveLength(5);
    expect(page).toEqual(await raw('POST', `/${P}/position/statistic/filter`, body));
    expect(await keyed.statisticFilter(P, body)).toEqual(page);
  });

  it('publicStatisticFilter keeps rankings and ranges', async () => {
    const body = {
      queries: [{ fieldName: 'type', value: 'FULL' }],
      ranges: [{ fieldName: 'ranking.pnl', gte: 50 }],
      pagination: { limit: 10 },
    };
    const page = await keyed.publicStatisticFilter(P, body);
    expect(page.data.length).toBeGreaterThan(0);
    expectAll(page.data, (r) => (r.ranking?.pnl ?? -1) >= 50);
    expect(page).toEqual(
      await raw('POST', `/public/${P}/position/statistic/filter`, body, { 'x-api-key': key }),
    );
  });

  it('traderStatistics answers a ranked record per window', async () => {
    const account = someAccount();
    const byWindow = await user.traderStatistics(P, account);
    expect(byWindow.FULL?.account).toBe(account);
    expect(byWindow).toEqual(await raw('GET', `/public/${P}/position/statistic/trader/${account}`));
  });

  it('searchAfter walks batches with the API key', async () => {
    const body = {
      size: 3,
      sort: [{ pnl: 'desc' as const }],
      queries: [{ fieldName: 'type', value: 'FULL' }],
    };
    const first = await keyed.searchAfter(body);
    expect(first.data).toHaveLength(3);
    expect(first.meta.pitId).toBeTruthy();
    const second = await keyed.searchAfter({
      ...body,
      pitId: first.meta.pitId,
      searchAfter: first.meta.searchAfter ?? [],
    });
    expect(second.data).toHaveLength(3);
    expect(second.data.map((r) => r.id)).not.toContain(first.data[0]!.id);
    const again = await raw('POST', '/trial/position/statistic/search-after', body, { 'x-api-key': key });
    expect({ ...first, meta: { ...first.meta, pitId: 'x' } }).toEqual({
      ...(again as typeof first),
      meta: { ...(again as typeof first).meta, pitId: 'x' },
    });
  });

  it('searchAfterVia hands a transport the request with its credentials: the same answer, unparsed', async () => {
    const body = { size: 2, sort: [{ id: 'asc' as const }], queries: [{ fieldName: 'type', value: 'FULL' }] };
    const parsed = await keyed.searchAfter(body);
    const bytes = await keyed.searchAfterVia({ ...body, pitId: parsed.meta.pitId }, (request) =>
      fetchBytes(request),
    );
    const again = JSON.parse(new TextDecoder().decode(bytes)) as typeof parsed;
    expect(again.data).toEqual(parsed.data);
    expect(again.meta.searchAfter).toEqual(parsed.meta.searchAfter);
    await expect(user.searchAfterVia({ size: 1 }, (request) => fetchBytes(request))).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
  });

  it('pnlStatistics uses the venue path of the profile', async () => {
    const account = someAccount();
    const body = { accounts: [{ account, protocol: P }], statisticType: 'D30' as const };
    const series = await user.pnlStatistics(body);
    expect(series[account]?.date).toHaveLength(31);
    expect(series).toEqual(
      await raw('POST', `/public/position/statistic-${profile.venue}/pnl-statistics`, body),
    );
  });

  it('positionFilter takes the account in the queries or in the path', async () => {
    const account = someAccount();
    const body = {
      queries: [{ fieldName: 'status', value: 'CLOSE' }],
      sortBy: 'pnl',
      pagination: { limit: 50 },
    };
    const inPath = await user.positionFilter(P, body, account);
    expect(inPath.data.length).toBeGreaterThan(0);
    expectAll(inPath.data, (p) => p.account === account && p.status === 'CLOSE');
    const inBody = await keyed.positionFilter(P, {
      ...body,
      queries: [...body.queries, { fieldName: 'account', value: account }],
    });
    expect(inBody).toEqual(inPath);
    expect(inPath).toEqual(await raw('POST', `/${P}/position/filter/${account}`, body));
  });
});

describe('GraphQL searches', () => {
  const gql = async (name: string, index: string, body: unknown, protocols?: string[]) => {
    const { GRAPHQL_SELECTIONS, searchQueryText } =
      await import('../../src/main/core/client/graphql-queries');
    const answer = (await raw('POST', '/graphql', {
      operationName: 'Search',
      query: searchQueryText(name as never, GRAPHQL_SELECTIONS[name as keyof typeof GRAPHQL_SELECTIONS]),
      variables: { index, ...(protocols && { protocols }), body },
    })) as { data: Record<string, unknown> };
    return answer.data[name];
  };
  const ns = () => profile.graphqlNamespace;

  it('searchTopOpeningPositions: open positions of the protocols', async () => {
    const body = { paging: { size: 5 }, sorts: { field: 'realisedPnl', direction: 'desc' as const } };
    const page = await user.searchTopOpeningPositions(body, { protocols: [P] });
    expect(page.data.length).toBeGreaterThan(0);
    expectAll(page.data, (p) => p.status === 'OPEN' && p.protocol === P);
    expect(page).toEqual(await gql('searchTopOpeningPosition', `${ns()}.positions`, body, [P]));
  });

  it('searchLivePositions', async () => {
    const body = { filter: { and: [{ field: 'status', match: 'CLOSE' }] }, paging: { size: 4 } };
    const page = await keyed.searchLivePositions(body);
    expect(page.data).toHaveLength(4);
    expect(page.meta.limit).toBe(4);
    expect(page).toEqual(await gql('livePosition', `${ns()}.positions`, body, undefined));
  });

  it('searchOrders', async () => {
    const body = { filter: { and: [{ field: 'protocol', in: [P] }] }, paging: { size: 3, from: 2 } };
    const page = await user.searchOrders(body);
    expect(page.data).toHaveLength(3);
    expect(page.meta.offset).toBe(2);
    expect(page).toEqual(await gql('searchOrders', `${ns()}.orders`, body));
  });

  it('searchPositionStatistics', async () => {
    const body = {
      filter: {
        and: [
          { field: 'type', match: 'FULL' },
          { field: 'totalTrade', gte: '5' },
        ],
      },
      sorts: [{ field: 'pnl', direction: 'desc' as const }],
      paging: { size: 5 },
    };
    const page = await user.searchPositionStatistics(body);
    expectAll(page.data, (r) => r.type === 'FULL' && r.totalTrade >= 5);
    expect(page).toEqual(await gql('searchPositionStatistic', `${ns()}.position_statistics`, body));
  });

  it('turns a GraphQL errors answer into a ServiceRequestError with the service message', async () => {
    const error = await user
      .searchOrders({ filter: { and: [{ field: 'nonsense', match: 1 }] } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceRequestError);
    expect((error as ServiceRequestError).code).toBe('VALIDATION_FAILED');
    expect((error as ServiceRequestError).message).toMatch(/^The service says: .*nonsense/);
  });
});

describe('copy trading as the demo user', () => {
  it('lists copy wallets, embedded wallets with pnl, and withdraws once per idempotency key', async () => {
    const wallets = await user.listCopyWallets();
    expect(wallets.length).toBeGreaterThan(0);
    expect(wallets).toEqual(await raw('GET', '/copy-wallets/list'));
    const embedded = await user.listEmbeddedWallets();
    expect(embedded).toEqual(await raw('GET', `/copy-wallets/${profile.venue}-embedded/list`));
    const wallet = embedded[0]!;
    expect(typeof wallet.pnl24h).toBe('number');
    const address = venueAccountOf(wallet, profile.venue)?.embeddedWallet;
    expect(address).toMatch(/^0x/);

    const body = { sourceAddress: address!, destinationAddress: `0x${'a'.repeat(40)}`, amount: 20 };
    const first = await user.withdraw(body, { idempotencyKey: 'client-test-1' });
    expect(first).toMatchObject({ type: 'WITHDRAW', status: 'SUCCESSFUL', data: { amount: 20 } });
    expect(first.data[`${profile.venue}WithdrawFeeAmount`]).toEqual(expect.any(Number));
    const replay = await user.withdraw(body, { idempotencyKey: 'client-test-1' });
    expect(replay).toEqual(first);
    const after = await user.listEmbeddedWallets();
    expect(after[0]!.balance).toBeCloseTo(wallet.balance - 20, 6);
    const plain = await user.withdraw(body);
    expect(plain.status).toBe('SUCCESSFUL');
  });

  it('creates, updates and lists copy trades', async () => {
    const wallets = await user.listEmbeddedWallets();
    const created = await user.createCopyTrade({
      title: 'Client test',
      volume: 50,
      account: someAccount(),
      leverage: 5,
      protocol: P,
      exchange: exchangeOf(profile.venue),
      copyWalletId: wallets[0]!.id,
      type: 'COPY_TRADER',
      excludingTokenAddresses: [],
      tokenAddresses: [],
      side: 'ONLY_LONG',
    });
    expect(created).toMatchObject({ title: 'Client test', side: 'LONG', status: 'RUNNING' });
    const updated = await user.updateCopyTrade(created.id, { status: 'STOPPED', leverage: 7 });
    expect(updated).toEqual({ ...created, status: 'STOPPED', leverage: 7 });
    const listed = await user.listCopyTrades({ ids: [created.id] });
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ ...updated, pnl: 0 });
    const all = await user.listCopyTrades();
    expect(all.length).toBeGreaterThanOrEqual(4);
    expect(all).toEqual(await raw('POST', '/copy-trades/list', {}));
  });

  it('pages copy positions with query and body, lists their orders, closes and unlinks', async () => {
    const open = await user.copyPositionsPage({ status: 'OPEN', limit: 50, sort_by: 'createdAt' });
    expect(open.data.length).toBeGreaterThanOrEqual(2);
    expectAll(open.data, (p) => p.status === 'OPEN');
    expect(open).toEqual(
      await raw('POST', '/copy-positions/page?status=OPEN&limit=50&sort_by=createdAt', {}),
    );
    const tradeId = open.data[0]!.copyTradeId;
    const ofTrade = await user.copyPositionsPage({ limit: 50 }, { copyTradeIds: [tradeId] });
    expectAll(ofTrade.data, (p) => p.copyTradeId === tradeId);

    const orders = await user.copyPositionOrders(open.data[0]!.id);
    expect(orders.length).toBeGreaterThan(0);
    expect(orders).toEqual(await raw('GET', `/copy-positions/${open.data[0]!.id}/orders`));

    const closed = await user.closeCopyPosition(open.data[0]!.id);
    expect(closed).toMatchObject({ id: open.data[0]!.id, status: 'CLOSE', closeType: 'MANUAL' });
    const unlinked = await user.unlinkCopyPosition(open.data[1]!.id);
    expect(unlinked).toMatchObject({ id: open.data[1]!.id, status: 'CLOSE', closeType: 'FORCE_CLOSE' });
    const again = await user.closeCopyPosition(open.data[0]!.id).catch((e: unknown) => e);
    expect(again).toMatchObject({ status: 409 });
  });

  it('pages activity logs', async () => {
    const body = { pagination: { limit: 5 }, sortBy: 'createdAt' as const, sortType: 'asc' as const };
    const page = await user.activityLogsPage(body);
    expect(page.data.length).toBeGreaterThan(0);
    expect(page).toEqual(await raw('POST', '/activity-logs/page', body));
  });

  it('lists tokens without credentials', async () => {
    const anonymous = new ServiceClient(profile);
    const tokens = await anonymous.tokens();
    expect(tokens[P]?.length).toBeGreaterThan(0);
    expect({ data: tokens }).toEqual(await raw('GET', '/pairs/tokens', undefined, {}));
  });
});

describe('credentials', () => {
  it('fails fast with NOT_LOGGED_IN without a token, before any request', async () => {
    let sent = 0;
    const counting: typeof fetch = (input, init) => {
      sent += 1;
      return fetch(input, init);
    };
    const client = new ServiceClient(profile, {
      fetch: counting,
      credentials: staticCredentials({ apiKey: key }),
    });
    const error = await client.listCopyTrades().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'NOT_LOGGED_IN', message: expect.stringMatching(/not logged in/) });
    const anonymous = new ServiceClient(profile, { fetch: counting });
    await expect(anonymous.statisticFilter(P)).rejects.toMatchObject({ code: 'NOT_LOGGED_IN' });
    await expect(user.searchAfter({ size: 1 })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      message: expect.stringMatching(/needs an API key/),
    });
    expect(sent).toBe(0);
  });

  it('carries the service message of a 401', async () => {
    const forged = new ServiceClient(profile, {
      credentials: staticCredentials({ accessToken: 'not.a.token' }),
    });
    const error = await forged.listCopyWallets().catch((e: unknown) => e);
    const answer = await fetch(`${svc.url}/copy-wallets/list`, { headers: { authorization: 'not.a.token' } });
    const { message } = (await answer.json()) as { message: string };
    expect(error).toBeInstanceOf(ServiceRequestError);
    expect(error).toMatchObject({
      code: 'UNAUTHORIZED',
      status: 401,
      message: `The service says: ${message}`,
    });
  });
});
