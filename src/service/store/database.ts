import type Database from 'better-sqlite3';
import { openDatabase } from '../../node/sqlite';
import { serviceMigrations } from './migrations';

export type ServiceDb = Database.Database;

/**
 * How much of the store the service's connection reads through a memory map: SQLite's largest
 * (0x7fff0000 bytes, as better-sqlite3 builds it; a larger figure is cut to it). A page read from
 * the map is a pointer into the OS cache instead of a read() into SQLite's own page cache: a
 * fifth of a REST page's record reads (docs/statistics.md, "The REST path outside the index").
 * Only reads go through it; writes, the WAL and the checkpointer's connection are unchanged.
 */
const MMAP_BYTES = 0x7fff0000;

/** Opens the service's own database at `path` with its schema up to date. */
export function openServiceDatabase(path: string): ServiceDb {
  const db = openDatabase(path, serviceMigrations);
  if (path !== ':memory:') db.pragma(`mmap_size = ${MMAP_BYTES}`);
  return db;
}
