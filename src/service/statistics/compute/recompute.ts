import type { ServiceDb } from '../../store/database';
import { writeMeta } from '../../store/meta';
import { currentGeneration } from '../store/statistic-rows';
import { computeAllFromColumns } from './engine';
import { markPrices } from './facts';
import { loadPositionColumns } from '../index/load-columns';
import {
  writeGeneration,
  writeGenerationInChunks,
  type ChunkedWrite,
  type RecordToStore,
} from '../store/writer';

/**
 * Recomputes every statistic record and ranking from the positions, as of `nowMs`, and stores
 * them as one new generation (search-after's points in time keep the old one), in one
 * transaction; `chunks` (a first start's preparation only, when no one reads statistics:
 * docs/service.md, Listening while preparing) commits the records in short transactions instead.
 */
export function recomputeAll(
  db: ServiceDb,
  nowMs: number,
  chunks?: ChunkedWrite,
): { records: number; generation: number } {
  currentGeneration(db); // the generation counter must exist before the write transaction
  const columns = loadPositionColumns(db);
  const records: RecordToStore[] = [];
  computeAllFromColumns(columns, nowMs, markPrices(db), (_protocol, ranked) => {
    for (const r of ranked) records.push(r);
  });
  const generation = chunks
    ? writeGenerationInChunks(db, records, nowMs, chunks)
    : writeGeneration(db, 'all', records, nowMs);
  writeMeta(db, 'statistics_as_of', new Date(nowMs).toISOString());
  return { records: records.length, generation };
}
