// The statistics channels of the core (src/main/core/handlers/statistics.ts) against the real local
// service over HTTP with the fixture world: leaderboards from the service and from downloaded
// datasets, the merge of several protocols, and the trader channels.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeaderboardPageRequest } from '../../src/shared/ipc/schemas/leaderboard';
import { CoreError } from '../../src/main/core/errors';
import { startTestService, type RunningService } from '../support/service';
import { apiKeyFor } from '../support/credentials';
import { profileFor, statisticsHarness, type StatisticsHarness } from '../support/statistics-harness';
import { replacePopulation } from '../support/statistics-world';
import { expectAll } from '../support/expect-all';

let svc: RunningService;
let key: string;
let core: StatisticsHarness;
const PROTOCOLS = ['NOVA_ARB', 'HELIX_OP', 'MERIDIAN_BSC'];
const WINDOW = 'D60' as const;
// The fixture world has no null statistic and few ties: this population has many of both.
const SYNTHETIC = { protocol: 'ZENITH_ARB', window: 'D7' } as const;
const DATASETS = [...PROTOCOLS.map((protocol) => ({ protocol, window: WINDOW })), SYNTHETIC];

beforeAll(async () => {
  svc = await startTestService({ seedFixture: true });
  replacePopulation(svc.service.db, SYNTHETIC.protocol, SYNTHETIC.window, 300);
  key = apiKeyFor(svc);
  core = statisticsHarness(profileFor(svc), { apiKey: key, datasets: { batchSize: 7 } });
  for (const dataset of DATASETS) {
    await core.invoke('downloads:start', dataset);
    await core.datasets.settled(core.profileId, dataset);
  }
});
afterAll(async () => {
  await core?.close();
  await svc?.close();
});

const sql = <T>(query: string, ...params: unknown[]): T[] =>
  svc.service.db.prepare(query).all(...params) as T[];

