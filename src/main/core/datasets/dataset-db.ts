import type Database from 'better-sqlite3';
import { RANKING_KEYS } from '../../../shared/api/statistics';
import type { DownloadState } from '../../../shared/ipc/schemas/leaderboard';
import { openDatabase, prepareCached, type Migration } from '../../../node/sqlite';
import { CoreError } from '../errors';
import { BatchReceiver } from './batch-channel';
import { COLUMN_COUNT, COLUMN_INDEX, packedText, packedTexts, rankingColumn } from './fields';
import type {
  BatchResult,
  BatchWrite,
  Cursors,
  DatasetRef,
  ResumePoint,
  StreamName,
  Usage,
  PackedRecords,
} from './worker-messages';
import { LOWER_IS_BETTER, percentiles } from './rankings';
import { RadixScratch } from './radix';

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

const NO_CURSORS: Cursors = { asc: null, desc: null };

interface DatasetRow {
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

/** A complete generation, as a query loads it. */
export interface LiveDataset {
  datasetId: number;
  gen: number;
  protocol: string;
  window: string;
  records: number;
  completedAt: string;
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

/** Downloads interrupted by the end of the process that ran them: they resume when started again. */
export function markInterrupted(db: Database.Database): void {
  db.prepare(
    `UPDATE datasets SET state = 'paused',
       message = 'Interrupted when Copydesk stopped; start the download again to resume it.'
     WHERE state = 'running'`,
  ).run();
}

/** Datasets and stored records per profile. */
export function usageOf(db: Database.Database): Usage {
  const rows = prepareCached(
    db,
    `SELECT profile_id, COUNT(*) AS datasets,
       SUM(live_records + CASE WHEN live_gen IS gen THEN 0 ELSE downloaded END) AS records
     FROM datasets GROUP BY profile_id`,
  ).all() as { profile_id: string; datasets: number; records: number }[];
  return Object.fromEntries(rows.map((r) => [r.profile_id, { datasets: r.datasets, records: r.records }]));
}

/** The SQL side of the datasets, used by the worker only. */
export class DatasetDb {
  /** Where batches the reader sent straight here are taken from (batch-channel.ts). */
  readonly batches = new BatchReceiver();
  /**
   * The ranking keys' numbers of each chunk a running generation has written, by chunk number
   * (RANKING_KEYS.length × count, key after key): its completion ranks them without reading every
   * chunk back. After a restart the chunks written before are read back instead.
   */
  private readonly rankingChunks = new Map<string, Map<number, Float64Array>>();

  constructor(readonly db: Database.Database) {}

  /** The active profile's downloads, oldest first. */
  list(profileId: string): DownloadState[] {
    const rows = prepareCached(this.db, 'SELECT * FROM datasets WHERE profile_id = ? ORDER BY id').all(
      profileId,
    ) as DatasetRow[];
    return rows.map(stateOf);
  }

  /**
   * Marks a download running and says where it continues: from its cursor when it has a point in
   * time, from scratch (a new generation) when it has none or when the dataset was complete.
   */
  begin(ref: DatasetRef, nowIso: string): ResumePoint {
    return this.db.transaction(() => {
      let row = this.find(ref);
      if (!row) {
        prepareCached(
          this.db,
          `INSERT INTO datasets (profile_id, protocol, win, state, started_at, gen, cursors, downloaded, chunks)
           VALUES (?, ?, ?, 'running', ?, 1, ?, 0, 0)`,
        ).run(ref.profileId, ref.protocol, ref.window, nowIso, JSON.stringify(NO_CURSORS));
      } else if (row.state === 'complete') {
        // A refresh: a new generation, while queries keep reading the complete one.
        prepareCached(
          this.db,
          `UPDATE datasets SET state = 'running', message = NULL, started_at = ?, pit_id = NULL,
             cursors = ?, downloaded = 0, chunks = 0, total = NULL WHERE id = ?`,
        ).run(nowIso, JSON.stringify(NO_CURSORS), row.id);
      } else {
        prepareCached(this.db, "UPDATE datasets SET state = 'running', message = NULL WHERE id = ?").run(
          row.id,
        );
      }
      prepareCached(
        this.db,
        'UPDATE datasets SET run = run + 1 WHERE profile_id = ? AND protocol = ? AND win = ?',
      ).run(ref.profileId, ref.protocol, ref.window);
      row = this.find(ref) as DatasetRow;
      return {
        datasetId: row.id,
        run: row.run,
        gen: row.gen,
        pitId: row.pit_id,
        cursors: JSON.parse(row.cursors) as Cursors,
        state: stateOf(row),
      };
    })();
  }

