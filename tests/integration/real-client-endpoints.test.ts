import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderSchema, positionSchema } from '../../src/shared/api/positions';
import {
  CLIENT_PLANS,
  PERMISSION_SECTIONS,
  permissionsSchema,
  pnlStatisticsV2ResponseSchema,
  systemConfigSchema,
  tokenStatisticSchema,
  traderExchangesSchema,
  traderPnlSeriesSchema,
  type TokenStatistic,
  type TraderPnlDay,
} from '../../src/shared/api/real-client';
import { postJson, startTestService, type RunningService } from '../support/service';
import { apiKeyFor } from '../support/credentials';
import { expectAll } from '../support/expect-all';

const P = 'NOVA_ARB';
const DAY = 86_400_000;
let svc: RunningService;
let key: string;

beforeAll(async () => {
  svc = await startTestService({ seedFixture: true, copyTradeQuota: 7, startingBalance: 12_345 });
  key = apiKeyFor(svc);
});
afterAll(() => svc.close());

const get = async (path: string, headers: Record<string, string> = { 'x-api-key': key }) => {
  const res = await fetch(`${svc.url}${path}`, { headers });
  return { status: res.status, body: (await res.json()) as unknown };
};
const message = (body: unknown) => (body as { message: string }).message;
const sum = <T>(rows: T[], pick: (row: T) => number) => rows.reduce((acc, row) => acc + pick(row), 0);
const db = () => svc.service.db;

/** The fields of a FULL record these tests compare with. */
interface FullRecord {
  id: string;
  lastTradeAt: string;
  lastTradeAtTs: number;
  indexTokens: string[];
  totalTrade: number;
  totalWin: number;
  longRate: number;
  realisedPnl: number;
  pnl: number;
  totalFee: number;
  totalVolume: number;
  realisedMaxRoi: number;
}

/** The trader of P with the most positions, one with open ones, and its FULL record over HTTP. */
async function busiestTrader(open: boolean) {
  const account = db()
    .prepare(
      `SELECT account FROM positions WHERE protocol = ? GROUP BY account
       HAVING SUM(status = 'OPEN') ${open ? '>' : '='} 0 ORDER BY COUNT(*) DESC, account LIMIT 1`,
    )
    .pluck()
    .get(P) as string;
  const { body } = await get(`/public/${P}/position/statistic/trader/${account}`);
  return { account, full: (body as { FULL: FullRecord }).FULL };
}

describe('the configuration calls (no credentials)', () => {
  it('GET /permissions/all gives every section under every plan, from what the service serves', async () => {
    const { status, body } = await get('/permissions/all', {});
    expect(status).toBe(200);
    const permissions = permissionsSchema.parse(body);
    expect(Object.keys(permissions).sort()).toEqual([...PERMISSION_SECTIONS].sort());
    const tokens = (await get('/pairs/tokens', {})).body as { data: Record<string, unknown> };
    const protocols = Object.keys(tokens.data).sort();
    for (const plan of CLIENT_PLANS) {
      const explorer = permissions.TRADER_EXPLORER[plan] as Record<string, unknown>;
      expect(explorer.protocolAllowed).toEqual(protocols);
      expect(explorer.timeFramesAllowed).toEqual(['FULL', 'D60', 'D30', 'D15', 'D7']);
      expect(explorer.fieldsAllowed).toEqual(expect.arrayContaining(['pnl', 'winRate', 'realisedPnl']));
      expect((permissions.PROTOCOL[plan] as Record<string, unknown>).protocolAllowed).toEqual(protocols);
      expect((permissions.COPY_TRADING[plan] as Record<string, unknown>).copyTradeQuota).toBe(7);
      // What the service does not have is switched off, not faked.
      expect(permissions.TRADER_ALERT[plan]!.isEnabled).toBe(false);
      expect(permissions.OPEN_INTEREST[plan]!.isEnabled).toBe(false);
    }
  });

  it('GET /public/system-configs carries the configured quota and sandbox balance, and no alerts', async () => {
    const { status, body } = await get('/public/system-configs', {});
    expect(status).toBe(200);
    const config = systemConfigSchema.parse(body);
    expect(config.systemAlert).toEqual([]);
    expect(config.copyTradeVolumeConfig).toEqual({
      volumeWoReferral: 12_345,
      volumePremiumReferral: 12_345,
      volumeVipReferral: 12_345,
    });
    expect(config.planSubscriptionLimitConfig.map((l) => l.plan)).toEqual([...CLIENT_PLANS]);
    for (const limit of config.planSubscriptionLimitConfig) expect(limit.copyTrades).toBe(7);
  });

  it('GET /public/trading-event/list answers the empty list: the service runs no trading events', async () => {
    for (const query of ['', '?isPublic=true', '?isPublic=false']) {
      expect(await get(`/public/trading-event/list${query}`, {})).toEqual({ status: 200, body: [] });
    }
  });

  it.each([
    ['/public/trading-event/list?isPublic=yes', /^isPublic must be true or false/],
    ['/public/trading-event/list?page=2', /^query must not contain unknown field "page"/],
    ['/permissions/all?plan=PRO', /^query must not contain unknown field "plan"/],
    ['/public/system-configs?x=1', /^query must not contain unknown field "x"/],
  ])('%s answers 400 naming the field', async (path, rule) => {
    const { status, body } = await get(path, {});
    expect(status).toBe(400);
    expect(message(body)).toMatch(rule);
  });
});

