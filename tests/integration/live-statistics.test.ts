import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RANKING_KEYS } from '../../src/shared/api/statistics';
import { computeAllFromColumns } from '../../src/service/statistics/compute/engine';
import { markPrices } from '../../src/service/statistics/compute/facts';
import { LiveStatistics } from '../../src/service/statistics/compute/live-statistics';
import { loadPositionColumns } from '../../src/service/statistics/index/load-columns';
import type { RecordToStore } from '../../src/service/statistics/store/writer';
import { startTestService, type RunningService } from '../support/service';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seedFixture: true });
});
afterAll(() => svc.close());

/** What a full recompute of the store would give now, without writing it. */
function fullRecompute(): Map<string, RecordToStore> {
  const out = new Map<string, RecordToStore>();
  const db = svc.service.db;
  computeAllFromColumns(loadPositionColumns(db), svc.clock.ms, markPrices(db), (_p, records) =>
    records.forEach((r) => out.set(`${r.protocol}|${r.account}|${r.type}`, r)),
  );
  return out;
}

describe('live statistics', () => {
  it('store the same records and rankings as a full recompute after positions close', () => {
    const db = svc.service.db;
    const live = new LiveStatistics(db, () => svc.clock.ms);
    const open = db
      .prepare("SELECT id, account, protocol FROM positions WHERE status = 'OPEN' LIMIT 5")
      .all() as { id: string; account: string; protocol: string }[];
    expect(open.length).toBeGreaterThan(0);
    for (const p of open) {
      // The position closes two days ago with a profit (as an order would have closed it).
      db.prepare(
        "UPDATE positions SET status = 'CLOSE', close_time_ms = ?, realised_pnl = 321, pnl = 321 - fee + funding, is_win = 1, duration_s = (? - open_time_ms) / 1000.0 WHERE id = ?",
      ).run(svc.clock.ms - 2 * 86_400_000, svc.clock.ms - 2 * 86_400_000, p.id);
      const records = live.traderChanged(p.protocol, p.account);
      expect(records.find((r) => r.type === 'FULL')?.values.totalTrade).toBeGreaterThan(0);
    }
    expect(live.refreshRankings()).toBeGreaterThan(0);
    const expected = fullRecompute();
    const stored = db.prepare('SELECT * FROM statistics WHERE gen_to IS NULL').all() as Record<
      string,
      unknown
    >[];
    expect(stored.length).toBe(expected.size);
    for (const row of stored) {
      const e = expected.get(`${row.protocol}|${row.account}|${row.type}`)!;
      expect(e, `${row.protocol}|${row.account}|${row.type}`).toBeDefined();
      expect(row.totalTrade).toBe(e.values.totalTrade);
      expect(row.realisedPnl).toBeCloseTo(e.values.realisedPnl, 9);
      for (const k of RANKING_KEYS)
        expect(row[`rk_${k}`], `${row.account} ${row.type} ${k}`).toBe(e.ranking[k]);
    }
  });
});
