import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../src/node/sqlite';
import { statisticJsonSql, pageJson } from '../../src/service/statistics/store/json-rows';
import { LiveStatistics } from '../../src/service/statistics/compute/live-statistics';
import { PIT_TTL_MS, expireOldPits } from '../../src/service/statistics/queries/point-in-time';
import { recomputeAll } from '../../src/service/statistics/compute/recompute';
import { statisticId } from '../../src/service/statistics/store/writer';
import { serviceMigrations } from '../../src/service/store/migrations';
import { VISIBLE_AT_GENERATION } from '../../src/service/statistics/store/statistic-rows';
import { apiKeyFor } from '../support/credentials';
import { startTestService, type RunningService } from '../support/service';

// Search-after answers each record's JSON as stored when the row was written (stored-json.ts):
// these tests hold that text equal to the rows rendered afresh, through recomputes, live
// updates, retirement and the migration that adds the table.

let svc: RunningService;
let key: string;
const P = 'NOVA_ARB';

beforeAll(async () => {
  svc = await startTestService({ seedFixture: true });
  key = apiKeyFor(svc);
});
afterAll(() => svc.close());

const db = () => svc.service.db;
const count = (sql: string, ...params: unknown[]) =>
  db()
    .prepare(sql)
    .pluck()
    .get(...params) as number;

/** Stored JSON rows whose text differs from a fresh rendering, or that is missing. */
const staleOrMissing = () =>
  count(`SELECT COUNT(*) FROM statistics LEFT JOIN statistic_json AS j USING (protocol, type, id, gen_from)
         WHERE j.json IS NULL OR j.json IS NOT ${statisticJsonSql(false)}`);
/** Stored JSON whose statistics row is gone. */
const orphans = () =>
  count(`SELECT COUNT(*) FROM statistic_json LEFT JOIN statistics AS s USING (protocol, type, id, gen_from)
         WHERE s.account IS NULL`);

