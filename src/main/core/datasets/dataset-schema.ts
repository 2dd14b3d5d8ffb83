import type Database from 'better-sqlite3';
import type { DownloadState } from '../../../shared/ipc/schemas/leaderboard';
import { openDatabase, type Migration } from '../../../node/sqlite';
import type { Cursors } from './worker-messages';

/**
 * The datasets' own SQLite file (docs/core-cache.md). A dataset row keeps the download's state and
 * cursor; each batch lands as one chunk (its ids, accounts and numbers, row-major) plus one row per
 * record (its JSON rest and its numbers), in the same transaction as the cursor that follows it.
 * When the download completes, the chunks are turned into one column per field (and the ranking
 * percentiles), which is what queries load. Records belong to a generation: a new point in time
 * (a refresh, or a resume whose pit expired) writes a new generation, and the old one stays
 * readable until the new one is complete.
 */
export const datasetMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'datasets, records, chunks, columns',
    up: (db) => {
      db.exec(`
        CREATE TABLE datasets (
          id INTEGER PRIMARY KEY,
          profile_id TEXT NOT NULL,
          protocol TEXT NOT NULL,
          win TEXT NOT NULL,
          state TEXT NOT NULL CHECK (state IN ('running', 'paused', 'complete', 'failed')),
          started_at TEXT NOT NULL,
          message TEXT,
          total INTEGER,
          -- The generation being downloaded (or the last one downloaded).
          gen INTEGER NOT NULL,
          pit_id TEXT,
          cursors TEXT NOT NULL,
          -- Which run of the download may write: a batch of an earlier run is refused.
          run INTEGER NOT NULL DEFAULT 0,
          downloaded INTEGER NOT NULL,
          chunks INTEGER NOT NULL,
          -- The complete generation that queries read, if any.
          live_gen INTEGER,
          live_records INTEGER NOT NULL DEFAULT 0,
          completed_at TEXT,
          UNIQUE (profile_id, protocol, win)
        ) STRICT;
        CREATE TABLE records (
          dataset_id INTEGER NOT NULL,
          gen INTEGER NOT NULL,
          seq INTEGER NOT NULL,
          rest TEXT NOT NULL,
          numbers BLOB NOT NULL,
          PRIMARY KEY (dataset_id, gen, seq)
        ) STRICT, WITHOUT ROWID;
        CREATE TABLE chunks (
          dataset_id INTEGER NOT NULL,
          gen INTEGER NOT NULL,
          chunk_no INTEGER NOT NULL,
          stream TEXT NOT NULL,
          count INTEGER NOT NULL,
          ids TEXT NOT NULL,
          accounts TEXT NOT NULL,
          numbers BLOB NOT NULL,
          PRIMARY KEY (dataset_id, gen, chunk_no)
        ) STRICT;
        CREATE TABLE columns (
          dataset_id INTEGER NOT NULL,
          gen INTEGER NOT NULL,
          name TEXT NOT NULL,
          data BLOB NOT NULL,
          PRIMARY KEY (dataset_id, gen, name)
        ) STRICT;
      `);
    },
  },
  {
    version: 2,
    name: 'records with the statistics real clients select',
    up: (db) => {
      // A record's numbers are stored by position in the contract's field list (fields.ts), which
      // grew (docs/statistics.md): numbers written before would be read into the wrong fields. The
      // downloads are dropped and say so; starting one again downloads it afresh.
      db.exec(`
        DELETE FROM records;
        DELETE FROM chunks;
        DELETE FROM columns;
        UPDATE datasets SET state = 'failed',
          message = 'Downloaded before Copydesk added new statistics; download it again.',
          gen = gen + 1, pit_id = NULL, cursors = '{"asc":null,"desc":null}', downloaded = 0,
          chunks = 0, total = NULL, live_gen = NULL, live_records = 0, completed_at = NULL;
      `);
    },
  },
];

/** A record's place: chunk number × this + its index in the chunk (batches hold at most 1000). */
export const SEQ_STRIDE = 1024;

/** Both ends not started: a new download or a new generation. */
export const NO_CURSORS: Cursors = { asc: null, desc: null };

/** A row of the `datasets` table: one download, its state, cursors and generations. */
export interface DatasetRow {
  id: number;
  profile_id: string;
  protocol: string;
  win: string;
  state: DownloadState['state'];
  started_at: string;
  message: string | null;
  total: number | null;
  gen: number;
  pit_id: string | null;
  cursors: string;
  run: number;
  downloaded: number;
  chunks: number;
  live_gen: number | null;
  live_records: number;
  completed_at: string | null;
}

/** Opens (creating if needed) the datasets file with its schema up to date. */
export function openDatasetDatabase(path: string): Database.Database {
  // One connection at a time uses this file (the worker; the core's thread briefly at start), so
  // WAL's readers-beside-a-writer buys nothing, while its checkpoint writes every page twice. A
  // download appends ~1 MB a batch, and a rollback journal holds only the pages a commit changes
  // (the dataset's row and the b-trees' edges, not the appended pages): the batch is written
  // once. Measured on 200,000 records: a quarter less CPU and wall time than WAL with 64 MB
  // checkpoints. PERSIST keeps the small journal file instead of creating it at each commit;
  // synchronous = NORMAL still syncs the journal before the file, so a power loss loses at
  // most the batch being committed.
  const db = openDatabase(path, datasetMigrations, { journalMode: 'PERSIST' });
  db.pragma('journal_size_limit = 16777216');
  return db;
}
