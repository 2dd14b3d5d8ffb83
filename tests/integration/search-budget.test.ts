// The search budget (src/service/http/search-budget.ts; docs/security.md, "Search time"): the time
// one caller's statistics searches hold the service's thread is charged to that caller, and a
// caller whose account is spent gets 429 for its searches only, while other callers and its other
// requests are answered. Over real HTTP, with the clock that times searches replaced, so that
// what a search costs is what the test says.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/service/auth/api-keys';
import { postJson, postJsonFrom, startTestService } from '../support/service';

const getStatus = async (url: string, headers: Record<string, string> = {}) =>
  (await fetch(url, { headers })).status;

const PUBLIC = '/public/NOVA_ARB/position/statistic/filter';
const PRIVATE = '/NOVA_ARB/position/statistic/filter';
const GRAPHQL_BODY = {
  query:
    'query ($index: String!, $body: SearchPayload!) { searchPositionStatistic(index: $index, body: $body) { meta { total } } }',
  variables: {
    index: 'local.position_statistics',
    body: { filter: { and: [] }, paging: { size: 5, from: 0 } },
  },
};

/** A second client machine, as the service sees it (postJsonFrom). */
const OTHER_ADDRESS = '127.0.0.2';

/** A fixture service whose every search takes `searchMs` by the clock that times them. */
function serviceWithSearchesOf(
  searchMs: number,
  searchBudget: { msPerSecond: number; burstMs: number },
  overrides: { publicAnonymous?: boolean } = {},
) {
  let ticks = 0;
  return startTestService({
    seedFixture: true,
    searchBudget,
    searchClock: () => (ticks += searchMs),
    ...overrides,
  });
}

