import type { ServiceDb } from '../store/database';
import { writeMeta } from '../store/meta';
import { currentGeneration } from '../store/statistics';
import { computeAllFromColumns } from './engine';
import { markPrices } from './facts';
import { loadPositionColumns } from './load-columns';
import { writeGeneration, type RecordToStore } from './writer';

/**
 * Recomputes every statistic record and ranking from the positions, as of `nowMs`, and stores
 * them as one new generation (search-after's points in time keep the old one).
 */
export function recomputeAll(db: ServiceDb, nowMs: number): { records: number; generation: number } {
  currentGeneration(db); // the generation counter must exist before the write transaction
  const columns = loadPositionColumns(db);
  const records: RecordToStore[] = [];
  computeAllFromColumns(columns, nowMs, markPrices(db), (_protocol, ranked) => {
    for (const r of ranked) records.push(r);
  });
  const generation = writeGeneration(db, 'all', records, nowMs);
  writeMeta(db, 'statistics_as_of', new Date(nowMs).toISOString());
  return { records: records.length, generation };
}
