// The statistics index's warm-up after start (src/service/statistics/index/warm-up.ts,
// docs/statistics.md "Warming up"): it makes the leaderboard's columns and permutations in every
// population, then what queries named in one population in the others, stays within its share of
// the column budget without releasing anything, stops when told, and changes no answer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openServiceDatabase, type ServiceDb } from '../../src/service/store/database';
import { filterStatistics } from '../../src/service/statistics/queries/statistic-filters';
import { statisticsIndexOf } from '../../src/service/statistics/index/statistics-index';
import { LEADERBOARD_FIELDS, warmIndex } from '../../src/service/statistics/index/warm-up';
import type { Window } from '../../src/shared/api/common';
import { replacePopulation } from '../support/statistics-world';

const POPULATIONS = [
  { protocol: 'PROP_A', window: 'D7', count: 150, seed: 1 },
  { protocol: 'PROP_A', window: 'D30', count: 120, seed: 2 },
  { protocol: 'PROP_B', window: 'D7', count: 90, seed: 3 },
] as const;

let dir: string;
let path: string;
const opened: ServiceDb[] = [];

/** A connection of its own, so that each test has an index of its own, cold. */
function open(): ServiceDb {
  const db = openServiceDatabase(path);
  opened.push(db);
  statisticsIndexOf(db).reloadAll();
  return db;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'copydesk-warm-up-'));
  path = join(dir, 'service.db');
  const db = openServiceDatabase(path);
  for (const p of POPULATIONS) replacePopulation(db, p.protocol, p.window as Window, p.count, p.seed);
  db.close();
});
afterAll(() => {
  for (const db of opened) db.close();
  rmSync(dir, { recursive: true, force: true });
});

const page = (db: ServiceDb, protocol: string, window: string, field: string, desc: boolean) =>
  filterStatistics(db, {
    protocol,
    conditions: [
      { from: 'queries', list: [{ field: 'type', match: window }] },
      { from: 'ranges', list: [{ field, gte: 0 }] },
    ],
    sort: { field, direction: desc ? 'desc' : 'asc' },
    limit: 7,
    offset: 3,
    withRanking: true,
  });

/** Polls `done` on the event loop (the warm-up runs between turns) until true, at most 10 s. */
async function until(done: () => boolean): Promise<void> {
  const started = Date.now();
  while (!done() && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 5));
}

describe('statistics index warm-up', () => {
  it('makes every leaderboard field in every population, so a query on them makes nothing', async () => {
    const db = open();
    const index = statisticsIndexOf(db);
    const warm = warmIndex(index, { idleMs: 10 });
    const report = await warm.leaderboardWarm;
    warm.stop();
    await warm.ended;
    const populations = index.current().all();
    expect(populations).toHaveLength(POPULATIONS.length);
    // One step per field of each population: its column read and its permutation sorted.
    expect(report.made).toBe(populations.length * LEADERBOARD_FIELDS.length);
    expect(report.leaderboardWarm).toBe(true);
    for (const p of populations) {
      for (const field of LEADERBOARD_FIELDS)
        expect(p.heldNumbers.has(field), `${p.key} ${field}`).toBe(true);
    }
    // Queries sorting and bounding by those fields find their columns and permutations made.
    const held = index.budget.heldBytes;
    for (const field of LEADERBOARD_FIELDS) page(db, 'PROP_A', 'D7', field, true);
    expect(index.budget.heldBytes).toBe(held);
  });

  it('answers exactly as a cold index does', async () => {
    const cold = open();
    const warmDb = open();
    const warm = warmIndex(statisticsIndexOf(warmDb), { idleMs: 10 });
    await warm.leaderboardWarm;
    warm.stop();
    for (const p of POPULATIONS) {
      for (const field of LEADERBOARD_FIELDS) {
        for (const desc of [true, false]) {
          expect(page(warmDb, p.protocol, p.window, field, desc)).toEqual(
            page(cold, p.protocol, p.window, field, desc),
          );
        }
      }
    }
  });

  it('warms a field a query named in one population in every other', async () => {
    const db = open();
    const index = statisticsIndexOf(db);
    const warm = warmIndex(index, { idleMs: 5 });
    await warm.leaderboardWarm;
    const field = 'maxWinStreak';
    expect(LEADERBOARD_FIELDS).not.toContain(field);
    // Every check below is over all populations: there are three, so none holds vacuously.
    expect(index.current().all()).toHaveLength(POPULATIONS.length);
    expect(
      index
        .current()
        .all()
        .filter((p) => p.heldNumbers.has(field)),
    ).toHaveLength(0);
    page(db, 'PROP_B', 'D7', field, false);
    await until(() =>
      index
        .current()
        .all()
        .every((p) => p.heldNumbers.has(field)),
    );
    warm.stop();
    const report = await warm.ended;
    expect(
      index
        .current()
        .all()
        .every((p) => p.heldNumbers.has(field)),
    ).toBe(true);
    expect(report.end).toBe('stopped');
    // The query made the first; the warm-up the two others (their columns and permutations).
    expect(report.made).toBe(POPULATIONS.length * LEADERBOARD_FIELDS.length + 2);
  });

  it('ends at its share of the column budget, releasing nothing a query made', async () => {
    // What the whole warm-up holds, on an index of its own.
    const whole = statisticsIndexOf(open());
    const measured = warmIndex(whole);
    await measured.leaderboardWarm;
    measured.stop();
    const db = open();
    const index = statisticsIndexOf(db);
    // A query's part first: the warm-up must leave it alone.
    page(db, 'PROP_A', 'D30', 'sharpeRatio', true);
    const queried = index.budget.heldBytes;
    // Half of it fits in the warm-up's share; a step (a few hundred bytes) cannot reach the limit.
    index.budget.limitBytes = queried + whole.budget.heldBytes;
    const warm = warmIndex(index, { budgetShare: 0.5, idleMs: 5 });
    const report = await warm.ended;
    expect(report.end).toBe('budget');
    expect(report.made).toBeGreaterThan(0);
    expect(report.made).toBeLessThan(POPULATIONS.length * LEADERBOARD_FIELDS.length);
    expect(report.leaderboardWarm).toBe(false);
    expect(index.budget.released).toBe(0);
    // One step may cross the share; none begins past it, and nothing passes the limit.
    expect(index.budget.heldBytes).toBeLessThanOrEqual(index.budget.limitBytes);
    expect(index.current().get('PROP_A|D30')!.heldNumbers.has('sharpeRatio')).toBe(true);
    await expect(warm.leaderboardWarm).resolves.toBe(report);
  });

  it('stops at its next step when told', async () => {
    const db = open();
    const warm = warmIndex(statisticsIndexOf(db));
    warm.stop();
    const report = await warm.ended;
    expect(report.end).toBe('stopped');
    expect(report.made).toBe(0);
  });

  it('ends as failed, never rejecting, when a step throws', async () => {
    const db = open();
    const index = statisticsIndexOf(db);
    const broken = index.current().get('PROP_A|D7')!;
    broken.prepare = () => {
      throw new Error('column file unreadable');
    };
    const warm = warmIndex(index);
    const report = await warm.ended;
    expect(report.end).toBe('failed');
    expect(report.error).toBe('column file unreadable');
    await expect(warm.leaderboardWarm).resolves.toBe(report);
    expect(report.leaderboardWarm).toBe(false);
  });
});