/** One search-after batch of protocol P by id, its answer text, and what rendering its rows afresh gives. */
async function batch(body: Record<string, unknown>): Promise<{ text: string; expected: string; meta: Meta }> {
  const response = await fetch(`${svc.url}/trial/position/statistic/search-after`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  const meta = (JSON.parse(text) as { meta: Meta }).meta;
  const generation = count('SELECT generation FROM pits WHERE id = ?', meta.pitId);
  const after = (body.searchAfter as string[] | undefined)?.[0] ?? '';
  const fresh = db()
    .prepare(
      `SELECT ${statisticJsonSql(false)} FROM statistics
       WHERE ${VISIBLE_AT_GENERATION} AND protocol = ? AND id > ? ORDER BY id LIMIT ?`,
    )
    .pluck()
    .all(generation, generation, P, after, body.size) as string[];
  return { text, expected: pageJson(fresh, meta), meta };
}
type Meta = { pitId: string; searchAfter: unknown[]; total: number };

/** Walks one protocol's records, checking every batch's bytes; returns how many were seen. */
const QUERY = { size: 50, sort: [{ id: 'asc' }], queries: [{ fieldName: 'protocol', value: P }] };

async function walkChecked(): Promise<number> {
  let next: Record<string, unknown> = QUERY;
  let seen = 0;
  for (;;) {
    const { text, expected, meta } = await batch(next);
    expect(text).toBe(expected);
    const rows = (JSON.parse(text) as { data: unknown[] }).data.length;
    if (rows === 0) return seen;
    seen += rows;
    next = { ...QUERY, pitId: meta.pitId, searchAfter: meta.searchAfter };
  }
}

describe('stored statistic JSON', () => {
  it('is the fresh rendering of every row of the seeded world', async () => {
    expect(count('SELECT COUNT(*) FROM statistic_json')).toBe(count('SELECT COUNT(*) FROM statistics'));
    expect(staleOrMissing()).toBe(0);
    expect(await walkChecked()).toBeGreaterThan(50);
  });

  it('stays equal to a fresh rendering after a recompute', async () => {
    svc.clock.advance(86_400_000);
    recomputeAll(db(), svc.clock.ms);
    expect(staleOrMissing()).toBe(0);
    expect(await walkChecked()).toBeGreaterThan(50);
  });

  it('stays equal to a fresh rendering after a live update of one trader and a ranking refresh', async () => {
    const live = new LiveStatistics(db(), () => svc.clock.ms);
    const open = db()
      .prepare("SELECT id, account FROM positions WHERE protocol = ? AND status = 'OPEN' LIMIT 1")
      .get(P) as { id: string; account: string };
    db()
      .prepare(
        "UPDATE positions SET status = 'CLOSE', close_time_ms = ?, realised_pnl = 321, pnl = 321 - fee + funding, is_win = 1 WHERE id = ?",
      )
      .run(svc.clock.ms - 86_400_000, open.id);
    const before = count('SELECT MAX(gen_from) FROM statistics');
    live.traderChanged(P, open.account);
    live.refreshRankings();
    // The trader's rows are a new generation, with their own JSON.
    const newRows = count('SELECT COUNT(*) FROM statistic_json WHERE gen_from > ?', before);
    expect(newRows).toBeGreaterThan(0);
    expect(
      count(
        'SELECT COUNT(*) FROM statistic_json WHERE gen_from > ? AND id = ?',
        before,
        statisticId(open.account, P, 'FULL'),
      ),
    ).toBe(1);
    expect(staleOrMissing()).toBe(0);
    expect(await walkChecked()).toBeGreaterThan(50);
  });

  it('of retired rows is kept while a point in time sees them, and deleted with them', async () => {
    const { meta } = await batch(QUERY);
    recomputeAll(db(), svc.clock.ms);
    const retired = count('SELECT COUNT(*) FROM statistics WHERE gen_to IS NOT NULL');
    expect(retired).toBeGreaterThan(0);
    // The pit still reads its generation, from the retired rows' stored JSON.
    const again = await batch({ ...QUERY, pitId: meta.pitId, searchAfter: meta.searchAfter });
    expect(again.text).toBe(again.expected);
    svc.clock.advance(PIT_TTL_MS);
    expireOldPits(db(), svc.clock.ms);
    expect(count('SELECT COUNT(*) FROM statistics WHERE gen_to IS NOT NULL')).toBe(0);
    expect(orphans()).toBe(0);
    expect(count('SELECT COUNT(*) FROM statistic_json')).toBe(count('SELECT COUNT(*) FROM statistics'));
    expect(staleOrMissing()).toBe(0);
  });
});

describe('the migration that adds stored statistic JSON', () => {
  it('renders the JSON of every row already stored', () => {
    const dir = mkdtempSync(join(tmpdir(), 'copydesk-migration-'));
    const path = join(dir, 'service.db');
    try {
      const old = openDatabase(path, serviceMigrations.slice(0, 5));
      // The columns of version 5: later migrations add some, so today's INSERT does not fit.
      const columns = old.prepare(`SELECT name, type FROM pragma_table_info('statistics')`).all() as {
        name: string;
        type: string;
      }[];
      const fixed: Record<string, unknown> = {
        protocol: P,
        type: 'D7',
        gen_from: 1,
        gen_to: null,
        index_tokens: '["0x1"]',
        pairs: '[]',
        is_open_position: 1,
        last_trade_at_ms: 1,
        statistic_at_ms: 2,
        created_at_ms: 3,
        updated_at_ms: 4,
      };
      const insert = old.prepare(
        `INSERT INTO statistics (${columns.map((c) => `"${c.name}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      );
      for (const account of ['0xaaa', '0xbbb']) {
        insert.run(
          ...columns.map((c, i) => {
            if (c.name === 'id') return statisticId(account, P, 'D7');
            if (c.name === 'account') return account;
            if (c.name in fixed) return fixed[c.name];
            return i % 7 === 0 ? null : i + 0.25;
          }),
        );
      }
      // Migration 10 recomputes the records (from no positions here): a point in time that sees
      // generation 1 keeps these rows, retired, as any live search-after would.
      old.prepare('INSERT INTO pits (id, generation, last_used_ms) VALUES (?, 1, 2)').run('pit-1');
      migrate(old, path, serviceMigrations);
      const rows = old
        .prepare(
          `SELECT COUNT(*) FROM statistics JOIN statistic_json AS j USING (protocol, type, id, gen_from)
           WHERE j.json IS ${statisticJsonSql(false)}`,
        )
        .pluck()
        .get();
      expect(rows).toBe(2);
      old.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
