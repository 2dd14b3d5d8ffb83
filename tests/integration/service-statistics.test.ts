import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RANKING_KEYS } from '../../src/shared/api/statistics';
import { computeStatistic } from '../../src/service/statistics/formulas/statistics';
import { traderFacts, markPrices } from '../../src/service/statistics/compute/facts';
import { recomputeAll } from '../../src/service/statistics/compute/recompute';
import {
  rankingOf,
  statisticToWire,
  type StatisticRow,
} from '../../src/service/statistics/store/statistic-rows';
import { postJson, startTestService, type RunningService } from '../support/service';
import { apiKeyFor, loginAs } from '../support/credentials';
import { expectAll } from '../support/expect-all';

let svc: RunningService;
let key: string;
let jwt: string;
const P = 'NOVA_ARB';

beforeAll(async () => {
  svc = await startTestService({ seedFixture: true });
  key = apiKeyFor(svc);
  jwt = (await loginAs(svc)).token;
});
afterAll(() => svc.close());

const withKey = () => ({ 'x-api-key': key });
const withJwt = () => ({ authorization: jwt });
const count = (sql: string, ...params: unknown[]) =>
  svc.service.db
    .prepare(sql)
    .pluck()
    .get(...params) as number;

type Rec = Record<string, unknown> & {
  id: string;
  account: string;
  type: string;
  ranking?: Record<string, number>;
};

describe('POST /{protocol}/position/statistic/filter', () => {
  it('filters by window, sorts and pages, with the decided meta', async () => {
    const body = {
      pagination: { limit: 25, offset: 0 },
      sortBy: 'realisedPnl',
      sortType: 'desc',
      queries: [{ fieldName: 'type', value: 'D30' }],
    };
    const res = await postJson(`${svc.url}/${P}/position/statistic/filter`, body, withKey());
    expect(res.status).toBe(200);
    const total = count(
      "SELECT COUNT(*) FROM statistics WHERE protocol = ? AND type = 'D30' AND gen_to IS NULL",
      P,
    );
    expect(total).toBeGreaterThan(25);
    expect(res.body.meta).toEqual({ limit: 25, offset: 0, total, totalPages: Math.ceil(total / 25) });
    const rows = res.body.data as Rec[];
    expect(rows).toHaveLength(25);
    expectAll(rows, (r) => r.type === 'D30' && r.protocol === P);
    const pnls = rows.map((r) => r.realisedPnl as number);
    expect(pnls).toEqual([...pnls].sort((a, b) => b - a));
  });

  it('answers records whose every value is the formula of docs/semantics.md over the trader positions', async () => {
    const res = await postJson(
      `${svc.url}/${P}/position/statistic/filter`,
      { queries: [{ fieldName: 'type', value: 'FULL' }], pagination: { limit: 3 } },
      withJwt(),
    );
    expect(res.body.data).toHaveLength(3);
    for (const record of res.body.data as Rec[]) {
      const expected = computeStatistic(
        traderFacts(svc.service.db, record.account, P),
        'FULL',
        svc.clock.ms,
        markPrices(svc.service.db),
      )!;
      for (const [field, value] of Object.entries(expected)) {
        if (field === 'statisticAt') continue;
        expect(record[field], field).toEqual(value);
      }
    }
  });

  it('renders each record exactly as statisticToWire does, ranking included', async () => {
    const res = await postJson(
      `${svc.url}/public/${P}/position/statistic/filter`,
      { pagination: { limit: 50 } },
      withKey(),
    );
    expect((res.body.data as Rec[]).length).toBeGreaterThan(0);
    for (const record of res.body.data as Rec[]) {
      const row = svc.service.db
        .prepare('SELECT * FROM statistics WHERE protocol = ? AND type = ? AND id = ? AND gen_to IS NULL')
        .get(P, record.type, record.id) as StatisticRow;
      expect(record).toEqual({ ...statisticToWire(row), ranking: rankingOf(row) });
    }
  });

  it('pages to the last page and beyond', async () => {
    const total = count(
      "SELECT COUNT(*) FROM statistics WHERE protocol = ? AND type = 'FULL' AND gen_to IS NULL",
      P,
    );
    const last = await postJson(
      `${svc.url}/${P}/position/statistic/filter`,
      { queries: [{ fieldName: 'type', value: 'FULL' }], pagination: { limit: 10, offset: total - 3 } },
      withKey(),
    );
    expect((last.body.data as unknown[]).length).toBe(3);
    const beyond = await postJson(
      `${svc.url}/${P}/position/statistic/filter`,
      { queries: [{ fieldName: 'type', value: 'FULL' }], pagination: { limit: 10, offset: total + 50 } },
      withKey(),
    );
    expect(beyond.body).toEqual({
      data: [],
      meta: { limit: 10, offset: total + 50, total, totalPages: Math.ceil(total / 10) },
    });
    const empty = await postJson(
      `${svc.url}/${P}/position/statistic/filter`,
      { queries: [{ fieldName: 'account', value: '0x' + '0'.repeat(40) }] },
      withKey(),
    );
    expect(empty.body).toEqual({ data: [], meta: { limit: 20, offset: 0, total: 0, totalPages: 0 } });
  });

  it.each([
    [{ sortBy: 'roi' }, /sortBy/],
    [{ queries: [{ fieldName: 'nonsense', value: '1' }] }, /queries\[0\]\.fieldName/],
    [{ pagination: { limit: 501 } }, /pagination\.limit must be at most 500/],
    [{ pagination: { offset: -1 } }, /pagination\.offset/],
    [{ sortType: 'up' }, /sortType/],
    [{ extra: 1 }, /extra/],
  ])('refuses %j with 400 naming the field', async (body, mentions) => {
    const res = await postJson(`${svc.url}/${P}/position/statistic/filter`, body, withKey());
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringMatching(mentions) });
  });

  it('refuses an unknown protocol', async () => {
    const res = await postJson(`${svc.url}/NOPE_ARB/position/statistic/filter`, {}, withKey());
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/NOPE_ARB/);
  });
});

