import type { ServiceDb } from '../../store/database';
import { recomputeAll } from './recompute';
import { storeAllStatisticJson } from '../store/stored-json';

/**
 * The columns of the statistics a real client selects (docs/statistics.md): side split, streaks,
 * Sharpe and Sortino, and the rankings of six of them. Frozen here: a later statistic adds a
 * migration of its own, never a name to this list.
 */
const ADDED_VALUE_COLUMNS = [
  'longPnl',
  'realisedLongPnl',
  'shortPnl',
  'realisedShortPnl',
  'totalLongVolume',
  'totalShortVolume',
  'winStreak',
  'loseStreak',
  'maxWinStreak',
  'maxLoseStreak',
  'sharpeRatio',
  'realisedSharpeRatio',
  'sortinoRatio',
  'realisedSortinoRatio',
] as const;
const ADDED_RANKING_COLUMNS = [
  'rk_sharpeRatio',
  'rk_realisedSharpeRatio',
  'rk_sortinoRatio',
  'rk_realisedSortinoRatio',
  'rk_maxWinStreak',
  'rk_maxLoseStreak',
] as const;

/**
 * Migration 10: adds the columns, renders the stored JSON of every row already there (which
 * migration 6 left to this step), then recomputes the current records as of the instant they were
 * computed for, so that no current record answers without the new values.
 */
export function addClientStatistics(db: ServiceDb): void {
  for (const column of [...ADDED_VALUE_COLUMNS, ...ADDED_RANKING_COLUMNS])
    db.exec(`ALTER TABLE statistics ADD COLUMN "${column}" REAL`);
  storeAllStatisticJson(db);
  const asOf = db
    .prepare('SELECT max(statistic_at_ms) FROM statistics WHERE gen_to IS NULL')
    .pluck()
    .get() as number | null;
  if (asOf !== null) recomputeAll(db, asOf);
}