  /**
   * Stores one batch with the cursor that follows it, in one transaction, so that a download
   * stopped at any moment resumes with no duplicate and no gap. The two ends of a download never
   * overlap: a batch is cut where it reaches the records the other end already stored, and that
   * meeting completes the dataset.
   */
  write(batch: BatchWrite): BatchResult {
    return this.db.transaction((): BatchResult => {
      let row = prepareCached(this.db, 'SELECT * FROM datasets WHERE id = ?').get(batch.datasetId) as
        DatasetRow | undefined;
      if (
        !row ||
        row.state !== 'running' ||
        batch.run !== row.run ||
        (!batch.fresh && batch.gen !== row.gen)
      ) {
        return {
          state: row ? stateOf(row) : unknownState(),
          gen: row?.gen ?? batch.gen,
          done: false,
          stale: true,
        };
      }
      if (batch.fresh) row = this.newGeneration(row, batch.pitId);
      const cursors = JSON.parse(row.cursors) as Cursors;
      const other = cursors[batch.stream === 'asc' ? 'desc' : 'asc'];
      const records = this.batches.take(batch.records);
      const ids = packedTexts(records, 'id');
      const kept = keepUntil(ids, batch.stream, other?.lastId ?? null);
      const met = kept < ids.length;
      checkNoRepeat(ids, kept, cursors[batch.stream]?.lastId ?? null);
      if (kept > 0) this.insertChunk(row, batch.stream, records, ids, kept);
      const last = kept > 0 ? (ids[kept - 1] as string) : (cursors[batch.stream]?.lastId ?? null);
      const done = met || batch.last;
      cursors[batch.stream] = { after: batch.after, lastId: last, done };
      prepareCached(
        this.db,
        `UPDATE datasets SET pit_id = ?, cursors = ?, downloaded = downloaded + ?, chunks = chunks + ?,
           total = ? WHERE id = ?`,
      ).run(batch.pitId, JSON.stringify(cursors), kept, kept > 0 ? 1 : 0, batch.total, row.id);
      if (done) this.complete(row.id, row.gen, cursors, batch.nowIso);
      const after = prepareCached(this.db, 'SELECT * FROM datasets WHERE id = ?').get(row.id) as DatasetRow;
      return { state: stateOf(after), gen: after.gen, done, stale: false };
    })();
  }

  /** Pauses or fails a running download; null when there is no such dataset. */
  stop(ref: DatasetRef, state: 'paused' | 'failed', message: string): DownloadState | null {
    prepareCached(
      this.db,
      `UPDATE datasets SET state = ?, message = ? WHERE profile_id = ? AND protocol = ? AND win = ? AND state = 'running'`,
    ).run(state, message, ref.profileId, ref.protocol, ref.window);
    const row = this.find(ref);
    return row ? stateOf(row) : null;
  }

  /** Deletes a dataset and every generation of its records; answers its id, if it existed. */
  delete(ref: DatasetRef): number | null {
    const row = this.find(ref);
    if (!row) return null;
    for (const key of this.rankingChunks.keys())
      if (key.startsWith(`${row.id}/`)) this.rankingChunks.delete(key);
    this.db.transaction(() => {
      for (const table of ['records', 'chunks', 'columns'])
        prepareCached(this.db, `DELETE FROM ${table} WHERE dataset_id = ?`).run(row.id);
      prepareCached(this.db, 'DELETE FROM datasets WHERE id = ?').run(row.id);
    })();
    return row.id;
  }

  /** Every dataset of a profile, or of every profile. */
  refs(profileId?: string): DatasetRef[] {
    const rows = (
      profileId === undefined
        ? prepareCached(this.db, 'SELECT profile_id, protocol, win FROM datasets').all()
        : prepareCached(this.db, 'SELECT profile_id, protocol, win FROM datasets WHERE profile_id = ?').all(
            profileId,
          )
    ) as { profile_id: string; protocol: string; win: string }[];
    return rows.map((r) => ({ profileId: r.profile_id, protocol: r.protocol, window: r.win }));
  }

