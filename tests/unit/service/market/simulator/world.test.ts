// A small demo world (200 traders, 30 days) in an in-memory store: its rows obey docs/semantics.md,
// it is the same for the same seed, and its traders behave like their styles.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownProtocols } from '../../../../../src/service/market/catalogue';
import { seedDemoWorld, type SeedProgress } from '../../../../../src/service/market/simulator/seed-demo';
import { buildWorld, forEachPosition } from '../../../../../src/service/market/simulator/world';
import { openServiceDatabase, type ServiceDb } from '../../../../../src/service/store/database';
import type { PositionRow } from '../../../../../src/service/store/positions';
import { positionViolations } from './identities';

const NOW = Date.UTC(2026, 2, 15, 9, 30);
const SMALL = { seed: 11, nowMs: NOW, traders: 200, days: 30 };

/** A new in-memory store with the small world of `seed`. */
function smallWorld(seed = SMALL.seed, onProgress?: (p: SeedProgress) => void): ServiceDb {
  const db = openServiceDatabase(':memory:');
  seedDemoWorld(db, { ...SMALL, seed, onProgress });
  return db;
}

/** A digest of every position and order row, in id order. */
function digest(db: ServiceDb): string {
  const hash = createHash('sha256');
  for (const table of ['positions', 'orders', 'mark_prices'])
    for (const row of db.prepare(`SELECT * FROM ${table} ORDER BY 1`).iterate())
      hash.update(JSON.stringify(row));
  return hash.digest('hex');
}

const count = (db: ServiceDb, sql: string): number => db.prepare(sql).pluck().get() as number;

let db: ServiceDb;
const progress: SeedProgress[] = [];
beforeAll(() => {
  db = smallWorld(SMALL.seed, (p) => progress.push(p));
});
afterAll(() => db.close());

describe('the demo world, small', () => {
  it('has every trader, on all eight protocols, with every order type', () => {
    expect(count(db, 'SELECT COUNT(DISTINCT account) FROM positions')).toBe(200);
    const protocols = db.prepare('SELECT DISTINCT protocol FROM positions ORDER BY 1').pluck().all();
    expect(protocols).toEqual(knownProtocols());
    const types = db.prepare('SELECT DISTINCT type FROM orders ORDER BY 1').pluck().all();
    expect(types).toEqual(['CLOSE', 'DECREASE', 'INCREASE', 'MARGIN_TRANSFERRED', 'OPEN']);
    expect(count(db, "SELECT COUNT(*) FROM positions WHERE status = 'OPEN'")).toBeGreaterThan(0);
    expect(count(db, `SELECT MIN(open_time_ms) FROM positions`)).toBeGreaterThanOrEqual(
      NOW - 30 * 86_400_000,
    );
    expect(count(db, `SELECT MAX(COALESCE(close_time_ms, open_time_ms)) FROM positions`)).toBeLessThanOrEqual(
      NOW,
    );
  });

  it('obeys the position identities of docs/semantics.md on every position', () => {
    expect(positionViolations(db)).toEqual([]);
  });

  it('liquidates some positions, each at −collateral', () => {
    const liquidated = db.prepare('SELECT * FROM positions WHERE is_liquidate = 1').all() as PositionRow[];
    expect(liquidated.length).toBeGreaterThan(5);
    for (const p of liquidated) expect(p.realised_pnl).toBeCloseTo(-p.collateral, 6);
  });

  it('has a bot with hundreds of small trades', () => {
    const busiest = db
      .prepare('SELECT COUNT(*) n, AVG(collateral) c FROM positions GROUP BY account ORDER BY n DESC LIMIT 1')
      .get() as { n: number; c: number };
    expect(busiest.n).toBeGreaterThan(700); // about 36 a day for 30 days
    expect(busiest.c).toBeLessThan(300);
  });

  it('writes every catalogue token a mark price at now, and statistic records on all protocols', () => {
    expect(count(db, 'SELECT COUNT(*) FROM mark_prices WHERE time_ms = ' + NOW)).toBe(
      count(db, 'SELECT COUNT(*) FROM tokens'),
    );
    expect(count(db, 'SELECT MIN(price) FROM mark_prices')).toBeGreaterThan(0);
    const withRecords = db
      .prepare("SELECT DISTINCT protocol FROM statistics WHERE gen_to IS NULL AND type = 'FULL' ORDER BY 1")
      .pluck()
      .all();
    expect(withRecords).toEqual(knownProtocols());
  });

  it('reports progress by phase, ending with done', () => {
    const phases = [...new Set(progress.map((p) => p.phase))];
    expect(phases).toEqual(['prices', 'positions', 'indexes', 'statistics', 'done']);
    expect(progress.at(-1)).toEqual({ phase: 'done', done: 1, total: 1 });
    expect(progress.filter((p) => p.phase === 'positions').at(-1)).toEqual({
      phase: 'positions',
      done: 200,
      total: 200,
    });
  });

  it('is the same world for the same seed and another for another seed', () => {
    const same = smallWorld();
    const other = smallWorld(12);
    expect(digest(same)).toBe(digest(db));
    expect(digest(other)).not.toBe(digest(db));
    same.close();
    other.close();
  });

  it('writes nothing into a store that already has positions', () => {
    expect(seedDemoWorld(db, SMALL)).toBeNull();
  });
});

describe('traders keep their style', () => {
  const world = buildWorld({ ...SMALL, traders: 400 });
  const byTrader = new Map<number, PositionRow[]>();
  const indexOf = new Map(world.traders.map((t) => [t.account, t.index]));
  forEachPosition(world, (p) => {
    const row = p.toRow();
    const list = byTrader.get(indexOf.get(row.account) as number) ?? [];
    list.push(row);
    byTrader.set(indexOf.get(row.account) as number, list);
  });
  const closed = (index: number) => (byTrader.get(index) ?? []).filter((p) => p.status === 'CLOSE');
  const winRate = (skill: (s: number) => boolean) => {
    const ps = world.traders.filter((t) => skill(t.style.skill)).flatMap((t) => closed(t.index));
    return ps.filter((p) => p.realised_pnl > 0).length / ps.length;
  };

  it('skilled traders win more often than those who trade against the move', () => {
    expect(winRate((s) => s > 0.2)).toBeGreaterThan(winRate((s) => s < -0.05) + 0.1);
  });

  it('degens, with their high leverage, are liquidated far more often than swing traders', () => {
    const liquidationRate = (kind: string) => {
      const ps = world.traders.filter((t) => t.style.kind === kind).flatMap((t) => closed(t.index));
      return ps.filter((p) => p.is_liquidate === 1).length / ps.length;
    };
    expect(liquidationRate('degen')).toBeGreaterThan(0.1);
    expect(liquidationRate('degen')).toBeGreaterThan(5 * liquidationRate('swing'));
  });

  it("a trader's leverage follows their habit", () => {
    // Habits under 10× are never capped by a venue's maximum (the lowest is 10×).
    const traders = world.traders.filter((t) => t.style.leverage < 10);
    let checked = 0;
    for (const t of traders) {
      const simple = (byTrader.get(t.index) ?? []).filter((p) => p.order_increase_count === 1);
      if (simple.length < 5) continue;
      const median = simple.map((p) => p.leverage).sort((a, b) => a - b)[simple.length >> 1] as number;
      expect(median).toBeGreaterThan(t.style.leverage / 1.6);
      expect(median).toBeLessThan(t.style.leverage * 1.6);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(20);
  });
});
