import type Database from 'better-sqlite3';
import { openDatabase, type Migration } from '../../../node/sqlite';

/**
 * The core's own SQLite database (ARCHITECTURE.md: the service and the core each own theirs).
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
];

/** Opens the cache database at `path`, bringing its schema up to date. */
export function openCacheDatabase(
  path: string,
  migrations: readonly Migration[] = cacheMigrations,
): Database.Database {
  return openDatabase(path, migrations);
}
