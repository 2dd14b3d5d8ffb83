import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatabaseFromTheFutureError, openDatabase, type Migration } from '../../../src/node/sqlite';

const dbFile = () => join(mkdtempSync(join(tmpdir(), 'copydesk-sqlite-')), 'nested', 'test.db');
const step = (version: number, sql: string): Migration => ({
  version,
  name: `step ${version}`,
  up: (db) => db.exec(sql),
});

describe('openDatabase', () => {
  it('creates the folder, sets WAL and foreign keys, and applies migrations in order', () => {
    const file = dbFile();
    const db = openDatabase(file, [
      step(1, 'CREATE TABLE a (x INTEGER)'),
      step(2, 'CREATE TABLE b (y INTEGER)'),
    ]);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    db.close();
  });

  it('applies only the new steps on the next open', () => {
    const file = dbFile();
    openDatabase(file, [step(1, 'CREATE TABLE a (x INTEGER)')]).close();
    const db = openDatabase(file, [
      step(1, 'CREATE TABLE a (x INTEGER)'),
      step(2, 'CREATE TABLE b (y INTEGER)'),
    ]);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    db.close();
  });

  it('rolls a failing migration back whole', () => {
    const file = dbFile();
    openDatabase(file, [step(1, 'CREATE TABLE a (x INTEGER)')]).close();
    expect(() =>
      openDatabase(file, [step(1, ''), step(2, 'CREATE TABLE b (y INTEGER)'), step(3, 'NOT SQL')]),
    ).toThrow();
    const db = openDatabase(file, [step(1, '')]);
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'b'").get()).toBeUndefined();
    db.close();
  });

  it('refuses a database written by a newer Copydesk, saying so', () => {
    const file = dbFile();
    openDatabase(file, [step(1, ''), step(2, '')]).close();
    expect(() => openDatabase(file, [step(1, '')])).toThrow(DatabaseFromTheFutureError);
    expect(() => openDatabase(file, [step(1, '')])).toThrow(
      /schema version 2, newer than this Copydesk knows \(1\)/,
    );
  });

  it('refuses a migration list with gaps', () => {
    expect(() => openDatabase(dbFile(), [step(1, ''), step(3, '')])).toThrow(/expected 2/);
  });
});
