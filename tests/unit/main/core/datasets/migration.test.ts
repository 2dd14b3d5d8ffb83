// Migrations of the datasets file. 2: records stored with the old list of number fields are
// dropped, and their datasets say why and download afresh when started (docs/statistics.md).
// 3: records keyed by one number and their numbers stored once (docs/core-cache.md); a dataset
// downloaded before reads back the same.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../../../../src/node/sqlite';
import { RANKING_KEYS } from '../../../../../src/shared/api/statistics';
import { DatasetDb } from '../../../../../src/main/core/datasets/dataset-db';
import { DatasetHost } from '../../../../../src/main/core/datasets/dataset-host';
import {
  COLUMN_COUNT,
  packRecords,
  packedTexts,
  rankingColumn,
  unpackRows,
} from '../../../../../src/main/core/datasets/fields';
import { datasetMigrations } from '../../../../../src/main/core/datasets/dataset-schema';

describe('datasets migration 2', () => {
  it('drops records of the old field list and restarts their download from scratch', () => {
    const dir = mkdtempSync(join(tmpdir(), 'copydesk-datasets-'));
    const path = join(dir, 'datasets.db');
    try {
      const db = openDatabase(path, datasetMigrations.slice(0, 1));
      db.prepare(
        `INSERT INTO datasets (profile_id, protocol, win, state, started_at, gen, pit_id, cursors, downloaded,
           chunks, live_gen, live_records, completed_at)
         VALUES ('p', 'GMX', 'D30', 'complete', '2026-01-01T00:00:00Z', 3, 'pit', '{"asc":[1],"desc":null}', 5, 1, 3, 5,
           '2026-01-01T00:01:00Z')`,
      ).run();
      db.prepare(`INSERT INTO records VALUES (1, 3, 0, '{}', x'00')`).run();
      db.prepare(`INSERT INTO chunks VALUES (1, 3, 0, 'asc', 1, '[]', '[]', x'00')`).run();
      db.prepare(`INSERT INTO columns VALUES (1, 3, 'pnl', x'00')`).run();
      migrate(db, path, datasetMigrations);
      for (const table of ['records', 'chunks', 'columns'])
        expect(db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get()).toBe(0);
      expect(db.prepare('SELECT state, message, live_gen, pit_id, downloaded FROM datasets').get()).toEqual({
        state: 'failed',
        message: 'Downloaded before Copydesk added new statistics; download it again.',
        live_gen: null,
        pit_id: null,
        downloaded: 0,
      });
      // Starting it again begins a fresh download: no point in time, no cursor.
      const resume = new DatasetDb(db).begin(
        { profileId: 'p', protocol: 'GMX', window: 'D30' },
        '2026-02-01T00:00:00Z',
      );
      expect(resume).toMatchObject({ pitId: null });
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A statistic record as the client parses it (nulls and a missing number included). */
const record = (i: number) => ({
  id: `id${String(i).padStart(4, '0')}`,
  account: `0x${i.toString(16).padStart(40, '0')}`,
  type: 'D30',
  protocol: 'GMX',
  pnl: i % 4 === 0 ? null : i * 1.5,
  winRate: (i * 13) % 100,
  totalTrade: i,
  lastTradeAt: new Date(1_700_000_000_000 + i * 1000).toISOString(),
  statisticAt: '2026-01-01T00:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
  indexTokens: ['0xabc'],
  isOpenPosition: i % 2 === 0,
});

/** One batch stored as the version-2 writer stored it: a chunk, and a row per record keyed by chunk × 1024. */
function writeVersion2Chunk(
  db: ReturnType<typeof openDatabase>,
  at: { datasetId: number; gen: number; chunkNo: number; stream: 'asc' | 'desc' },
  records: Record<string, unknown>[],
): void {
  const packed = packRecords(records);
  const width = COLUMN_COUNT * 8;
  const bytes = Buffer.from(packed.numbers.buffer);
  records.forEach((_, i) => {
    const end = packed.ends[i * 3 + 2] as number;
    const start = packed.ends[i * 3 + 1] as number;
    db.prepare('INSERT INTO records VALUES (?, ?, ?, ?, ?)').run(
      at.datasetId,
      at.gen,
      at.chunkNo * 1024 + i,
      packed.text.slice(start, end),
      bytes.subarray(i * width, (i + 1) * width),
    );
  });
  db.prepare('INSERT INTO chunks VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
    at.datasetId,
    at.gen,
    at.chunkNo,
    at.stream,
    records.length,
    JSON.stringify(packedTexts(packed, 'id')),
    JSON.stringify(packedTexts(packed, 'account')),
    bytes,
  );
}

describe('datasets migration 3', () => {
  it('keeps a dataset downloaded before: every record, its numbers, its order and its ranking', () => {
    const dir = mkdtempSync(join(tmpdir(), 'copydesk-datasets-'));
    const path = join(dir, 'datasets.db');
    try {
      const db = openDatabase(path, datasetMigrations.slice(0, 2));
      const all = Array.from({ length: 23 }, (_, i) => record(i));
      db.prepare(
        `INSERT INTO datasets (profile_id, protocol, win, state, started_at, gen, pit_id, cursors, downloaded,
           chunks, live_gen, live_records, completed_at)
         VALUES ('p', 'GMX', 'D30', 'complete', '2026-01-01T00:00:00Z', 2, NULL, '{"asc":null,"desc":null}', 23, 3,
           2, 23, '2026-01-01T00:01:00Z')`,
      ).run();
      // The ascending end stored two batches, the descending end one (ids from the largest down).
      writeVersion2Chunk(db, { datasetId: 1, gen: 2, chunkNo: 0, stream: 'asc' }, all.slice(0, 10));
      writeVersion2Chunk(db, { datasetId: 1, gen: 2, chunkNo: 1, stream: 'desc' }, all.slice(13).reverse());
      writeVersion2Chunk(db, { datasetId: 1, gen: 2, chunkNo: 2, stream: 'asc' }, all.slice(10, 13));
      const put = db.prepare('INSERT INTO columns VALUES (1, 2, ?, ?)');
      RANKING_KEYS.forEach((key, k) =>
        put.run(rankingColumn(key), Buffer.from(Float64Array.from(all, (_, i) => i + k).buffer)),
      );
      migrate(db, path, datasetMigrations);
      db.close();

      const host = new DatasetHost(path);
      const answer = host.handle('query', {
        profileId: 'p',
        protocols: ['GMX'],
        window: 'D30',
        ranges: [{ fieldName: 'totalTrade', gte: 5 }],
        sort: { field: 'pnl', direction: 'desc' },
        limit: 100,
        offset: 0,
        required: true,
      }).value;
      const rows = answer ? unpackRows(answer) : [];
      const expected = all
        .filter((r) => r.totalTrade >= 5)
        .sort((a, b) => (b.pnl ?? -Infinity) - (a.pnl ?? -Infinity) || a.id.localeCompare(b.id));
      expect(rows.map(({ ranking: _, ...rest }) => rest)).toEqual(expected);
      // Each row's ranking is its own: record i has percentile i + k on key k.
      rows.forEach((row) =>
        expect(row.ranking).toMatchObject({
          [RANKING_KEYS[1] as string]: Number(String(row.id).slice(2)) + 1,
        }),
      );
      // A download after the migration writes beside the old records, under keys of its own.
      const point = host.handle('begin', {
        ref: { profileId: 'p', protocol: 'GMX', window: 'D7' },
        nowIso: NOW2,
      }).value;
      const batch = all.slice(0, 3).map((r) => ({ ...r, type: 'D7' }));
      expect(
        host.handle('write', {
          ...point,
          fresh: true,
          pitId: 'pit',
          stream: 'asc',
          records: packRecords(batch),
          after: null,
          total: 3,
          last: true,
          nowIso: NOW2,
        }).value.done,
      ).toBe(true);
      const first = host.handle('query', {
        profileId: 'p',
        protocols: ['GMX'],
        window: 'D30',
        ranges: [],
        sort: { field: 'id', direction: 'asc' },
        limit: 100,
        offset: 0,
        required: true,
      }).value;
      expect((first ? unpackRows(first) : []).map(({ ranking: _, ...rest }) => rest)).toEqual(all);
      host.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

const NOW2 = '2026-02-01T00:00:00.000Z';
