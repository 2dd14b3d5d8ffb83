import type Database from 'better-sqlite3';
import { join } from 'node:path';
import { openRebuildable, type DamagedFile } from '../../node/damaged-file';
import { openCacheDatabase } from './cache/cache-db';
import { StatisticsDatasets } from './datasets';
import { openWithdrawalsDatabase } from './cache/withdrawals-file';

/** The core's own files in the data folder, open. */
export interface CoreFiles {
  /** `cache/core.db`: cached answers, settings, profiles. */
  cache: Database.Database;
  /** `cache/datasets.db`: downloaded statistics. */
  datasets: StatisticsDatasets;
  /** `withdrawals.db`: the withdrawal record, the one thing here that exists nowhere else. */
  withdrawals: Database.Database;
  /** The files that could not be opened at this start, moved aside and started again empty. */
  damaged: DamagedFile[];
}

/**
 * Opens the core's databases. A file that cannot be opened because it is damaged does not stop
 * the terminal: it is moved aside (renamed with the time) and rebuilt empty, and the start says
 * so (`damaged`, shown in `app:info`). The cache holds copies of what the service has and the
 * settings (which fall back to their defaults); the datasets can be downloaded again.
 */
export function openCoreFiles(dataDir: string): CoreFiles {
  const cacheDir = join(dataDir, 'cache');
  const damaged: DamagedFile[] = [];
  const rebuildable = <T>(path: string, open: (path: string) => T): T => {
    const { value, damaged: found } = openRebuildable(path, open);
    if (found) damaged.push(found);
    return value;
  };
  const cache = rebuildable(join(cacheDir, 'core.db'), (path) => openCacheDatabase(path));
  try {
    const withdrawals = rebuildable(join(dataDir, 'withdrawals.db'), (path) =>
      openWithdrawalsDatabase(path, cache),
    );
    try {
      const datasets = rebuildable(join(cacheDir, 'datasets.db'), (path) => new StatisticsDatasets(path));
      return { cache, datasets, withdrawals, damaged };
    } catch (error) {
      withdrawals.close();
      throw error;
    }
  } catch (error) {
    cache.close();
    throw error;
  }
}