describe('GET /public/position/statistic/exchange/{account}', () => {
  it("lists the trader's protocols with the FULL record's volume, last trade and open flag", async () => {
    const { account, full } = await busiestTrader(true);
    const { status, body } = await get(`/public/position/statistic/exchange/${account}`);
    expect(status).toBe(200);
    const exchanges = traderExchangesSchema.parse(body);
    const expected = db()
      .prepare(`SELECT protocol FROM statistics WHERE account = ? AND type = 'FULL' AND gen_to IS NULL`)
      .pluck()
      .all(account) as string[];
    expect(Object.keys(exchanges).sort()).toEqual(expected.sort());
    expect(exchanges[P]).toEqual({
      id: full.id,
      protocol: P,
      isOpenPosition: true,
      lastTradeAt: full.lastTradeAt,
      lastTradeAtTs: full.lastTradeAtTs,
      totalVolume: full.totalVolume,
    });
    // Addresses compare case-insensitively, as everywhere in the API.
    expect((await get(`/public/position/statistic/exchange/${account.toLowerCase()}`)).body).toEqual(body);
  });

  it('answers {} for an account it has no statistics of, and 400 for a malformed one', async () => {
    expect((await get(`/public/position/statistic/exchange/0x${'ab'.repeat(20)}`)).body).toEqual({});
    const bad = await get('/public/position/statistic/exchange/0x123');
    expect(bad.status).toBe(400);
    expect(message(bad.body)).toMatch(/^account must be a 0x address/);
  });
});

describe('GET /{protocol}/statistic/trader/pnl/{account}', () => {
  it('over all time, its days add up to the FULL record: realised PnL, fees and pnl', async () => {
    const { account, full } = await busiestTrader(false);
    const { status, body } = await get(`/${P}/statistic/trader/pnl/${account}?from=0&to=${Date.now()}`);
    expect(status).toBe(200);
    const days = traderPnlSeriesSchema.parse(body);
    expect(days.length).toBeGreaterThan(1);
    expect(sum(days, (d) => d.realisedPnl)).toBeCloseTo(full.realisedPnl, 6);
    expect(sum(days, (d) => d.fee)).toBeCloseTo(full.totalFee, 6);
    expect(sum(days, (d) => d.pnl)).toBeCloseTo(full.pnl, 6);
    // Ascending UTC days, each listed once, each with something in it (no isFill).
    const times = days.map((d) => Date.parse(d.date));
    expectAll(times, (t, i) => t % DAY === 0 && (i === 0 || t > times[i - 1]!));
    expectAll(days, (d) => d.realisedPnl !== 0 || d.fee !== 0 || d.unrealisedPnl !== 0);
    let running = 0;
    for (const day of days) {
      running += day.pnl + day.unrealisedPnl;
      expect(day.cumulativePnl).toBeCloseTo(running, 6);
      expect(day.pnl).toBeCloseTo(day.realisedPnl - day.fee + day.funding, 9);
    }
  });

  it('with isFill=true lists every day from the day of `from` to the day of `to`, empty ones as 0', async () => {
    const { account } = await busiestTrader(false);
    const to = svc.clock.now().getTime();
    const from = to - 7 * DAY;
    const all = traderPnlSeriesSchema.parse(
      (await get(`/${P}/statistic/trader/pnl/${account}?from=${from}&to=${to}&isFill=true`)).body,
    );
    expect(all.map((d) => d.date)).toEqual(
      Array.from({ length: 8 }, (_, i) => new Date(Math.floor(from / DAY) * DAY + i * DAY).toISOString()),
    );
    const sparse = traderPnlSeriesSchema.parse(
      (await get(`/${P}/statistic/trader/pnl/${account}?from=${from}&to=${to}`)).body,
    );
    const nonEmpty = (d: TraderPnlDay) => d.realisedPnl !== 0 || d.fee !== 0 || d.unrealisedPnl !== 0;
    expect(sparse).toEqual(all.filter(nonEmpty));
  });

  it("puts the open positions' unrealised PnL on today's entry only", async () => {
    const { account } = await busiestTrader(true);
    const now = svc.clock.now().getTime();
    const days = traderPnlSeriesSchema.parse(
      (await get(`/${P}/statistic/trader/pnl/${account}?from=0&to=${now}`)).body,
    );
    const today = new Date(Math.floor(now / DAY) * DAY).toISOString();
    for (const day of days) if (day.date !== today) expect(day.unrealisedPnl).toBe(0);
    // Today is listed (`?.` then `not.toBe(0)` would pass on a missing entry), with the unrealised PnL.
    const todays = days.find((d) => d.date === today);
    expect(todays?.date).toBe(today);
    expect(todays?.unrealisedPnl).not.toBe(0);
  });

  it.each([
    ['?to=5', /^from is required/],
    ['?from=abc&to=5', /^from must be/],
    ['?from=10&to=5', /^to must not be before from/],
    ['?from=0&to=5&isFill=1', /^isFill must be true or false/],
    [`?from=0&to=${3661 * DAY}&isFill=true`, /^to must be at most 3660 days after from when isFill is true/],
    ['?from=0&to=5&limit=3', /^query must not contain unknown field "limit"/],
  ])('%s answers 400 naming the field', async (query, rule) => {
    const { account } = await busiestTrader(false);
    const { status, body } = await get(`/${P}/statistic/trader/pnl/${account}${query}`);
    expect(status).toBe(400);
    expect(message(body)).toMatch(rule);
  });
});