/** The service's own answer to a GET or POST, with the API key. */
async function raw(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${svc.url}${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  expect(res.status).toBeLessThan(300);
  return res.json();
}

describe('downloaded datasets', () => {
  it('are complete, listed, and hold every record of their population', async () => {
    const states = await core.invoke('downloads:list', {});
    expect(states.map((s) => [s.protocol, s.window, s.state])).toEqual(
      DATASETS.map((d) => [d.protocol, d.window, 'complete']),
    );
    for (const state of states) {
      const [{ n }] = sql<{ n: number }>(
        'SELECT COUNT(*) AS n FROM statistics WHERE protocol = ? AND type = ? AND gen_to IS NULL',
        state.protocol,
        state.window,
      ) as [{ n: number }];
      expect(n).toBeGreaterThan(10);
      expect(state).toMatchObject({ downloaded: n, total: n });
    }
    expect(core.progress.some((p) => p.state === 'running')).toBe(true);
    expect(core.progress.filter((p) => p.state === 'complete')).toHaveLength(DATASETS.length);
    expect(core.datasets.stats()).toMatchObject({ datasets: DATASETS.length });
    expect(core.datasets.stats().bytes).toBeGreaterThan(0);
  });
});

describe('leaderboard:page', () => {
  const requests: [string, LeaderboardPageRequest][] = [
    ['the default sort', { protocols: ['NOVA_ARB'], window: WINDOW, limit: 10 }],
    [
      'ranges on statistics and percentiles, an ascending sort, an offset',
      {
        protocols: ['NOVA_ARB'],
        window: WINDOW,
        ranges: [
          { fieldName: 'winRate', gte: 20 },
          { fieldName: 'ranking.pnl', gte: '30' },
          { fieldName: 'totalTrade', gt: 1 },
        ],
        sort: { field: 'winRate', direction: 'asc' },
        offset: 3,
        limit: 7,
      },
    ],
    [
      'a field with nulls, sorted both ways',
      {
        protocols: ['HELIX_OP'],
        window: WINDOW,
        sort: { field: 'realisedMaxDrawdown', direction: 'asc' },
        limit: 100,
      },
    ],
    [
      'in, nin, lt and lte',
      {
        protocols: ['HELIX_OP'],
        window: WINDOW,
        ranges: [
          { fieldName: 'totalTrade', nin: [1, 2] },
          { fieldName: 'ranking.winRate', lte: 90 },
          { fieldName: 'avgLeverage', lt: 40 },
          { fieldName: 'isOpenPosition', in: [true, false] },
        ],
        sort: { field: 'ranking.avgLeverage', direction: 'desc' },
        limit: 100,
      },
    ],
    [
      'a time range and a sort on the account',
      {
        protocols: ['MERIDIAN_BSC'],
        window: WINDOW,
        ranges: [{ fieldName: 'lastTradeAt', gte: '2000-01-01T00:00:00.000Z' }],
        sort: { field: 'account', direction: 'desc' },
        limit: 15,
      },
    ],
    [
      'three protocols merged in sort order',
      {
        protocols: PROTOCOLS,
        window: WINDOW,
        ranges: [{ fieldName: 'ranking.realisedPnl', gte: 10 }],
        sort: { field: 'avgRoi', direction: 'desc' },
        offset: 5,
        limit: 30,
      },
    ],
    [
      'three protocols, ties broken by id',
      {
        protocols: PROTOCOLS,
        window: WINDOW,
        sort: { field: 'totalLiquidation', direction: 'asc' },
        limit: 60,
      },
    ],
    [
      'nulls first in an ascending sort',
      {
        ...SYNTHETIC,
        protocols: [SYNTHETIC.protocol],
        sort: { field: 'realisedMaxDrawdown', direction: 'asc' },
        offset: 60,
        limit: 50,
      },
    ],
    [
      'nulls last in a descending sort, ranges on nullable fields',
      {
        ...SYNTHETIC,
        protocols: [SYNTHETIC.protocol],
        ranges: [
          { fieldName: 'maxLeverage', nin: [7] },
          { fieldName: 'minDuration', lte: 50 },
        ],
        sort: { field: 'minLeverage', direction: 'desc' },
        offset: 40,
        limit: 100,
      },
    ],
    [
      'ties in values and in percentiles',
      {
        ...SYNTHETIC,
        protocols: [SYNTHETIC.protocol],
        ranges: [{ fieldName: 'ranking.totalTrade', in: [0, 100] }],
        sort: { field: 'ranking.pnl', direction: 'asc' },
        offset: 10,
        limit: 100,
      },
    ],
  ].map(([name, request]) => {
    const { protocol: _, ...rest } = request as LeaderboardPageRequest & { protocol?: string };
    return [name, rest] as [string, LeaderboardPageRequest];
  });

  it.each(requests)('gives the same rows from the service and from the datasets: %s', async (_, request) => {
    const fromService = await core.invoke('leaderboard:page', { ...request, source: 'service' });
    const offline = await core.invoke('leaderboard:page', { ...request, source: 'downloaded' });
    expect(fromService.data.origin).toBe('service');
    expect(offline.data.origin).toBe('downloaded');
    expect(fromService.data.rows.length).toBeGreaterThan(0);
    expect(offline.data.total).toBe(fromService.data.total);
    expect(offline.data.rows).toEqual(fromService.data.rows);
    expect(offline.freshness).toMatchObject({ fromCache: true, stale: false });
  });

  it.each([
    ['a statistic', PROTOCOLS, WINDOW, 'realisedPnl', 'desc', 12],
    ['ties only (every value equal)', PROTOCOLS, WINDOW, 'totalLiquidation', 'asc', 20],
    ['nulls first', [SYNTHETIC.protocol, 'NOVA_ARB', 'HELIX_OP'], SYNTHETIC.window, 'minLeverage', 'asc', 0],
    ['nulls last', [SYNTHETIC.protocol, 'NOVA_ARB', 'HELIX_OP'], SYNTHETIC.window, 'maxLeverage', 'desc', 0],
  ] as const)(
    'merges several protocols as one SQL sort over all their records would: %s',
    async (_, protocols, window, field, direction, offset) => {
      const where = `type = ? AND protocol IN (?, ?, ?) AND gen_to IS NULL AND "winRate" >= 0`;
      const [{ n }] = sql<{ n: number }>(
        `SELECT COUNT(*) AS n FROM statistics WHERE ${where}`,
        window,
        ...protocols,
      ) as [{ n: number }];
      const limit = offset === 0 ? 500 : 40;
      const expected = sql<{ id: string; protocol: string }>(
        `SELECT id, protocol FROM statistics WHERE ${where}
         ORDER BY "${field}" ${direction}, id ASC, protocol ASC LIMIT ${limit} OFFSET ${offset}`,
        window,
        ...protocols,
      );
      const sources = window === WINDOW ? (['service', 'downloaded'] as const) : (['service'] as const);
      for (const source of sources) {
        const page = await core.invoke('leaderboard:page', {
          protocols: [...protocols],
          window,
          ranges: [{ fieldName: 'winRate', gte: 0 }],
          sort: { field, direction },
          offset,
          limit,
          source,
        });
        expect(page.data.rows.map((r) => ({ id: r.id, protocol: r.protocol }))).toEqual(expected);
        expect(page.data.total).toBe(n);
      }
      expect(new Set(expected.map((r) => r.protocol)).size).toBeGreaterThan(1);
    },
  );

  it('answers from the datasets when every protocol has one (auto), else from the service', async () => {
    const all = await core.invoke('leaderboard:page', { protocols: PROTOCOLS, window: WINDOW });
    expect(all.data.origin).toBe('downloaded');
    const some = await core.invoke('leaderboard:page', {
      protocols: ['NOVA_ARB', 'ORBIT_BASE'],
      window: 'FULL',
    });
    expect(some.data.origin).toBe('service');
    await expect(
      core.invoke('leaderboard:page', { protocols: ['ORBIT_BASE'], window: 'FULL', source: 'downloaded' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('is cache-first from the service: the second answer comes from the cache and is refreshed', async () => {
    const request = { protocols: ['ORBIT_BASE'], window: 'FULL', limit: 5, source: 'service' } as const;
    const first = await core.invoke('leaderboard:page', request);
    expect(first.freshness.fromCache).toBe(false);
    const fresh = new Promise((resolve) => core.events.on('data:fresh', resolve));
    const second = await core.invoke('leaderboard:page', request);
    expect(second.freshness.fromCache).toBe(true);
    expect(second.data).toEqual(first.data);
    expect(await fresh).toMatchObject({ channel: 'leaderboard:page' });
  });

  it('refuses a bound that is not a number, from the datasets as from the service', async () => {
    const request = {
      protocols: ['NOVA_ARB'],
      window: WINDOW,
      ranges: [{ fieldName: 'pnl', gte: 'lots' }],
    } as const;
    await expect(core.invoke('leaderboard:page', { ...request, source: 'downloaded' })).rejects.toMatchObject(
      {
        code: 'VALIDATION_FAILED',
        message: 'ranges[0].gte must be a number or numeric text',
      },
    );
    await expect(core.invoke('leaderboard:page', { ...request, source: 'service' })).rejects.toBeInstanceOf(
      CoreError,
    );
  });
});

describe('trader channels', () => {
  const P = 'NOVA_ARB';
  const account = () =>
    (
      sql<{ account: string }>(
        `SELECT account FROM positions WHERE protocol = ? GROUP BY account ORDER BY COUNT(*) DESC, account LIMIT 1`,
        P,
      )[0] as { account: string }
    ).account;

  it('trader:statistics answers the ranked record per window, cache-first', async () => {
    const a = account();
    const first = await core.invoke('trader:statistics', { protocol: P, account: a });
    expect(first.freshness.fromCache).toBe(false);
    expect(first.data).toEqual(await raw('GET', `/public/${P}/position/statistic/trader/${a}`));
    // A ranking object with figures in it (toBeDefined would let a null through).
    expect(Object.keys(first.data.FULL?.ranking ?? {}).length).toBeGreaterThan(0);
    const again = await core.invoke('trader:statistics', { protocol: P, account: a });
    expect(again.freshness.fromCache).toBe(true);
  });

  it('trader:positions answers the trader’s positions of a status', async () => {
    const a = account();
    const page = await core.invoke('trader:positions', {
      protocol: P,
      account: a,
      status: 'CLOSE',
      limit: 500,
    });
    const [{ n }] = sql<{ n: number }>(
      `SELECT COUNT(*) AS n FROM positions WHERE protocol = ? AND account = ? AND status = 'CLOSE'`,
      P,
      a,
    ) as [{ n: number }];
    expect(n).toBeGreaterThan(0);
    expect(page.data.meta.total).toBe(n);
    expectAll(page.data.data, (p) => p.account === a && p.status === 'CLOSE');
    const sorted = await core.invoke('trader:positions', {
      protocol: P,
      account: a,
      sortBy: 'pnl',
      sortType: 'asc',
    });
    const pnls = sorted.data.data.map((p) => p.pnl);
    expect(pnls).toEqual([...pnls].sort((x, y) => x - y));
  });

  it('trader:orders answers the trader’s orders, newest first, or one position’s', async () => {
    const a = account();
    const all = await core.invoke('trader:orders', { protocol: P, account: a, limit: 1000 });
    const [{ n }] = sql<{ n: number }>(
      'SELECT COUNT(*) AS n FROM orders WHERE protocol = ? AND account = ?',
      P,
      a,
    ) as [{ n: number }];
    expect(all.data.meta.total).toBe(n);
    expectAll(all.data.data, (o) => o.account === a && o.protocol === P);
    const times = all.data.data.map((o) => o.blockTime);
    expect(times).toEqual([...times].sort().reverse());
    const positionKey = all.data.data.find((o) => o.key)?.key as string;
    const one = await core.invoke('trader:orders', { protocol: P, account: a, key: positionKey });
    const [{ k }] = sql<{ k: number }>('SELECT COUNT(*) AS k FROM orders WHERE key = ?', positionKey) as [
      { k: number },
    ];
    expect(one.data.meta.total).toBe(k);
    expect(k).toBeLessThan(n);
    expectAll(one.data.data, (o) => o.key === positionKey);
  });

  it('statistics:pnl answers the daily series keyed by account', async () => {
    const a = account();
    const answer = await core.invoke('statistics:pnl', {
      accounts: [{ account: a, protocol: P }],
      window: 'D30',
    });
    expect(answer.data).toEqual(
      await raw('POST', `/public/position/statistic-${svc.service.config.venue}/pnl-statistics`, {
        accounts: [{ account: a, protocol: P }],
        statisticType: 'D30',
      }),
    );
    expect(answer.data[a]?.date).toHaveLength(31);
  });
});

describe('downloads:delete', () => {
  it('removes a dataset: the offline leaderboard says it is missing', async () => {
    const remaining = await core.invoke('downloads:delete', { protocol: 'MERIDIAN_BSC', window: WINDOW });
    expect(remaining.map((s) => s.protocol)).toEqual(['NOVA_ARB', 'HELIX_OP', SYNTHETIC.protocol]);
    await expect(
      core.invoke('leaderboard:page', { protocols: ['MERIDIAN_BSC'], window: WINDOW, source: 'downloaded' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(core.datasets.stats().datasets).toBe(DATASETS.length - 1);
  });
});
