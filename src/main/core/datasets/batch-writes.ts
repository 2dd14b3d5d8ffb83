import type Database from 'better-sqlite3';
import { prepareCached } from '../../../node/sqlite';
import type { BatchReceiver } from './batch-channel';
import { insertNumberGroups, nextFirstSeq, type DatasetRow } from './dataset-schema';
import { checkNoRepeat, keepUntil } from './download-ends';
import { stateOf, unknownState } from './download-states';
import { COLUMN_COUNT, packedText, packedTexts } from './fields';
import { completeGeneration, newGeneration } from './generations';
import type { RankingChunks } from './ranking-chunks';
import type { BatchResult, BatchWrite, Cursors, PackedRecords, StreamName } from './worker-messages';

/** What writing a batch needs besides the file: where its records wait, and the kept rankings. */
export interface BatchSinks {
  batches: BatchReceiver;
  rankings: RankingChunks;
}

/**
 * Stores one batch with the cursor that follows it, in one transaction, so that a download
 * stopped at any moment resumes with no duplicate and no gap. The two ends of a download never
 * overlap: a batch is cut where it reaches the records the other end already stored, and that
 * meeting completes the dataset. A batch of an earlier run or generation is refused as stale.
 */
export function writeBatch(db: Database.Database, sinks: BatchSinks, batch: BatchWrite): BatchResult {
  return db.transaction((): BatchResult => {
    let row = prepareCached(db, 'SELECT * FROM datasets WHERE id = ?').get(batch.datasetId) as
      DatasetRow | undefined;
    if (!row || row.state !== 'running' || batch.run !== row.run || (!batch.fresh && batch.gen !== row.gen)) {
      return {
        state: row ? stateOf(row) : unknownState(),
        gen: row?.gen ?? batch.gen,
        done: false,
        stale: true,
      };
    }
    if (batch.fresh) row = newGeneration(db, sinks.rankings, row, batch.pitId);
    const cursors = JSON.parse(row.cursors) as Cursors;
    const other = cursors[batch.stream === 'asc' ? 'desc' : 'asc'];
    const records = sinks.batches.take(batch.records);
    const ids = packedTexts(records, 'id');
    const kept = keepUntil(ids, batch.stream, other?.lastId ?? null);
    const met = kept < ids.length;
    checkNoRepeat(ids, kept, cursors[batch.stream]?.lastId ?? null);
    if (kept > 0) insertChunk(db, sinks.rankings, { row, stream: batch.stream, records, ids, count: kept });
    const last = kept > 0 ? (ids[kept - 1] as string) : (cursors[batch.stream]?.lastId ?? null);
    const done = met || batch.last;
    cursors[batch.stream] = { after: batch.after, lastId: last, done };
    prepareCached(
      db,
      `UPDATE datasets SET pit_id = ?, cursors = ?, downloaded = downloaded + ?, chunks = chunks + ?,
         total = ? WHERE id = ?`,
    ).run(batch.pitId, JSON.stringify(cursors), kept, kept > 0 ? 1 : 0, batch.total, row.id);
    if (done)
      completeGeneration(db, sinks.rankings, {
        datasetId: row.id,
        gen: row.gen,
        cursors,
        nowIso: batch.nowIso,
      });
    const after = prepareCached(db, 'SELECT * FROM datasets WHERE id = ?').get(row.id) as DatasetRow;
    return { state: stateOf(after), gen: after.gen, done, stale: false };
  })();
}

/**
 * The first `count` records of a batch: one chunk (ids and accounts, and where its records' keys
 * start), one row per record (its JSON rest) and one row per NUMBER_GROUP records (their numbers,
 * row-major). The keys are the file's next free ones, so every insert appends to a b-tree's end
 * and binds two values; the numbers are written once (docs/core-cache.md, Downloaded datasets).
 */
function insertChunk(
  db: Database.Database,
  rankings: RankingChunks,
  chunk: {
    row: DatasetRow;
    stream: StreamName;
    records: PackedRecords;
    ids: readonly string[];
    count: number;
  },
): void {
  const { row, records, count } = chunk;
  const chunkNo = row.chunks;
  rankings.keep(row.id, row.gen, chunkNo, records.numbers, count);
  const lastSeq = prepareCached(db, 'SELECT MAX(seq) FROM records', 'pluck').get() as number | null;
  const firstSeq = nextFirstSeq(lastSeq);
  const insert = prepareCached(db, 'INSERT INTO records (seq, rest) VALUES (?, ?)');
  for (let i = 0; i < count; i += 1) insert.run(firstSeq + i, packedText(records, i, 'rest'));
  const bytes = Buffer.from(records.numbers.buffer, records.numbers.byteOffset, count * COLUMN_COUNT * 8);
  insertNumberGroups(
    prepareCached(db, 'INSERT INTO record_numbers (seq, numbers) VALUES (?, ?)'),
    firstSeq,
    bytes,
    count,
  );
  prepareCached(
    db,
    `INSERT INTO chunks (dataset_id, gen, chunk_no, stream, count, first_seq, ids, accounts)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    row.id,
    row.gen,
    chunkNo,
    chunk.stream,
    count,
    firstSeq,
    JSON.stringify(chunk.ids.slice(0, count)),
    JSON.stringify(packedTexts(records, 'account').slice(0, count)),
  );
}
