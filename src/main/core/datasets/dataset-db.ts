import type Database from 'better-sqlite3';
import type { DownloadState } from '../../../shared/ipc/schemas/leaderboard';
import { prepareCached } from '../../../node/sqlite';
import { CoreError } from '../errors';
import { BatchReceiver } from './batch-channel';
import { writeBatch } from './batch-writes';
import { NO_CURSORS, NUMBER_GROUP, type DatasetRow } from './dataset-schema';
import { COLUMN_COUNT } from './fields';
import { stateOf } from './download-states';
import { deleteRecords } from './generations';
import { RankingChunks } from './ranking-chunks';
import type { BatchResult, BatchWrite, Cursors, DatasetRef, ResumePoint } from './worker-messages';

/** A complete generation, as a query loads it. */
export interface LiveDataset {
  datasetId: number;
  gen: number;
  protocol: string;
  window: string;
  records: number;
  completedAt: string;
}

/**
 * The SQL side of the datasets, used by the worker only: the one object the worker's messages
 * reach the file through. The schema is in dataset-schema.ts, a batch's write in batch-writes.ts,
 * a generation's life in generations.ts, reading a generation back in chunk-scan.ts.
 */
export class DatasetDb {
  /** Where batches the reader sent straight here are taken from (batch-channel.ts). */
  readonly batches = new BatchReceiver();
  /** The ranking numbers of chunks written by running generations (ranking-chunks.ts). */
  private readonly rankings = new RankingChunks();

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

  /** Stores one batch with the cursor that follows it (batch-writes.ts). */
  write(batch: BatchWrite): BatchResult {
    return writeBatch(this.db, { batches: this.batches, rankings: this.rankings }, batch);
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
    this.rankings.forgetDataset(row.id);
    this.db.transaction(() => {
      deleteRecords(this.db, row.id, null);
      for (const table of ['chunks', 'columns'])
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

  /** Records by their seq (a key of the whole file, from their chunk): their JSON rest and their numbers. */
  records(seqs: readonly number[]): Map<number, { rest: string; numbers: Buffer }> {
    // One statement per count of seqs (pages have a handful of sizes), so SQLite does plain key lookups.
    // A record's numbers are its slice of its group's row (NUMBER_GROUP records, one page).
    const width = COLUMN_COUNT * 8;
    const rows = prepareCached(
      this.db,
      `SELECT r.seq, r.rest, substr(n.numbers, (r.seq - n.seq) * ${width} + 1, ${width}) AS numbers
       FROM records r JOIN record_numbers n ON n.seq = r.seq - r.seq % ${NUMBER_GROUP}
       WHERE r.seq IN (${seqs.map(() => '?').join(', ')})`,
    ).all(...seqs) as { seq: number; rest: string; numbers: Buffer }[];
    return new Map(rows.map((r) => [r.seq, { rest: r.rest, numbers: r.numbers }]));
  }

  private find(ref: DatasetRef): DatasetRow | undefined {
    return prepareCached(
      this.db,
      'SELECT * FROM datasets WHERE profile_id = ? AND protocol = ? AND win = ?',
    ).get(ref.profileId, ref.protocol, ref.window) as DatasetRow | undefined;
  }
}
