import { chmodSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ensurePrivateDir } from '../../../src/node/data-dir';
import { openDatabase } from '../../../src/node/sqlite';

const modeOf = (path: string) => statSync(path).mode & 0o777;
const root = () => mkdtempSync(join(tmpdir(), 'copydesk-modes-'));
const steps = [{ version: 1, name: 'one', up: (db: Database.Database) => db.exec('CREATE TABLE a (x)') }];

describe.skipIf(process.platform === 'win32')('file modes (docs/security.md, Secrets and files)', () => {
  it('creates the folders of a database 0700 and the database and its WAL files 0600', () => {
    const dir = join(root(), 'data', 'service');
    const file = join(dir, 'service.db');
    const db = openDatabase(file, steps);
    db.prepare('INSERT INTO a VALUES (1)').run();
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(join(dir, '..'))).toBe(0o700);
    expect(modeOf(file)).toBe(0o600);
    expect(modeOf(`${file}-wal`)).toBe(0o600);
    expect(modeOf(`${file}-shm`)).toBe(0o600);
    db.close();
  });

  it('makes an existing database that others could read 0600 again when it is opened', () => {
    const dir = root();
    const file = join(dir, 'cache.db');
    openDatabase(file, steps).close();
    chmodSync(file, 0o644);
    openDatabase(file, steps).close();
    expect(modeOf(file)).toBe(0o600);
  });

  it('makes the data folder 0700, also one an older version left open', () => {
    const dir = join(root(), 'Copydesk');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'x'), '');
    ensurePrivateDir(dir);
    expect(modeOf(dir)).toBe(0o700);
    const fresh = join(root(), 'a', 'b');
    ensurePrivateDir(fresh);
    expect(modeOf(fresh)).toBe(0o700);
  });
});
