// Migration 2 of the datasets file: records stored with the old list of number fields are dropped,
// and their datasets say why and download afresh when started (docs/statistics.md).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, openDatabase } from '../../../../../src/node/sqlite';
import { DatasetDb } from '../../../../../src/main/core/datasets/dataset-db';
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