describe('POST /public/{protocol}/position/statistic/filter', () => {
  it('applies ranges on metrics and percentiles and sorts by a percentile', async () => {
    const body = {
      queries: [{ fieldName: 'type', value: 'FULL' }],
      ranges: [
        { fieldName: 'winRate', gte: 40 },
        { fieldName: 'ranking.pnl', gte: 50 },
        { fieldName: 'totalTrade', lte: '25' },
      ],
      sortBy: 'ranking.pnl',
      sortType: 'desc',
      pagination: { limit: 500 },
    };
    const res = await postJson(`${svc.url}/public/${P}/position/statistic/filter`, body, withKey());
    expect(res.status).toBe(200);
    const rows = res.body.data as Rec[];
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.winRate as number).toBeGreaterThanOrEqual(40);
      expect(r.ranking!.pnl).toBeGreaterThanOrEqual(50);
      expect(r.totalTrade as number).toBeLessThanOrEqual(25);
    }
    const ranks = rows.map((r) => r.ranking!.pnl as number);
    expect(ranks).toEqual([...ranks].sort((a, b) => b - a));
    const direct = count(
      `SELECT COUNT(*) FROM statistics WHERE protocol = ? AND type = 'FULL' AND gen_to IS NULL AND "winRate" >= 40 AND "rk_pnl" >= 50 AND "totalTrade" <= 25`,
      P,
    );
    expect(res.body.meta).toMatchObject({ total: direct });
  });

  it('takes in and nin on text fields', async () => {
    const res = await postJson(
      `${svc.url}/public/${P}/position/statistic/filter`,
      { ranges: [{ fieldName: 'type', in: ['D7', 'D15'] }], pagination: { limit: 500 } },
      withKey(),
    );
    expect(new Set((res.body.data as Rec[]).map((r) => r.type))).toEqual(new Set(['D7', 'D15']));
    const nin = await postJson(
      `${svc.url}/public/${P}/position/statistic/filter`,
      { ranges: [{ fieldName: 'type', nin: ['FULL', 'D60', 'D30', 'D15'] }], pagination: { limit: 500 } },
      withKey(),
    );
    expect(new Set((nin.body.data as Rec[]).map((r) => r.type))).toEqual(new Set(['D7']));
  });

  it('refuses a range on an unknown field or without bounds', async () => {
    for (const ranges of [
      [{ fieldName: 'ranking.nothing', gte: 1 }],
      [{ fieldName: 'pnl' }],
      [{ fieldName: 'pnl', gte: 'lots' }],
    ]) {
      const res = await postJson(`${svc.url}/public/${P}/position/statistic/filter`, { ranges }, withKey());
      expect(res.status, JSON.stringify(ranges)).toBe(400);
      expect(res.body.message).toMatch(/ranges\[0\]/);
    }
  });
});