  /** The complete generation of a dataset, or null when it has none. */
  live(ref: DatasetRef): LiveDataset | null {
    const row = this.find(ref);
    if (!row || row.live_gen === null || row.completed_at === null) return null;
    return {
      datasetId: row.id,
      gen: row.live_gen,
      protocol: row.protocol,
      window: row.win,
      records: row.live_records,
      completedAt: row.completed_at,
    };
  }

  /** One stored column of a complete generation. */
  column(datasetId: number, gen: number, name: string): Buffer {
    const data = prepareCached(
      this.db,
      'SELECT data FROM columns WHERE dataset_id = ? AND gen = ? AND name = ?',
      'pluck',
    ).get(datasetId, gen, name) as Buffer | undefined;
    if (data === undefined) throw new CoreError('INTERNAL', `The downloaded dataset has no column ${name}.`);
    return data;
  }

  /** Records of a generation by their seq: their JSON rest and their numbers. */
  records(
    datasetId: number,
    gen: number,
    seqs: readonly number[],
  ): Map<number, { rest: string; numbers: Buffer }> {
    // One statement per count of seqs (pages have a handful of sizes), so SQLite does plain key lookups.
    const rows = prepareCached(
      this.db,
      `SELECT seq, rest, numbers FROM records
       WHERE dataset_id = ? AND gen = ? AND seq IN (${seqs.map(() => '?').join(', ')})`,
    ).all(datasetId, gen, ...seqs) as { seq: number; rest: string; numbers: Buffer }[];
    return new Map(rows.map((r) => [r.seq, { rest: r.rest, numbers: r.numbers }]));
  }

  private find(ref: DatasetRef): DatasetRow | undefined {
    return prepareCached(
      this.db,
      'SELECT * FROM datasets WHERE profile_id = ? AND protocol = ? AND win = ?',
    ).get(ref.profileId, ref.protocol, ref.window) as DatasetRow | undefined;
  }

  /** Drops the unfinished generation (never the complete one) and starts the next with `pitId`. */
  private newGeneration(row: DatasetRow, pitId: string): DatasetRow {
    if (row.gen !== row.live_gen) this.deleteGeneration(row.id, row.gen);
    const gen = Math.max(row.gen, row.live_gen ?? 0) + 1;
    prepareCached(
      this.db,
      'UPDATE datasets SET gen = ?, pit_id = ?, cursors = ?, downloaded = 0, chunks = 0 WHERE id = ?',
    ).run(gen, pitId, JSON.stringify(NO_CURSORS), row.id);
    return { ...row, gen, pit_id: pitId, cursors: JSON.stringify(NO_CURSORS), downloaded: 0, chunks: 0 };
  }

  private deleteGeneration(datasetId: number, gen: number): void {
    this.rankingChunks.delete(generationKey(datasetId, gen));
    for (const table of ['records', 'chunks', 'columns'])
      prepareCached(this.db, `DELETE FROM ${table} WHERE dataset_id = ? AND gen = ?`).run(datasetId, gen);
  }

  /** The first `count` records of a batch as one chunk and one row each. */
  private insertChunk(
    row: DatasetRow,
    stream: StreamName,
    records: PackedRecords,
    ids: readonly string[],
    count: number,
  ): void {
    const chunkNo = row.chunks;
    this.keepRankingNumbers(row, chunkNo, records.numbers, count);
    const width = COLUMN_COUNT * 8;
    const bytes = Buffer.from(records.numbers.buffer, records.numbers.byteOffset, count * width);
    const insert = prepareCached(
      this.db,
      'INSERT INTO records (dataset_id, gen, seq, rest, numbers) VALUES (?, ?, ?, ?, ?)',
    );
    for (let i = 0; i < count; i += 1)
      insert.run(
        row.id,
        row.gen,
        chunkNo * SEQ_STRIDE + i,
        packedText(records, i, 'rest'),
        bytes.subarray(i * width, (i + 1) * width),
      );
    prepareCached(
      this.db,
      'INSERT INTO chunks (dataset_id, gen, chunk_no, stream, count, ids, accounts, numbers) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(
      row.id,
      row.gen,
      chunkNo,
      stream,
      count,
      JSON.stringify(ids.slice(0, count)),
      JSON.stringify(packedTexts(records, 'account').slice(0, count)),
      bytes,
    );
  }

