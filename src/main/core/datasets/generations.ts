import type Database from 'better-sqlite3';
import { RANKING_KEYS } from '../../../shared/api/statistics';
import { prepareCached } from '../../../node/sqlite';
import { repeatedRecord } from './download-ends';
import { ChunkScan } from './chunk-scan';
import { NO_CURSORS, type DatasetRow } from './dataset-schema';
import { rankingColumn } from './fields';
import { RadixScratch } from '../../../shared/statistics-index/radix-sort';
import type { RankingChunks } from './ranking-chunks';
import { LOWER_IS_BETTER, percentiles } from './rankings';
import type { Cursors } from './worker-messages';

// A dataset's records belong to a generation (docs/core-cache.md): a new point in time writes a
// new one, and queries keep reading the last complete one until the new one completes.

/** Drops the unfinished generation (never the complete one) and starts the next with `pitId`. */
export function newGeneration(
  db: Database.Database,
  rankings: RankingChunks,
  row: DatasetRow,
  pitId: string,
): DatasetRow {
  if (row.gen !== row.live_gen) deleteGeneration(db, rankings, row.id, row.gen);
  const gen = Math.max(row.gen, row.live_gen ?? 0) + 1;
  prepareCached(
    db,
    'UPDATE datasets SET gen = ?, pit_id = ?, cursors = ?, downloaded = 0, chunks = 0 WHERE id = ?',
  ).run(gen, pitId, JSON.stringify(NO_CURSORS), row.id);
  return { ...row, gen, pit_id: pitId, cursors: JSON.stringify(NO_CURSORS), downloaded: 0, chunks: 0 };
}

/** Deletes one generation's records, chunks and columns. */
export function deleteGeneration(
  db: Database.Database,
  rankings: RankingChunks,
  datasetId: number,
  gen: number,
): void {
  rankings.forgetGeneration(datasetId, gen);
  deleteRecords(db, datasetId, gen);
  for (const table of ['chunks', 'columns'])
    prepareCached(db, `DELETE FROM ${table} WHERE dataset_id = ? AND gen = ?`).run(datasetId, gen);
}

/**
 * Deletes the records of a dataset's chunks (of one generation, or of every one), before the
 * chunks themselves: a record's rows hold only its key, and each chunk's records (and their
 * number rows) are one range of keys from its `first_seq`.
 */
export function deleteRecords(db: Database.Database, datasetId: number, gen: number | null): void {
  const chunks = (
    gen === null
      ? prepareCached(db, 'SELECT first_seq, count FROM chunks WHERE dataset_id = ?').all(datasetId)
      : prepareCached(db, 'SELECT first_seq, count FROM chunks WHERE dataset_id = ? AND gen = ?').all(
          datasetId,
          gen,
        )
  ) as { first_seq: number; count: number }[];
  const rests = prepareCached(db, 'DELETE FROM records WHERE seq >= ? AND seq < ?');
  const numbers = prepareCached(db, 'DELETE FROM record_numbers WHERE seq >= ? AND seq < ?');
  for (const chunk of chunks) {
    rests.run(chunk.first_seq, chunk.first_seq + chunk.count);
    numbers.run(chunk.first_seq, chunk.first_seq + chunk.count);
  }
}

/**
 * Completes a generation: checks where the two ends met for a repeated id (each batch was checked
 * as it was written), computes the ranking percentiles over the whole population and stores them
 * as columns, and makes it the generation queries read (dropping the previous one). The chunks
 * stay: they are the numeric columns, row by row.
 */
export function completeGeneration(
  db: Database.Database,
  rankings: RankingChunks,
  at: { datasetId: number; gen: number; cursors: Cursors; nowIso: string },
): void {
  const { datasetId, gen, cursors } = at;
  // Each batch was checked against the one before it on its end (checkNoRepeat); what is left
  // is where the two ends met.
  const met = cursors.asc?.lastId;
  if (met != null && met === cursors.desc?.lastId) throw repeatedRecord(met);
  const size = storeRankings(db, datasetId, gen, rankings.take(datasetId, gen));
  const row = prepareCached(db, 'SELECT live_gen FROM datasets WHERE id = ?').get(datasetId) as {
    live_gen: number | null;
  };
  if (row.live_gen !== null && row.live_gen !== gen) deleteGeneration(db, rankings, datasetId, row.live_gen);
  prepareCached(
    db,
    `UPDATE datasets SET state = 'complete', message = NULL, live_gen = ?, live_records = ?, completed_at = ?,
       pit_id = NULL, cursors = ? WHERE id = ?`,
  ).run(gen, size, at.nowIso, JSON.stringify(NO_CURSORS), datasetId);
}

/** Ranks the whole population on every ranking key and stores each percentile column; answers its size. */
function storeRankings(
  db: Database.Database,
  datasetId: number,
  gen: number,
  known: ReadonlyMap<number, Float64Array> | undefined,
): number {
  const scan = new ChunkScan(db, datasetId, gen);
  const bases = scan.columns(RANKING_KEYS, known);
  const size = scan.size();
  const put = prepareCached(db, 'INSERT INTO columns (dataset_id, gen, name, data) VALUES (?, ?, ?, ?)');
  // One set of work arrays for every key (RadixScratch).
  const scratch = new RadixScratch(size);
  const goodness = new Float64Array(size);
  RANKING_KEYS.forEach((key, k) => {
    const ranks = percentiles(bases[k] as Float64Array, LOWER_IS_BETTER.has(key), scratch, goodness);
    put.run(datasetId, gen, rankingColumn(key), Buffer.from(ranks.buffer));
  });
  return size;
}