describe('GET /public/{protocol}/position/statistic/trader/{account}', () => {
  it('answers every window the trader has, each with its ranking', async () => {
    const account = svc.service.db
      .prepare("SELECT account FROM statistics WHERE protocol = ? AND type = 'D7' AND gen_to IS NULL LIMIT 1")
      .pluck()
      .get(P) as string;
    const res = await fetch(`${svc.url}/public/${P}/position/statistic/trader/${account.toLowerCase()}`, {
      headers: withKey(),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, Rec>;
    expect(Object.keys(body)).toContain('FULL');
    expect(Object.keys(body)).toContain('D7');
    for (const [window, record] of Object.entries(body)) {
      expect(record.type).toBe(window);
      expect(Object.keys(record.ranking!).sort()).toEqual([...RANKING_KEYS].sort());
      for (const v of Object.values(record.ranking!)) expect(v).toBeGreaterThanOrEqual(0);
    }
  });

  it('answers 404 for a trader without statistics, 400 for a bad address', async () => {
    expect(
      (
        await fetch(`${svc.url}/public/${P}/position/statistic/trader/0x${'1'.repeat(40)}`, {
          headers: withKey(),
        })
      ).status,
    ).toBe(404);
    expect(
      (await fetch(`${svc.url}/public/${P}/position/statistic/trader/nope`, { headers: withKey() })).status,
    ).toBe(400);
  });
});

describe('POST /trial/position/statistic/search-after', () => {
  const url = () => `${svc.url}/trial/position/statistic/search-after`;
  const all = async (pitBody: Record<string, unknown>) => {
    const seen: Rec[] = [];
    let next: Record<string, unknown> = pitBody;
    for (;;) {
      const res = await postJson(url(), next, withKey());
      expect(res.status).toBe(200);
      const rows = res.body.data as Rec[];
      if (rows.length === 0) return { seen, meta: res.body.meta as { total: number; pitId: string } };
      seen.push(...rows);
      const meta = res.body.meta as { pitId: string; searchAfter: unknown[] };
      next = { ...pitBody, pitId: meta.pitId, searchAfter: meta.searchAfter };
    }
  };

  it('walks every record once, without overlap or gap, sorted with an id tie-breaker', async () => {
    const query = {
      size: 97,
      sort: [{ totalTrade: 'desc' }],
      queries: [{ fieldName: 'type', value: 'FULL' }],
    };
    const { seen, meta } = await all(query);
    const total = count("SELECT COUNT(*) FROM statistics WHERE type = 'FULL' AND gen_to IS NULL");
    expect(meta.total).toBe(total);
    expect(seen).toHaveLength(total);
    expect(new Set(seen.map((r) => r.id)).size).toBe(total);
    for (let i = 1; i < seen.length; i += 1) {
      const [a, b] = [seen[i - 1]!, seen[i]!];
      expect(
        (a.totalTrade as number) > (b.totalTrade as number) || (a.totalTrade === b.totalTrade && a.id < b.id),
      ).toBe(true);
    }
  });

  it('renders each record exactly as statisticToWire does, and answers JSON text', async () => {
    const res = await postJson(url(), { size: 40, sort: [{ id: 'desc' }] }, withKey());
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const rows = res.body.data as Rec[];
    expect(rows).toHaveLength(40);
    for (const record of rows) {
      const row = svc.service.db
        .prepare('SELECT * FROM statistics WHERE protocol = ? AND type = ? AND id = ? AND gen_to IS NULL')
        .get(record.protocol, record.type, record.id) as StatisticRow;
      expect(record).toEqual(statisticToWire(row));
    }
    expect(res.body.meta).toMatchObject({ searchAfter: [rows.at(-1)!.id] });
  });

  it('keeps its snapshot across a recompute; a new pit sees the new data', async () => {
    const query = {
      size: 50,
      sort: [{ pnl: 'asc' }, { account: 'desc' }],
      queries: [{ fieldName: 'protocol', value: 'ORBIT_BASE' }],
    };
    const before = await all(query);
    const first = await postJson(url(), query, withKey());
    const { pitId, searchAfter } = first.body.meta as { pitId: string; searchAfter: unknown[] };
    // The world changes: a trader's positions go away and everything is recomputed.
    const gone = (first.body.data as Rec[])[0]!.account;
    svc.service.db.prepare('DELETE FROM orders WHERE account = ?').run(gone);
    svc.service.db.prepare('DELETE FROM positions WHERE account = ?').run(gone);
    recomputeAll(svc.service.db, svc.clock.ms);
    const rest: Rec[] = [];
    let next: Record<string, unknown> = { ...query, pitId, searchAfter };
    for (;;) {
      const res = await postJson(url(), next, withKey());
      const rows = res.body.data as Rec[];
      if (rows.length === 0) break;
      rest.push(...rows);
      next = { ...query, pitId, searchAfter: (res.body.meta as { searchAfter: unknown[] }).searchAfter };
    }
    expect([...(first.body.data as Rec[]), ...rest]).toEqual(before.seen);
    const after = await all(query);
    expect(after.seen.length).toBeGreaterThan(0);
    expect(after.seen.some((r) => r.account === gone)).toBe(false);
    expect(after.seen.length).toBeLessThan(before.seen.length);
  });

  it('expires a pit 5 minutes after its last use, by the service clock', async () => {
    const first = await postJson(url(), { size: 5 }, withKey());
    const pitId = (first.body.meta as { pitId: string }).pitId;
    svc.clock.advance(4 * 60_000);
    expect((await postJson(url(), { size: 5, pitId }, withKey())).status).toBe(200);
    svc.clock.advance(4 * 60_000);
    expect((await postJson(url(), { size: 5, pitId }, withKey())).status).toBe(200);
    svc.clock.advance(5 * 60_000);
    const expired = await postJson(url(), { size: 5, pitId }, withKey());
    expect(expired.status).toBe(404);
    expect(expired.body).toMatchObject({ code: 'PIT_EXPIRED' });
    expect((await postJson(url(), { size: 5, pitId: 'never-issued' }, withKey())).body).toMatchObject({
      code: 'PIT_EXPIRED',
    });
  });

  it('takes only an API key, and validates size and sort', async () => {
    expect((await postJson(url(), { size: 5 }, withJwt())).status).toBe(401);
    expect((await postJson(url(), { size: 5 })).status).toBe(401);
    expect((await postJson(url(), { size: 1001 }, withKey())).body.message).toMatch(
      /size must be at most 1000/,
    );
    expect((await postJson(url(), { sort: [{ nothing: 'asc' }] }, withKey())).status).toBe(400);
    expect(
      (await postJson(url(), { size: 5, sort: [{ pnl: 'desc' }], searchAfter: [1] }, withKey())).body.message,
    ).toMatch(/searchAfter must have 2 values/);
  });
});

describe('pnl-statistics', () => {
  it('answers the same series at both paths, summing to the record and adding protocols', async () => {
    const row = svc.service.db
      .prepare(
        'SELECT account, "realisedPnl" AS r FROM statistics WHERE protocol = ? AND type = \'D30\' AND gen_to IS NULL LIMIT 1',
      )
      .get(P) as { account: string; r: number };
    const body = { accounts: [{ account: row.account, protocol: P }], statisticType: 'D30' };
    const a = await postJson(`${svc.url}/public/position/statistic-perpx/pnl-statistics`, body, withKey());
    const b = await postJson(`${svc.url}/public/position/statistic/pnl-statistics`, body, withJwt());
    expect(a.status).toBe(200);
    expect(a.body).toEqual(b.body);
    const series = a.body[row.account] as {
      date: string[];
      realisedPnl: number[];
      unrealisedPnl: number[];
      fee: number[];
    };
    expect(series.date).toHaveLength(31);
    expect(series.date.at(-1)).toBe(
      new Date(Math.floor(svc.clock.ms / 86_400_000) * 86_400_000).toISOString(),
    );
    expect(series.realisedPnl.reduce((s, v) => s + v, 0)).toBeCloseTo(row.r, 6);

    const other = await postJson(
      `${svc.url}/public/position/statistic/pnl-statistics`,
      { accounts: [{ account: row.account, protocol: 'ORBIT_BASE' }], statisticType: 'D30' },
      withKey(),
    );
    const both = await postJson(
      `${svc.url}/public/position/statistic/pnl-statistics`,
      {
        accounts: [
          { account: row.account, protocol: P },
          { account: row.account, protocol: 'ORBIT_BASE' },
        ],
        statisticType: 'D30',
      },
      withKey(),
    );
    const sum = (s: { realisedPnl: number[] }) => s.realisedPnl.reduce((x, v) => x + v, 0);
    expect(sum(both.body[row.account] as never)).toBeCloseTo(
      sum(series) + sum(other.body[row.account] as never),
      6,
    );
  });

  it('refuses an unknown protocol or window', async () => {
    const res = await postJson(
      `${svc.url}/public/position/statistic/pnl-statistics`,
      { accounts: [{ account: '0x' + '1'.repeat(40), protocol: 'NOPE' }] },
      withKey(),
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/accounts\[0\]\.protocol/);
    expect(
      (
        await postJson(
          `${svc.url}/public/position/statistic/pnl-statistics`,
          { accounts: [{ account: '0x' + '1'.repeat(40), protocol: P }], statisticType: 'D9' },
          withKey(),
        )
      ).status,
    ).toBe(400);
  });
});

describe('POST /{protocol}/position/filter', () => {
  it('filters by status and account (also in the path), sorts and pages', async () => {
    const account = svc.service.db
      .prepare(
        'SELECT account FROM positions WHERE protocol = ? GROUP BY account ORDER BY COUNT(*) DESC LIMIT 1',
      )
      .pluck()
      .get(P) as string;
    const inBody = await postJson(
      `${svc.url}/${P}/position/filter`,
      {
        queries: [
          { fieldName: 'account', value: account.toLowerCase() },
          { fieldName: 'status', value: 'CLOSE' },
        ],
        sortBy: 'pnl',
        sortType: 'asc',
        pagination: { limit: 500 },
      },
      withKey(),
    );
    const inPath = await postJson(
      `${svc.url}/${P}/position/filter/${account}`,
      {
        queries: [{ fieldName: 'status', value: 'CLOSE' }],
        sortBy: 'pnl',
        sortType: 'asc',
        pagination: { limit: 500 },
      },
      withJwt(),
    );
    expect(inBody.status).toBe(200);
    expect(inBody.body).toEqual(inPath.body);
    const rows = inBody.body.data as Rec[];
    expect(rows.length).toBe(
      count(
        "SELECT COUNT(*) FROM positions WHERE protocol = ? AND account = ? AND status = 'CLOSE'",
        P,
        account,
      ),
    );
    expectAll(rows, (r) => r.account === account && r.status === 'CLOSE' && r.closeBlockTime !== null);
    const pnls = rows.map((r) => r.pnl as number);
    expect(pnls).toEqual([...pnls].sort((a, b) => a - b));
    const open = await postJson(
      `${svc.url}/${P}/position/filter`,
      { queries: [{ fieldName: 'status', value: 'OPEN' }] },
      withKey(),
    );
    expectAll(
      open.body.data as Rec[],
      (r) =>
        r.status === 'OPEN' && r.closeBlockTime === null && r.isWin === null && r.durationInSecond === null,
    );
    expect(open.body.meta).toMatchObject({
      total: count("SELECT COUNT(*) FROM positions WHERE protocol = ? AND status = 'OPEN'", P),
    });
  });

  it('refuses an unknown sort or query field', async () => {
    expect((await postJson(`${svc.url}/${P}/position/filter`, { sortBy: 'winRate' }, withKey())).status).toBe(
      400,
    );
    expect(
      (
        await postJson(
          `${svc.url}/${P}/position/filter`,
          { queries: [{ fieldName: 'fee', value: '1' }] },
          withKey(),
        )
      ).status,
    ).toBe(400);
  });
});

describe('credentials and limits', () => {
  it.each([
    ['POST', `/${P}/position/statistic/filter`],
    ['POST', `/public/${P}/position/statistic/filter`],
    ['GET', `/public/${P}/position/statistic/trader/0x${'1'.repeat(40)}`],
    ['POST', '/trial/position/statistic/search-after'],
    ['POST', '/public/position/statistic/pnl-statistics'],
    ['POST', `/${P}/position/filter`],
    ['POST', `/${P}/position/filter/0x${'1'.repeat(40)}`],
  ])('%s %s answers 401 without credentials, and with a forged token', async (method, path) => {
    const send = (headers: Record<string, string>) =>
      fetch(`${svc.url}${path}`, {
        method,
        headers: { ...headers, ...(method === 'POST' && { 'content-type': 'application/json' }) },
        ...(method === 'POST' && { body: '{}' }),
      });
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer not.a.token' },
      { 'x-api-key': 'cdk_unknown' },
    ];
    for (const headers of attempts) {
      const res = await send(headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    }
  });

  it('answers 429 with Retry-After past the burst, per credential', async () => {
    const limited = await startTestService({ rateLimit: { perSecond: 1, burst: 3 } });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await fetch(`${limited.url}/pairs/tokens`)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const res = await fetch(`${limited.url}/pairs/tokens`);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(await res.json()).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
      limited.clock.advance(1000);
      expect((await fetch(`${limited.url}/pairs/tokens`)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
