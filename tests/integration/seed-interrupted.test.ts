// The demo world seeded in short transactions (the service answers meanwhile: docs/service.md,
// Listening while preparing) and cut short half-way, as a killed service would leave it: rows of
// some traders committed, the tables' indexes dropped. The next seeding undoes that and writes
// exactly the rows, indexes and statistics of a seeding that was never interrupted.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedDemoWorld } from '../../src/service/market/simulator';
import { seedingInterrupted } from '../../src/service/market/simulator/seed-demo';
import { openServiceDatabase, type ServiceDb } from '../../src/service/store/database';

const dir = mkdtempSync(join(tmpdir(), 'copydesk-seed-cut-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const WORLD = { seed: 7, nowMs: Date.UTC(2026, 5, 1), traders: 600, days: 60 } as const;

class CutShort extends Error {}

const count = (db: ServiceDb, table: string): number =>
  db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;

/** The positions' and orders' indexes, by name and definition. */
const indexes = (db: ServiceDb) =>
  db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
       AND tbl_name IN ('positions', 'orders') ORDER BY name`,
    )
    .all();

/** Every row of a table in a stable order, as one comparable value. */
const rows = (db: ServiceDb, table: string, order: string) =>
  db.prepare(`SELECT * FROM ${table} ORDER BY ${order}`).all();

describe('a chunked demo seeding cut short', () => {
  it('is undone at the next start, which then writes what an uninterrupted seeding writes', () => {
    const clean = openServiceDatabase(join(dir, 'clean.db'));
    expect(seedDemoWorld(clean, { ...WORLD, chunked: true })).not.toBeNull();
    expect(seedingInterrupted(clean)).toBe(false);

    const cut = openServiceDatabase(join(dir, 'cut.db'));
    const before = indexes(cut);
    expect(before.length).toBeGreaterThan(0);
    // Stopped two thirds into the positions, after several commits (about one each 100 ms).
    expect(() =>
      seedDemoWorld(cut, {
        ...WORLD,
        chunked: true,
        onProgress: (p) => {
          if (p.phase === 'positions' && p.done >= (2 * p.total) / 3) throw new CutShort('killed');
        },
      }),
    ).toThrow(CutShort);
    // What a killed seeding leaves: some rows committed, indexes gone, the mark set.
    expect(seedingInterrupted(cut)).toBe(true);
    expect(count(cut, 'positions')).toBeGreaterThan(0);
    expect(count(cut, 'positions')).toBeLessThan(count(clean, 'positions'));
    expect(indexes(cut)).toEqual([]);

    const again = seedDemoWorld(cut, { ...WORLD, chunked: true });
    expect(again).not.toBeNull();
    expect(seedingInterrupted(cut)).toBe(false);
    expect(indexes(cut)).toEqual(before);
    for (const [table, order] of [
      ['positions', 'id'],
      ['orders', 'id'],
      ['mark_prices', 'index_token'],
    ] as const)
      expect(rows(cut, table, order), table).toEqual(rows(clean, table, order));
    expect(again!.records).toBeGreaterThan(0);
    expect(count(cut, 'statistics')).toBe(count(clean, 'statistics'));
    // A third start finds the world there and writes nothing.
    expect(seedDemoWorld(cut, { ...WORLD, chunked: true })).toBeNull();
    clean.close();
    cut.close();
  }, 120_000);
});
