// The statistics added for real clients on REST, and migration 10 bringing an older store to them
// (docs/statistics.md, "Long and short, streaks, risk-adjusted return").
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../src/node/sqlite';
import { computeStatistic } from '../../src/service/statistics/formulas/statistics';
import { markPrices, traderFacts } from '../../src/service/statistics/compute/facts';
import { serviceMigrations } from '../../src/service/store/migrations';
import { statisticToWire, type StatisticRow } from '../../src/service/statistics/store/statistic-rows';
import { ADDED_STATISTIC_FIELDS, EXTRA_RANKING_KEYS } from '../../src/shared/api/statistics';
import { apiKeyFor } from '../support/credentials';
import { ALICE, BOB, HOUR, T0, insertPositions, positionRow } from '../support/graphql-fixtures';
import { postJson, startTestService, type RunningService } from '../support/service';

const ADDED = ADDED_STATISTIC_FIELDS;

let svc: RunningService;
let key: string;
const P = 'NOVA_ARB';

beforeAll(async () => {
  svc = await startTestService({ seedFixture: true });
  key = apiKeyFor(svc);
});
afterAll(() => svc.close());

type Rec = Record<string, unknown> & { account: string; type: string; ranking?: Record<string, number> };

describe('REST', () => {
  it("the single-trader answer has the added values, the engine's, and their percentiles", async () => {
    const account = svc.service.db
      .prepare(
        "SELECT account FROM statistics WHERE protocol = ? AND type = 'FULL' AND gen_to IS NULL LIMIT 1",
      )
      .pluck()
      .get(P) as string;
    const res = await fetch(`${svc.url}/public/${P}/position/statistic/trader/${account}`, {
      headers: { 'x-api-key': key },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, Rec>;
    const facts = traderFacts(svc.service.db, account, P);
    expect(Object.keys(body)).toContain('FULL');
    for (const [window, record] of Object.entries(body)) {
      const expected = computeStatistic(
        facts,
        window as 'FULL',
        Date.parse(record.statisticAt as string),
        markPrices(svc.service.db),
      )!;
      for (const f of ADDED) expect(record[f], `${window} ${f}`).toEqual(expected[f]);
      for (const k of EXTRA_RANKING_KEYS) {
        expect(record.ranking![k], `${window} ranking.${k}`).toBeGreaterThanOrEqual(0);
        expect(record.ranking![k], `${window} ranking.${k}`).toBeLessThanOrEqual(100);
      }
    }
  });

  it('the public filter ranges and sorts on them and on their percentiles', async () => {
    const body = {
      queries: [{ fieldName: 'type', value: 'FULL' }],
      ranges: [
        { fieldName: 'maxWinStreak', gte: 2 },
        { fieldName: 'ranking.realisedSharpeRatio', gte: 50 },
        { fieldName: 'totalShortVolume', gt: '0' },
      ],
      sortBy: 'realisedSharpeRatio',
      sortType: 'desc',
      pagination: { limit: 500 },
    };
    const res = await postJson(`${svc.url}/public/${P}/position/statistic/filter`, body, {
      'x-api-key': key,
    });
    expect(res.status).toBe(200);
    const rows = res.body.data as Rec[];
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.maxWinStreak as number).toBeGreaterThanOrEqual(2);
      expect(r.ranking!.realisedSharpeRatio).toBeGreaterThanOrEqual(50);
      expect(r.totalShortVolume as number).toBeGreaterThan(0);
    }
    const sharpe = rows.map((r) => r.realisedSharpeRatio as number);
    expect(sharpe).toEqual([...sharpe].sort((a, b) => b - a));
    const direct = svc.service.db
      .prepare(
        `SELECT COUNT(*) FROM statistics WHERE protocol = ? AND type = 'FULL' AND gen_to IS NULL
           AND "maxWinStreak" >= 2 AND "rk_realisedSharpeRatio" >= 50 AND "totalShortVolume" > 0`,
      )
      .pluck()
      .get(P) as number;
    expect(res.body.meta).toMatchObject({ total: direct });
  });

  it('a bad bound on an added field is a 400 naming it, and an unknown field is refused', async () => {
    const url = `${svc.url}/public/${P}/position/statistic/filter`;
    const bad = await postJson(
      url,
      { ranges: [{ fieldName: 'sortinoRatio', gte: 'lots' }] },
      { 'x-api-key': key },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/ranges\[0\]/);
    const unknown = await postJson(
      url,
      { ranges: [{ fieldName: 'calmarRatio', gte: 1 }] },
      { 'x-api-key': key },
    );
    expect(unknown.status).toBe(400);
  });
});

describe('migration 10', () => {
  it("recomputes a store's current records with the added values, as of the instant they were for", () => {
    const dir = mkdtempSync(join(tmpdir(), 'copydesk-migration-10-'));
    const path = join(dir, 'service.db');
    try {
      const db = openDatabase(path, serviceMigrations.slice(0, 9));
      // ALICE: win, loss, win, win (by close); BOB: one loss. Closed over the days before T0 + 10 d.
      const closed = (id: string, account: string, day: number, pnl: number, isLong: number) =>
        positionRow({
          id,
          account,
          status: 'CLOSE',
          is_long: isLong,
          open_time_ms: T0 + day * 24 * HOUR - HOUR,
          close_time_ms: T0 + day * 24 * HOUR,
          realised_pnl: pnl,
          is_win: pnl > 0 ? 1 : 0,
        });
      insertPositions(db, [
        closed('a1', ALICE, 1, 30, 1),
        closed('a2', ALICE, 2, -10, 0),
        closed('a3', ALICE, 3, 20, 1),
        closed('a4', ALICE, 4, 5, 0),
        closed('b1', BOB, 2, -40, 1),
      ]);
      // One stored record as an older version wrote it (its columns only), computed at T0 + 10 d.
      const asOf = T0 + 240 * HOUR;
      const columns = (
        db.prepare(`SELECT name FROM pragma_table_info('statistics')`).all() as { name: string }[]
      ).map((c) => c.name);
      const fixed: Record<string, unknown> = {
        id: 'old',
        account: ALICE,
        protocol: P,
        type: 'FULL',
        gen_from: 1,
      };
      Object.assign(fixed, { index_tokens: '[]', pairs: '[]', is_open_position: 0, last_trade_at_ms: asOf });
      Object.assign(fixed, { statistic_at_ms: asOf, created_at_ms: asOf, updated_at_ms: asOf, gen_to: null });
      db.prepare(
        `INSERT INTO statistics (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      ).run(...columns.map((c) => (c in fixed ? fixed[c] : 1)));

      migrate(db, path, serviceMigrations);
      const rows = db
        .prepare("SELECT * FROM statistics WHERE gen_to IS NULL AND type = 'FULL' ORDER BY account")
        .all() as StatisticRow[];
      expect(rows.map((r) => r.account)).toEqual([ALICE, BOB]);
      const alice = statisticToWire(rows[0]!);
      expect(alice.statisticAt).toBe(new Date(asOf).toISOString());
      expect(alice).toMatchObject({ winStreak: 2, loseStreak: 0, maxWinStreak: 2, maxLoseStreak: 1 });
      expect(alice).toMatchObject({ realisedLongPnl: 50, realisedShortPnl: -5, totalLongVolume: 2000 });
      const facts = traderFacts(db, ALICE, P);
      const expected = computeStatistic(facts, 'FULL', asOf, () => undefined)!;
      for (const f of ADDED) expect(alice[f], f).toEqual(expected[f]);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
