// The demo world seeded in short transactions (the service answers meanwhile: docs/service.md,
// Listening while preparing) and cut short half-way, as a killed service would leave it: rows of
// some traders committed, the tables' indexes dropped, or, cut inside the statistics write, some
// records of an unfinished generation committed. The next seeding undoes that and writes exactly
// the rows, indexes and statistics of a seeding that was never interrupted.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedDemoWorld } from '../../src/service/market/simulator';
import { seedingInterrupted } from '../../src/service/market/simulator/seed-demo';
import { openServiceDatabase, type ServiceDb } from '../../src/service/store/database';
import { currentGeneration } from '../../src/service/statistics/store/statistic-rows';

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

/** The statistics as stored: every row and its JSON, and the generation readers see. */
const statistics = (db: ServiceDb) => ({
  generation: currentGeneration(db),
  rows: rows(db, 'statistics', 'protocol, type, id, gen_from'),
  json: rows(db, 'statistic_json', 'protocol, type, id, gen_from'),
});

let clean: ServiceDb | null = null;
/** A chunked seeding never interrupted, seeded once for the cases below. */
function cleanSeeding(): ServiceDb {
  if (clean) return clean;
  clean = openServiceDatabase(join(dir, 'clean.db'));
  expect(seedDemoWorld(clean, { ...WORLD, chunked: true })).not.toBeNull();
  expect(seedingInterrupted(clean)).toBe(false);
  return clean;
}
afterAll(() => clean?.close());

describe('a chunked demo seeding cut short', () => {
  it('is undone at the next start, which then writes what an uninterrupted seeding writes', () => {
    const clean = cleanSeeding();
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
    expect(statistics(cut)).toEqual(statistics(clean));
    // A third start finds the world there and writes nothing.
    expect(seedDemoWorld(cut, { ...WORLD, chunked: true })).toBeNull();
    cut.close();
  }, 120_000);

  // The write commits its records, then their JSON a population (protocol and window) at a time:
  // cut early among the records, and late, among the populations' JSON (40 of them here).
  it.each([
    { where: 'among the records', cutAt: (done: number, _total: number, commits: number) => commits === 2 },
    { where: "among the records' JSON", cutAt: (done: number, total: number) => total - done < 10 },
  ])(
    'inside the statistics write ($where) is undone too, and the next start writes the same',
    ({ where, cutAt }) => {
      const clean = cleanSeeding();
      const cut = openServiceDatabase(join(dir, `cut-statistics-${where.length}.db`));
      const generationBefore = currentGeneration(cut);
      let commits = 0;
      // Chunks of 1 ms: many commits even for this small world.
      expect(() =>
        seedDemoWorld(cut, {
          ...WORLD,
          chunked: true,
          chunkMs: 1,
          onProgress: (p) => {
            if (p.phase !== 'statistics' || p.done === 0 || p.done === p.total) return;
            commits += 1;
            if (cutAt(p.done, p.total, commits)) throw new CutShort('killed');
          },
        }),
      ).toThrow(CutShort);
      // Records committed as rows of a generation readers do not see yet; the mark still set.
      expect(seedingInterrupted(cut)).toBe(true);
      expect(currentGeneration(cut)).toBe(generationBefore);
      expect(count(cut, 'statistics')).toBeGreaterThan(0);
      if (where === 'among the records')
        expect(count(cut, 'statistics')).toBeLessThan(count(clean, 'statistics'));
      else {
        expect(count(cut, 'statistic_json')).toBeGreaterThan(0);
        expect(count(cut, 'statistic_json')).toBeLessThan(count(clean, 'statistic_json'));
      }

      expect(seedDemoWorld(cut, { ...WORLD, chunked: true })).not.toBeNull();
      expect(seedingInterrupted(cut)).toBe(false);
      expect(indexes(cut)).toEqual(indexes(clean));
      for (const [table, order] of [
        ['positions', 'id'],
        ['orders', 'id'],
        ['mark_prices', 'index_token'],
      ] as const)
        expect(rows(cut, table, order), table).toEqual(rows(clean, table, order));
      expect(statistics(cut)).toEqual(statistics(clean));
      cut.close();
    },
    120_000,
  );
});

describe('the statistics write of a chunked seeding', () => {
  it('leaves the write lock free between its commits and stores what one transaction stores', () => {
    const clean = cleanSeeding();
    const chunked = openServiceDatabase(join(dir, 'lock.db'));
    // Another connection, as the service answering a login: it must not wait at all (busy
    // timeout 0 fails at once with SQLITE_BUSY while the seeding holds the lock).
    const service = openServiceDatabase(join(dir, 'lock.db'));
    service.pragma('busy_timeout = 0');
    const probe = service.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('probe', ?)");
    let writes = 0;
    seedDemoWorld(chunked, {
      ...WORLD,
      chunked: true,
      chunkMs: 1,
      onProgress: (p) => {
        if (p.phase !== 'statistics' || p.done === 0 || p.done === p.total) return;
        probe.run(String(p.done));
        writes += 1;
      },
    });
    expect(writes).toBeGreaterThan(1);
    service.prepare("DELETE FROM meta WHERE key = 'probe'").run();
    service.close();
    expect(statistics(chunked)).toEqual(statistics(clean));

    // The one-transaction write (every recompute outside a first start) stores the same.
    const atomic = openServiceDatabase(join(dir, 'atomic.db'));
    expect(seedDemoWorld(atomic, { ...WORLD })).not.toBeNull();
    expect(statistics(atomic)).toEqual(statistics(clean));
    chunked.close();
    atomic.close();
  }, 120_000);
});
