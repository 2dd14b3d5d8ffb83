import type Database from 'better-sqlite3';
import { openDatabase } from '../../node/sqlite';
import { serviceMigrations } from './migrations';

export type ServiceDb = Database.Database;

/** Opens the service's own database at `path` with its schema up to date. */
export function openServiceDatabase(path: string): ServiceDb {
  return openDatabase(path, serviceMigrations);
}
