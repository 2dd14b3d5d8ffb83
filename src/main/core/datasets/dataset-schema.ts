import type Database from 'better-sqlite3';
import type { DownloadState } from '../../../shared/ipc/schemas/leaderboard';
import { openDatabase, type Migration } from '../../../node/sqlite';
import { COLUMN_COUNT } from './fields';
import type { Cursors } from './worker-messages';

/**
 * The datasets' own SQLite file (docs/core-cache.md). A dataset row keeps the download's state and
 * cursor; each batch lands as one chunk (its ids and accounts, and `first_seq`, its records' first
 * key), one row per record (its JSON rest) and one row per eight records (their numbers, row-major),
 * in the same transaction as the cursor that follows it.
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
  {
    version: 3,
    name: 'records keyed by one number; their numbers stored once, eight records a row',
    up: migrateToNumberGroups,
  },
];

/**
 * Records per row of `record_numbers`. A chunk's first key is a multiple of it, so record `seq`'s
 * numbers are in the row keyed `seq - seq % NUMBER_GROUP`. Eight records of 60 numbers are 3,840
 * bytes: the most that stays in one 4 KiB page of a rowid table (no overflow page), so a page of
 * the leaderboard reads one page per record, and a column scan reads a chunk in 125 rows.
 */
export const NUMBER_GROUP = 8;

/** The first key of a chunk written after `lastSeq` (the file's highest record key, or null). */
export const nextFirstSeq = (lastSeq: number | null): number =>
  lastSeq === null ? 0 : (Math.floor(lastSeq / NUMBER_GROUP) + 1) * NUMBER_GROUP;

/**
 * Migration 3. A record was a row of a WITHOUT ROWID table keyed (dataset_id, gen, seq) holding
 * its rest and its numbers, and its chunk held the numbers again: five values bound per record,
 * ~1.4 KB written per record, and the numbers twice. Now a record's rest is a row of a rowid table
 * under one key of the file, its numbers are stored once, eight records a row, and the chunk says
 * where its keys start; a bulk download writes a third fewer bytes (docs/core-cache.md,
 * Benchmark). An old record's key (chunk number × 1024 + index) becomes its chunk's new first key
 * + its index; the numbers come from each chunk's copy.
 */
function migrateToNumberGroups(db: Database.Database): void {
  db.exec(`
    ALTER TABLE chunks ADD COLUMN first_seq INTEGER NOT NULL DEFAULT 0;
    UPDATE chunks SET first_seq = rowid * 1024;
    CREATE TABLE records_by_seq (seq INTEGER PRIMARY KEY, rest TEXT NOT NULL) STRICT;
    INSERT INTO records_by_seq (seq, rest)
      SELECT c.first_seq + r.seq % 1024, r.rest
      FROM records r JOIN chunks c
        ON c.dataset_id = r.dataset_id AND c.gen = r.gen AND c.chunk_no = r.seq / 1024;
    DROP TABLE records;
    ALTER TABLE records_by_seq RENAME TO records;
    ${RECORD_NUMBERS_TABLE_SQL};
  `);
  const chunks = db.prepare('SELECT rowid AS id, first_seq, count FROM chunks').all() as {
    id: number;
    first_seq: number;
    count: number;
  }[];
  const numbersOf = db.prepare('SELECT numbers FROM chunks WHERE rowid = ?').pluck();
  const insert = db.prepare('INSERT INTO record_numbers (seq, numbers) VALUES (?, ?)');
  for (const chunk of chunks)
    insertNumberGroups(insert, chunk.first_seq, numbersOf.get(chunk.id) as Buffer, chunk.count);
  db.exec('ALTER TABLE chunks DROP COLUMN numbers');
}

/** Records' numbers, NUMBER_GROUP records a row, keyed by the first one's seq. */
const RECORD_NUMBERS_TABLE_SQL = `CREATE TABLE record_numbers (
  seq INTEGER PRIMARY KEY,
  numbers BLOB NOT NULL
) STRICT`;

/** A chunk's numbers (`count` records, row-major, from key `firstSeq`) as rows of NUMBER_GROUP records. */
export function insertNumberGroups(
  insert: Database.Statement,
  firstSeq: number,
  numbers: Buffer,
  count: number,
): void {
  const width = COLUMN_COUNT * 8;
  for (let i = 0; i < count; i += NUMBER_GROUP)
    insert.run(firstSeq + i, numbers.subarray(i * width, Math.min(count, i + NUMBER_GROUP) * width));
}

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
