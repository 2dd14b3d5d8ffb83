import type Database from 'better-sqlite3';
import { prepareCached } from '../../../node/sqlite';

/**
 * The cache database's `settings` table as a small JSON key-value store: the user's settings and
 * the saved service profiles live here, one key each. They are few and small, and a table of
 * their own would need a migration for each. (Withdrawals, which grow without bound, have their
 * own table: withdrawal-log.ts.)
 */
export class KeyValueTable {
  constructor(private readonly db: Database.Database) {}

  /** The value stored under `key`, or null (also when it is not valid JSON any more). */
  get(key: string): unknown {
    const row = prepareCached(this.db, 'SELECT json FROM settings WHERE key = ?').get(key) as
      { json: string } | undefined;
    if (!row) return null;
    try {
      return JSON.parse(row.json) as unknown;
    } catch {
      return null;
    }
  }

  set(key: string, value: unknown): void {
    prepareCached(
      this.db,
      'INSERT INTO settings (key, json) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET json = excluded.json',
    ).run(key, JSON.stringify(value));
  }

  delete(key: string): void {
    prepareCached(this.db, 'DELETE FROM settings WHERE key = ?').run(key);
  }
}
