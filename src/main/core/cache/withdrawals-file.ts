import type Database from 'better-sqlite3';
import { cacheMigrations, openCacheDatabase } from './cache-db';
import { KeyValueTable } from './key-value';

/** Set in the withdrawals file once the records an older Copydesk kept in core.db are copied in. */
const COPIED_KEY = 'withdrawals.copiedFromCache';

/**
 * Opens the withdrawal record's own file (`<dataDir>/withdrawals.db`), apart from the cache: the
 * API lists no withdrawals, so this record exists nowhere else, and a damaged cache, moved aside
 * and rebuilt empty, must not take it. The file has the cache database's schema steps (so the
 * WithdrawalLog reads it unchanged, whatever step is added later); only its `withdrawals` table is
 * used. The records an older Copydesk kept in core.db are copied in once, in one transaction with
 * the mark that says so, then removed from core.db.
 */
export function openWithdrawalsDatabase(path: string, cacheDb: Database.Database): Database.Database {
  const db = openCacheDatabase(path, cacheMigrations);
  try {
    copyFromCache(db, cacheDb);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

function copyFromCache(db: Database.Database, cacheDb: Database.Database): void {
  const marks = new KeyValueTable(db);
  if (marks.get(COPIED_KEY) === true) return;
  // Both files have the same schema steps, so the same columns; `seq` keeps the order.
  const columns = (db.pragma('table_info(withdrawals)') as { name: string }[]).map((c) => c.name);
  const list = columns.map((c) => `"${c}"`).join(', ');
  const rows = cacheDb.prepare(`SELECT ${list} FROM withdrawals ORDER BY seq`).raw().all() as unknown[][];
  const insert = db.prepare(
    `INSERT OR IGNORE INTO withdrawals (${list}) VALUES (${columns.map(() => '?').join(', ')})`,
  );
  db.transaction(() => {
    for (const row of rows) insert.run(...row);
    marks.set(COPIED_KEY, true);
  })();
  // Copied and marked: the cache's copy would only go stale.
  if (rows.length > 0) cacheDb.prepare('DELETE FROM withdrawals').run();
}