  private keepRankingNumbers(row: DatasetRow, chunkNo: number, numbers: Float64Array, count: number): void {
    const key = generationKey(row.id, row.gen);
    let chunks = this.rankingChunks.get(key);
    if (!chunks) this.rankingChunks.set(key, (chunks = new Map()));
    const kept = new Float64Array(RANKING_COLUMN_AT.length * count);
    RANKING_COLUMN_AT.forEach((at, k) => {
      for (let i = 0; i < count; i += 1) kept[k * count + i] = numbers[i * COLUMN_COUNT + at] as number;
    });
    chunks.set(chunkNo, kept);
  }

  /**
   * Completes a generation: checks where the two ends met for a repeated id (each batch was checked
   * as it was written), computes the ranking percentiles over the whole population and stores them
   * as columns, and makes it the generation queries read (dropping the previous one). The chunks
   * stay: they are the numeric columns, row by row.
   */
  private complete(datasetId: number, gen: number, cursors: Cursors, nowIso: string): void {
    // Each batch was checked against the one before it on its end (checkNoRepeat); what is left
    // is where the two ends met.
    const met = cursors.asc?.lastId;
    if (met != null && met === cursors.desc?.lastId) throw repeated(met);
    const scan = new ChunkScan(this.db, datasetId, gen);
    const known = this.rankingChunks.get(generationKey(datasetId, gen));
    this.rankingChunks.delete(generationKey(datasetId, gen));
    const bases = scan.columns(RANKING_KEYS, known);
    const size = scan.size();
    const put = prepareCached(
      this.db,
      'INSERT INTO columns (dataset_id, gen, name, data) VALUES (?, ?, ?, ?)',
    );
    // One set of work arrays for every key (RadixScratch).
    const scratch = new RadixScratch(size);
    const goodness = new Float64Array(size);
    RANKING_KEYS.forEach((key, k) => {
      const ranks = percentiles(bases[k] as Float64Array, LOWER_IS_BETTER.has(key), scratch, goodness);
      put.run(datasetId, gen, rankingColumn(key), Buffer.from(ranks.buffer));
    });
    const row = prepareCached(this.db, 'SELECT live_gen FROM datasets WHERE id = ?').get(datasetId) as {
      live_gen: number | null;
    };
    if (row.live_gen !== null && row.live_gen !== gen) this.deleteGeneration(datasetId, row.live_gen);
    prepareCached(
      this.db,
      `UPDATE datasets SET state = 'complete', message = NULL, live_gen = ?, live_records = ?, completed_at = ?,
         pit_id = NULL, cursors = ? WHERE id = ?`,
    ).run(gen, size, nowIso, JSON.stringify(NO_CURSORS), datasetId);
  }
}

/**
 * Reads a generation's chunks in id order: the `asc` chunks as they came, then the `desc` ones
 * backwards, each read backwards. A record's index in that order is its place in the dataset.
 */
export class ChunkScan {
  constructor(
    private readonly db: Database.Database,
    private readonly datasetId: number,
    private readonly gen: number,
  ) {}

  /** How many records the generation's chunks hold. */
  size(): number {
    return this.layout().size;
  }

  /**
   * The numeric columns `fields` (names of COLUMN_FIELDS), in one pass over the chunks. `known`:
   * chunks whose numbers for exactly `fields` are at hand (field after field), not read back.
   */
  columns(fields: readonly string[], known?: ReadonlyMap<number, Float64Array>): Float64Array[] {
    const at = fields.map((f) => {
      const index = COLUMN_INDEX.get(f);
      if (index === undefined) throw new CoreError('INTERNAL', `${f} is not a stored column of a dataset.`);
      return index;
    });
    const layout = this.layout();
    const out = fields.map(() => new Float64Array(layout.size));
    const read = prepareCached(
      this.db,
      'SELECT numbers FROM chunks WHERE dataset_id = ? AND gen = ? AND chunk_no = ?',
      'pluck',
    );
    for (const chunk of layout.chunks) {
      const kept = known?.get(chunk.chunkNo);
      if (kept) {
        copyKnown(kept, chunk, out);
        continue;
      }
      const bytes = read.get(this.datasetId, this.gen, chunk.chunkNo) as Buffer;
      const numbers = new Float64Array(
        bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
      );
      for (let c = 0; c < at.length; c += 1) {
        const column = out[c] as Float64Array;
        const f = at[c] as number;
        for (let k = 0; k < chunk.count; k += 1) {
          const i = chunk.reversed ? chunk.count - 1 - k : k;
          column[chunk.start + k] = numbers[i * COLUMN_COUNT + f] as number;
        }
      }
    }
    return out;
  }

