import Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './data-dir';

/** One numbered schema step. `up` runs inside the migration transaction. */
export interface Migration {
  version: number;
  name: string;
  up: (db: Database.Database) => void;
}

/** Raised when a database was written by a newer Copydesk than this one. */
export class DatabaseFromTheFutureError extends Error {
  constructor(path: string, found: number, known: number) {
    super(
      `The database ${path} has schema version ${found}, newer than this Copydesk knows (${known}). ` +
        'Update Copydesk, or point it at another data folder.',
    );
    this.name = 'DatabaseFromTheFutureError';
  }
}

/**
 * Opens (creating if needed) a SQLite file with the pragmas every Copydesk database uses,
 * then brings its schema up to date: migrations are an ordered list tracked by
 * `PRAGMA user_version`, applied in one transaction (docs/style.md, SQLite).
 */
export function openDatabase(
  path: string,
  migrations: readonly Migration[],
  options: { journalMode?: 'WAL' | 'PERSIST' } = {},
): Database.Database {
  // Folders made here are 0700; an existing folder is left as it is (it may be one the user named
  // with --db), but the database files in it are made 0600 below.
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
  const db = new Database(path);
  try {
    makePrivate(path);
    db.pragma(`journal_mode = ${options.journalMode ?? 'WAL'}`);
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, path, migrations);
    makePrivate(path);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Databases hold secrets (the service's JWT secret, API key hashes, the withdrawal record): the
 * file and its journal files are the user's alone (0600), also when an older Copydesk made them
 * readable by others. Windows has no such modes; `chmod` there only sets the read-only flag.
 */
function makePrivate(path: string): void {
  if (path === ':memory:' || path === '' || process.platform === 'win32') return;
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`])
    if (existsSync(file)) chmodSync(file, PRIVATE_FILE_MODE);
}

/** Applies the migrations newer than the file's `user_version`, all or nothing. */
export function migrate(db: Database.Database, path: string, migrations: readonly Migration[]): number {
  assertOrdered(migrations);
  const latest = migrations.at(-1)?.version ?? 0;
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > latest) throw new DatabaseFromTheFutureError(path, current, latest);
  const pending = migrations.filter((m) => m.version > current);
  if (pending.length === 0) return current;
  db.transaction(() => {
    for (const migration of pending) migration.up(db);
    db.pragma(`user_version = ${latest}`);
  })();
  return latest;
}

function assertOrdered(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new Error(`Migration ${m.name} has version ${m.version}, expected ${i + 1}`);
  });
}

const statementCaches = new WeakMap<Database.Database, Map<string, Database.Statement>>();
const STATEMENT_CACHE_SIZE = 500;

/**
 * A prepared statement for `sql`, compiled once per database and kept (least recently used
 * dropped past 500). Queries built from filters repeat their SQL text with new parameters, and
 * compiling them on every request would cost more than running them. `pluck` statements are
 * cached apart: a statement's mode is state that callers must not change under each other.
 */
export function prepareCached(
  db: Database.Database,
  sql: string,
  mode: 'rows' | 'pluck' = 'rows',
): Database.Statement {
  let cache = statementCaches.get(db);
  if (!cache) statementCaches.set(db, (cache = new Map()));
  const key = `${mode}|${sql}`;
  const found = cache.get(key);
  if (found) {
    cache.delete(key);
    cache.set(key, found);
    return found;
  }
  const statement = mode === 'pluck' ? db.prepare(sql).pluck() : db.prepare(sql);
  cache.set(key, statement);
  if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return statement;
}
