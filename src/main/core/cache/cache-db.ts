import type Database from 'better-sqlite3';
import { openDatabase, type Migration } from '../../../node/sqlite';
import { KeyValueTable } from './key-value';

/**
 * The core's own SQLite database (docs/architecture.md: the service and the core each own theirs).
 * Every row carries the profile it belongs to, so each profile keeps its own cache.
 * Never edit a released step: add one.
 */
export const cacheMigrations: readonly Migration[] = [
  {
    version: 1,
    name: 'cached read answers, settings',
    up: (db) => {
      db.exec(`
        CREATE TABLE responses (
          profile_id TEXT NOT NULL,
          key TEXT NOT NULL,
          channel TEXT NOT NULL,
          json TEXT NOT NULL,
          fetched_at TEXT NOT NULL,
          used_at_ms INTEGER NOT NULL,
          bytes INTEGER NOT NULL,
          PRIMARY KEY (profile_id, key)
        ) STRICT;
        CREATE INDEX responses_lru ON responses (used_at_ms);
        CREATE TABLE settings (key TEXT PRIMARY KEY, json TEXT NOT NULL) STRICT;
      `);
    },
  },
  {
    version: 2,
    name: 'withdrawals in a table of their own',
    // The API lists no withdrawals, so this record is the user's only history of them: one row
    // each, never dropped. They used to be one JSON array per profile in `settings`, capped at
    // 1,000 and rewritten whole on every change; each array moves here in its order.
    up: (db) => {
      db.exec(`
        CREATE TABLE withdrawals (
          seq INTEGER PRIMARY KEY,
          profile_id TEXT NOT NULL,
          id TEXT NOT NULL,
          user_id TEXT NOT NULL,
          created_at TEXT NOT NULL,
          json TEXT NOT NULL,
          UNIQUE (profile_id, id)
        ) STRICT;
        CREATE INDEX withdrawals_by_user ON withdrawals (profile_id, user_id, seq);
        CREATE INDEX withdrawals_by_time ON withdrawals (profile_id, created_at);
      `);
      const settings = new KeyValueTable(db);
      const keys = db
        .prepare("SELECT key FROM settings WHERE key LIKE 'withdrawals.%'")
        .pluck()
        .all() as string[];
      const insert = db.prepare(
        'INSERT OR IGNORE INTO withdrawals (profile_id, id, user_id, created_at, json) VALUES (?, ?, ?, ?, ?)',
      );
      for (const key of keys) {
        const records = settings.get(key);
        const profileId = key.slice('withdrawals.'.length);
        // Newest first in the array: insert oldest first, so that `seq` grows with time.
        for (const record of Array.isArray(records) ? [...records].reverse() : []) {
          const { userId, ...withdrawal } = record as { id?: unknown; userId?: unknown; createdAt?: unknown };
          if (typeof withdrawal.id !== 'string' || typeof userId !== 'string') continue;
          if (typeof withdrawal.createdAt !== 'string') continue;
          insert.run(profileId, withdrawal.id, userId, withdrawal.createdAt, JSON.stringify(withdrawal));
        }
        settings.delete(key);
      }
    },
  },
];

/** Opens the cache database at `path`, bringing its schema up to date. */
export function openCacheDatabase(
  path: string,
  migrations: readonly Migration[] = cacheMigrations,
): Database.Database {
  return openDatabase(path, migrations);
}