  /** Every record's id or account, in order. */
  texts(name: 'ids' | 'accounts'): string[] {
    const layout = this.layout();
    const out = new Array<string>(layout.size);
    const read = prepareCached(
      this.db,
      `SELECT ${name} FROM chunks WHERE dataset_id = ? AND gen = ? AND chunk_no = ?`,
      'pluck',
    );
    for (const chunk of layout.chunks) {
      const values = JSON.parse(read.get(this.datasetId, this.gen, chunk.chunkNo) as string) as string[];
      for (let k = 0; k < chunk.count; k += 1)
        out[chunk.start + k] = values[chunk.reversed ? chunk.count - 1 - k : k] as string;
    }
    return out;
  }

  /** Every record's seq (its key in the records table), in order. */
  seqs(): Float64Array {
    const layout = this.layout();
    const out = new Float64Array(layout.size);
    for (const chunk of layout.chunks) {
      for (let k = 0; k < chunk.count; k += 1)
        out[chunk.start + k] = chunk.chunkNo * SEQ_STRIDE + (chunk.reversed ? chunk.count - 1 - k : k);
    }
    return out;
  }

  private layout(): {
    size: number;
    chunks: { chunkNo: number; count: number; reversed: boolean; start: number }[];
  } {
    const rows = prepareCached(
      this.db,
      'SELECT chunk_no, stream, count FROM chunks WHERE dataset_id = ? AND gen = ? ORDER BY chunk_no',
    ).all(this.datasetId, this.gen) as { chunk_no: number; stream: StreamName; count: number }[];
    const ordered = [
      ...rows.filter((r) => r.stream === 'asc'),
      ...rows.filter((r) => r.stream === 'desc').reverse(),
    ];
    let start = 0;
    const chunks = ordered.map((r) => {
      const chunk = { chunkNo: r.chunk_no, count: r.count, reversed: r.stream === 'desc', start };
      start += r.count;
      return chunk;
    });
    return { size: start, chunks };
  }
}

/** A chunk's kept numbers (field after field) into the columns, in the layout's order. */
function copyKnown(
  kept: Float64Array,
  chunk: { count: number; reversed: boolean; start: number },
  out: Float64Array[],
): void {
  out.forEach((column, c) => {
    for (let k = 0; k < chunk.count; k += 1)
      column[chunk.start + k] = kept[c * chunk.count + (chunk.reversed ? chunk.count - 1 - k : k)] as number;
  });
}

/** Where each ranking key's number sits in a record's numbers. */
const RANKING_COLUMN_AT = RANKING_KEYS.map((key) => COLUMN_INDEX.get(key) as number);

const generationKey = (datasetId: number, gen: number) => `${datasetId}/${gen}`;

const repeated = (id: string) =>
  new CoreError('INTERNAL', `The download holds record ${id} twice; delete it and download again.`);

/**
 * No id of the first `count` of a batch equals the one before it on its end (the last id the end
 * stored, then each other): ids come sorted, so a repeat is always next to itself. Checked batch by
 * batch rather than over the whole dataset at its completion.
 */
function checkNoRepeat(ids: readonly string[], count: number, lastId: string | null): void {
  let previous = lastId;
  for (let i = 0; i < count; i += 1) {
    if (ids[i] === previous) throw repeated(previous);
    previous = ids[i] as string;
  }
}

/**
 * How many leading records of a batch lie before the other end's last id: the `asc` end keeps ids
 * below it, the `desc` end ids above it (each batch is sorted by id in its own direction).
 */
function keepUntil(ids: readonly string[], stream: StreamName, otherLastId: string | null): number {
  if (otherLastId === null) return ids.length;
  let kept = 0;
  for (const id of ids) {
    if (stream === 'asc' ? id >= otherLastId : id <= otherLastId) break;
    kept += 1;
  }
  return kept;
}

function stateOf(row: DatasetRow): DownloadState {
  const complete = row.state === 'complete';
  return {
    protocol: row.protocol,
    window: row.win,
    state: row.state,
    downloaded: complete ? row.live_records : row.downloaded,
    total: row.total ?? (complete ? row.live_records : null),
    startedAt: row.started_at,
    completedAt: row.completed_at,
    message: row.message,
  };
}

function unknownState(): DownloadState {
  return {
    protocol: '',
    window: '',
    state: 'failed',
    downloaded: 0,
    total: null,
    startedAt: new Date(0).toISOString(),
    completedAt: null,
    message: 'The dataset was deleted.',
  };
}