describe('each caller has a budget of search time', () => {
  it('refuses a caller whose searches took their budget, until it refills, and no one else', async () => {
    // Every search takes 600 ms; 1,000 ms in hand, 100 ms back a second.
    const svc = await serviceWithSearchesOf(600, { msPerSecond: 100, burstMs: 1_000 });
    try {
      const a = createApiKey(svc.service.db, svc.clock.now());
      const b = createApiKey(svc.service.db, svc.clock.now());
      const search = (key: string, body: unknown = {}) =>
        postJson(`${svc.url}${PUBLIC}`, body, { 'x-api-key': key });
      expect((await search(a)).status).toBe(200); // 1,000 → 400
      expect((await search(a, { pagination: { limit: 5, offset: 0 } })).status).toBe(200); // 400 → -200
      const refused = await search(a);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('2');
      expect(refused.body).toMatchObject({ code: 'RATE_LIMITED' });
      expect(String(refused.body.message)).toContain('at most 100 ms a second');
      // Every search route shares the account: the private filter and GraphQL.
      expect((await postJson(`${svc.url}${PRIVATE}`, {}, { 'x-api-key': a })).status).toBe(429);
      const graphql = await postJson(`${svc.url}/graphql`, GRAPHQL_BODY, { 'x-api-key': a });
      expect(graphql.status).toBe(429);
      // Another caller from another address searches; the spent caller's other reads are answered.
      expect((await postJsonFrom(OTHER_ADDRESS, `${svc.url}${PUBLIC}`, {}, { 'x-api-key': b })).status).toBe(
        200,
      );
      expect(await getStatus(`${svc.url}/health`)).toBe(200);
      const trader = `${svc.url}/public/NOVA_ARB/position/statistic/trader/0x${'ab'.repeat(20)}`;
      expect([200, 404]).toContain(await getStatus(trader, { 'x-api-key': a }));
      // A refused search costs nothing: two seconds later the account is back at 0 and may search.
      svc.clock.advance(1_900);
      expect((await search(a)).status).toBe(429);
      svc.clock.advance(100);
      const searched = await postJson(`${svc.url}/graphql`, GRAPHQL_BODY, { 'x-api-key': a });
      expect(searched.status).toBe(200);
      expect(searched.body).toMatchObject({
        data: { searchPositionStatistic: { meta: { total: expect.any(Number) } } },
      });
      expect((await search(a)).status).toBe(429);
    } finally {
      await svc.close();
    }
  });

  it('shares one budget among the callers of an address, so new wallets or keys buy no time', async () => {
    // The public filter answers anonymous callers too, so one of them can be tried.
    const svc = await serviceWithSearchesOf(
      600,
      { msPerSecond: 100, burstMs: 1_000 },
      { publicAnonymous: true },
    );
    try {
      const [a, b, c] = [0, 1, 2].map(() => createApiKey(svc.service.db, svc.clock.now())) as [
        string,
        string,
        string,
      ];
      const search = (key: string) => postJson(`${svc.url}${PUBLIC}`, {}, { 'x-api-key': key });
      expect((await search(a)).status).toBe(200); // a 1,000 → 400; 127.0.0.1 1,000 → 400
      expect((await search(b)).status).toBe(200); // b 1,000 → 400; 127.0.0.1 400 → -200
      // c has never searched, but its address's account is spent: refused, the address named.
      const refused = await search(c);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('2');
      expect(String(refused.body.message)).toContain("from this caller's address");
      // An anonymous caller from the address is the address: refused too.
      expect((await postJson(`${svc.url}${PUBLIC}`, {}, {})).status).toBe(429);
      expect((await postJsonFrom(OTHER_ADDRESS, `${svc.url}${PUBLIC}`, {}, {})).status).toBe(200);
      // The same key from another address has its own account and that address's: answered.
      expect((await postJsonFrom(OTHER_ADDRESS, `${svc.url}${PUBLIC}`, {}, { 'x-api-key': c })).status).toBe(
        200,
      );
      // a's own account (400) is not what refuses it: the address's is.
      const again = await search(a);
      expect(again.status).toBe(429);
      expect(String(again.body.message)).toContain("from this caller's address");
      // Two seconds later the address is back at 0; c (now at 400 on its own) searches again.
      svc.clock.advance(2_000);
      expect((await search(c)).status).toBe(200);
    } finally {
      await svc.close();
    }
  });

  it('times searches by the real clock by default', async () => {
    // Nothing in hand: the first search runs (an account at 0 may search) and takes more than 0 ms.
    const svc = await startTestService({ seedFixture: true, searchBudget: { msPerSecond: 1, burstMs: 0 } });
    try {
      const key = createApiKey(svc.service.db, svc.clock.now());
      const search = () => postJson(`${svc.url}${PUBLIC}`, {}, { 'x-api-key': key });
      expect((await search()).status).toBe(200);
      const refused = await search();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    } finally {
      await svc.close();
    }
  });

  it('answers a bad body with its 400 whatever the budget, without charging it', async () => {
    const svc = await serviceWithSearchesOf(600, { msPerSecond: 100, burstMs: 500 });
    try {
      const key = createApiKey(svc.service.db, svc.clock.now());
      const bad = { ranges: [{ fieldName: 'noSuchField', gte: 1 }] };
      for (let i = 0; i < 3; i += 1)
        expect((await postJson(`${svc.url}${PUBLIC}`, bad, { 'x-api-key': key })).status).toBe(400);
      expect((await postJson(`${svc.url}${PUBLIC}`, {}, { 'x-api-key': key })).status).toBe(200);
      expect((await postJson(`${svc.url}${PUBLIC}`, bad, { 'x-api-key': key })).status).toBe(400);
      expect((await postJson(`${svc.url}${PUBLIC}`, {}, { 'x-api-key': key })).status).toBe(429);
    } finally {
      await svc.close();
    }
  });
});

describe('--search-budget', () => {
  // Three processes of the command line: up to ~10 s each on a loaded machine.
  it(
    'refuses a budget that is not a whole number of ms, naming the flag, and starts nothing',
    { timeout: 60_000 },
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'copydesk-search-budget-'));
      try {
        const db = join(dir, 'service.db');
        for (const [value, says] of [
          ['0', '--search-budget must be a whole number from 1 to 10000000'],
          ['250:-1', '--search-budget burst must be a whole number from 0 to 10000000'],
          ['2.5', '--search-budget must be a whole number from 1 to 10000000'],
        ] as const) {
          const run = spawnSync(
            process.execPath,
            ['--import', 'tsx', 'src/service/cli.ts', '--db', db, '--search-budget', value],
            {
              encoding: 'utf8',
            },
          );
          expect(run.status).toBe(2);
          expect(run.stderr).toContain(says);
        }
        expect(existsSync(db)).toBe(false);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
