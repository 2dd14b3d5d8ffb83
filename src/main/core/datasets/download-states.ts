import type Database from 'better-sqlite3';
import type { DownloadState } from '../../../shared/ipc/schemas/leaderboard';
import { prepareCached } from '../../../node/sqlite';
import type { DatasetRow } from './dataset-schema';
import type { Usage } from './worker-messages';

// What the datasets file says about its downloads, as the terminal shows them (docs/core-cache.md):
// a row's state for the Downloads panel, the usage per profile for `cache:stats`.

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

/** A download as the terminal shows it: a complete one counts its live generation. */
export function stateOf(row: DatasetRow): DownloadState {
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

/** What a batch of a deleted dataset answers: its download is gone. */
export function unknownState(): DownloadState {
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
