import { prepareCached } from '../../node/sqlite';
import { randomBytes } from 'node:crypto';
import type { ServiceDb } from './database';

/** Reads a value of the service's own key/value table, creating it with `make` the first time. */
export function metaValue(db: ServiceDb, key: string, make: () => string): string {
  const stored = readMeta(db, key);
  if (stored !== null) return stored;
  const value = make();
  prepareCached(db, 'INSERT INTO meta (key, value) VALUES (?, ?)').run(key, value);
  return value;
}

/** The JWT signing secret: random per database, so tokens survive restarts but not a new database. */
export const jwtSecret = (db: ServiceDb): string =>
  metaValue(db, 'jwt_secret', () => randomBytes(32).toString('hex'));

/** A value of the key/value table, or null when it was never set. */
export function readMeta(db: ServiceDb, key: string): string | null {
  return (
    (prepareCached(db, 'SELECT value FROM meta WHERE key = ?', 'pluck').get(key) as string | undefined) ??
    null
  );
}

/** Sets a value of the key/value table, replacing any previous one. */
export function writeMeta(db: ServiceDb, key: string, value: string): void {
  prepareCached(
    db,
    'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  ).run(key, value);
}