describe('POST /public/position/statistic/pnl-statistics-v2', () => {
  const v2 = (body: unknown) =>
    postJson(`${svc.url}/public/position/statistic/pnl-statistics-v2`, body, { 'x-api-key': key });

  it("answers each (account, protocol) pair apart, keyed account-protocol, as the spec's series of that pair", async () => {
    const pairs = db()
      .prepare(
        `SELECT account, protocol FROM statistics WHERE type = 'D30' AND gen_to IS NULL
         ORDER BY protocol, account LIMIT 3`,
      )
      .all() as { account: string; protocol: string }[];
    const other = db()
      .prepare(
        `SELECT protocol FROM statistics WHERE type = 'D30' AND gen_to IS NULL AND protocol != ? LIMIT 1`,
      )
      .pluck()
      .get(pairs[0]!.protocol) as string;
    // The same account on a protocol it may not trade on: a series of zeros, not the other's.
    pairs.push({ account: pairs[0]!.account, protocol: other });
    const { status, body } = await v2({ accounts: pairs, statisticType: 'D30' });
    expect(status).toBe(200);
    const answer = pnlStatisticsV2ResponseSchema.parse(body);
    expect(Object.keys(answer).sort()).toEqual(pairs.map((p) => `${p.account}-${p.protocol}`).sort());
    for (const pair of pairs) {
      const spec = await postJson(
        `${svc.url}/public/position/statistic/pnl-statistics`,
        { accounts: [pair], statisticType: 'D30' },
        { 'x-api-key': key },
      );
      expect(answer[`${pair.account}-${pair.protocol}`]).toEqual(spec.body[pair.account]);
    }
  });

  it('refuses an unknown protocol and an empty list with 400 naming the field', async () => {
    const account = `0x${'ab'.repeat(20)}`;
    const unknown = await v2({ accounts: [{ account, protocol: 'NOPE_ARB' }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('accounts[0].protocol "NOPE_ARB" is not a known protocol');
    const empty = await v2({ accounts: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('accounts must not be empty');
  });
});

describe('GET /{protocol}/position/tokens/{account}/statistic', () => {
  it('splits the FULL record by token: counts, PnL and volume add up, one row per traded token', async () => {
    const { account, full } = await busiestTrader(false);
    const { status, body } = await get(`/${P}/position/tokens/${account}/statistic?limit=500`);
    expect(status).toBe(200);
    const page = body as { data: TokenStatistic[]; meta: Record<string, number> };
    const rows = page.data.map((r) => tokenStatisticSchema.parse(r));
    expect(rows.map((r) => r.indexToken).sort()).toEqual([...full.indexTokens].sort());
    expect(page.meta).toEqual({ limit: 500, offset: 0, total: rows.length, totalPages: 1 });
    expect(sum(rows, (r) => r.totalTrade)).toBe(full.totalTrade);
    expect(sum(rows, (r) => r.totalWin)).toBe(full.totalWin);
    expect(sum(rows, (r) => r.totalLong)).toBe(Math.round((full.longRate * full.totalTrade) / 100));
    expect(sum(rows, (r) => r.realisedPnl)).toBeCloseTo(full.realisedPnl, 6);
    expect(sum(rows, (r) => r.pnl)).toBeCloseTo(full.pnl, 6);
    expect(sum(rows, (r) => r.totalVolume)).toBeCloseTo(full.totalVolume, 6);
    expect(sum(rows, (r) => r.totalFee)).toBeCloseTo(full.totalFee, 6);
    expect(Math.max(...rows.map((r) => r.realisedMaxRoi))).toBeCloseTo(full.realisedMaxRoi, 9);
    for (const row of rows) {
      expect(row.winRate).toBeCloseTo((row.totalWin / row.totalTrade) * 100, 9);
      expect(row.totalWin + row.totalLose).toBe(row.totalTrade);
      expect(row.totalLong + row.totalShort).toBe(row.totalTrade);
      expect(row.realisedMaxDrawdown).toBeLessThanOrEqual(0);
    }
    // Busiest token first.
    const trades = rows.map((r) => r.totalTrade);
    expect(trades).toEqual([...trades].sort((a, b) => b - a));
  });

  it('pages with limit and offset, and refuses a limit over 500', async () => {
    const { account } = await busiestTrader(false);
    const all = (await get(`/${P}/position/tokens/${account}/statistic`)).body as { data: TokenStatistic[] };
    const second = (await get(`/${P}/position/tokens/${account}/statistic?limit=1&offset=1`)).body as {
      data: TokenStatistic[];
      meta: { total: number; totalPages: number };
    };
    expect(second.data).toEqual(all.data.slice(1, 2));
    expect(second.meta.totalPages).toBe(second.meta.total);
    const bad = await get(`/${P}/position/tokens/${account}/statistic?limit=501`);
    expect(bad.status).toBe(400);
    expect(message(bad.body)).toBe('limit must be at most 500');
  });
});

describe('GET /{protocol}/position/opening/{account}', () => {
  it('answers the open positions as a bare array, as the position filter lists them', async () => {
    const { account } = await busiestTrader(true);
    const { status, body } = await get(`/${P}/position/opening/${account}?sortBy=size&sortType=asc`);
    expect(status).toBe(200);
    const positions = (body as unknown[]).map((p) => positionSchema.parse(p));
    expect(positions.length).toBeGreaterThan(0);
    const filtered = await postJson(
      `${svc.url}/${P}/position/filter/${account}`,
      {
        queries: [{ fieldName: 'status', value: 'OPEN' }],
        sortBy: 'size',
        sortType: 'asc',
        pagination: { limit: 500 },
      },
      { 'x-api-key': key },
    );
    expect(body).toEqual(filtered.body.data);
  });

  it('answers [] for a trader with nothing open, and 400 naming a bad sortBy', async () => {
    const { account } = await busiestTrader(false);
    expect((await get(`/${P}/position/opening/${account}`)).body).toEqual([]);
    const bad = await get(`/${P}/position/opening/${account}?sortBy=colour`);
    expect(bad.status).toBe(400);
    expect(message(bad.body)).toMatch(/^sortBy must be one of closeBlockTime, openBlockTime/);
  });
});

describe('GET /{protocol}/order/{account}/last-order', () => {
  it("answers the trader's latest order on the protocol", async () => {
    const { account } = await busiestTrader(true);
    const { status, body } = await get(`/${P}/order/${account}/last-order`);
    expect(status).toBe(200);
    const order = orderSchema.parse(body);
    const latest = db()
      .prepare('SELECT MAX(block_time_ms) FROM orders WHERE account = ? AND protocol = ?')
      .pluck()
      .get(account, P) as number;
    expect({ account: order.account, protocol: order.protocol, blockTime: order.blockTime }).toEqual({
      account,
      protocol: P,
      blockTime: new Date(latest).toISOString(),
    });
  });

  it('answers null for an account with no orders', async () => {
    expect(await get(`/${P}/order/0x${'cd'.repeat(20)}/last-order`)).toEqual({ status: 200, body: null });
  });
});

describe('every trader endpoint', () => {
  it.each([
    '/NOPE_ARB/statistic/trader/pnl/ACCOUNT?from=0&to=1',
    '/NOPE_ARB/position/tokens/ACCOUNT/statistic',
    '/NOPE_ARB/position/opening/ACCOUNT',
    '/NOPE_ARB/order/ACCOUNT/last-order',
  ])('%s refuses an unknown protocol with 400 naming it', async (path) => {
    const { status, body } = await get(path.replace('ACCOUNT', `0x${'ab'.repeat(20)}`));
    expect(status).toBe(400);
    expect(message(body)).toBe('protocol "NOPE_ARB" is not a known protocol');
  });
});
