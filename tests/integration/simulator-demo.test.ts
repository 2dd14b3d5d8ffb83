// The full demo world (5,000 traders, 120 days) seeded into a SQLite file, as `--demo` does: its
// size, its identities, its statistics on all eight protocols, and the time it takes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownProtocols } from '../../src/service/market/catalogue';
import { seedDemoWorld, type SeedDemoResult } from '../../src/service/market/simulator';
import { openServiceDatabase, type ServiceDb } from '../../src/service/store/database';
import { positionViolations } from '../unit/service/market/simulator/identities';

const NOW = Date.UTC(2026, 5, 1, 15, 45);

let dir: string;
let db: ServiceDb;
let result: SeedDemoResult;
const progress: { phase: string; done: number; total: number }[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'copydesk-demo-'));
  db = openServiceDatabase(join(dir, 'service.db'));
  result = seedDemoWorld(db, {
    seed: 2024,
    nowMs: NOW,
    traders: 5_000,
    days: 120,
    onProgress: (p) => progress.push({ phase: p.phase, done: p.done, total: p.total }),
  }) as SeedDemoResult;
  const t = result.timings;
  console.log(
    `demo world: ${result.positions} positions, ${result.orders} orders, ${result.records} records in ` +
      `${(t.totalMs / 1000).toFixed(1)} s (world ${(t.worldMs / 1000).toFixed(1)} s, writing ` +
      `${(t.writeMs / 1000).toFixed(1)} s, recomputeAll ${(t.statisticsMs / 1000).toFixed(1)} s)`,
  );
}, 120_000);

afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the demo world', () => {
  // How long seeding takes is measured by npm run bench:demo, never by a test.
  it('reports its progress while it writes, through every phase', () => {
    const writing = progress.filter((p) => p.phase === 'positions');
    expect(writing.length).toBeGreaterThan(10);
    expect(writing.at(-1)).toMatchObject({ done: 5_000, total: 5_000 });
    const phases = [...new Set(progress.map((p) => p.phase))];
    expect(phases).toEqual(['prices', 'positions', 'indexes', 'statistics', 'done']);
  });

  it('has 5,000 traders on all eight protocols, bots with thousands of trades, open positions', () => {
    const one = (sql: string) => db.prepare(sql).pluck().get() as number;
    expect(one('SELECT COUNT(DISTINCT account) FROM positions')).toBe(5_000);
    expect(db.prepare('SELECT DISTINCT protocol FROM positions ORDER BY 1').pluck().all()).toEqual(
      knownProtocols(),
    );
    const bots = db
      .prepare('SELECT COUNT(*) FROM (SELECT account FROM positions GROUP BY account HAVING COUNT(*) > 1000)')
      .pluck()
      .get();
    expect(bots).toBeGreaterThanOrEqual(5);
    expect(one("SELECT COUNT(*) FROM positions WHERE status = 'OPEN'")).toBeGreaterThan(200);
    expect(one('SELECT COUNT(*) FROM positions WHERE is_liquidate = 1')).toBeGreaterThan(500);
    expect(one('SELECT MIN(open_time_ms) FROM positions')).toBeGreaterThanOrEqual(NOW - 120 * 86_400_000);
  });

  it('obeys the position identities on every position', () => {
    expect(positionViolations(db)).toEqual([]);
  }, 60_000);

  it('has statistic records in every window on all eight protocols', () => {
    const rows = db
      .prepare(
        'SELECT protocol, type, COUNT(*) n FROM statistics WHERE gen_to IS NULL GROUP BY protocol, type',
      )
      .all() as { protocol: string; type: string; n: number }[];
    for (const protocol of knownProtocols())
      for (const type of ['FULL', 'D60', 'D30', 'D15', 'D7'])
        expect(rows.find((r) => r.protocol === protocol && r.type === type)?.n ?? 0).toBeGreaterThan(50);
  });
});
