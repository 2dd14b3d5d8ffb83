import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AlreadyRunningError, LOCK_FILE, lockDataDir } from '../../../src/node/data-dir-lock';

const dirs: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'copydesk-lock-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The id of a process that has ended. */
function deadPid(): number {
  const { pid } = spawnSync(process.execPath, ['-e', '0']);
  return pid ?? 0;
}

describe('lockDataDir', () => {
  it('holds the folder with this process id until released', () => {
    const dir = folder();
    const lock = lockDataDir(dir);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    expect(() => lockDataDir(dir)).toThrow(AlreadyRunningError);
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    lockDataDir(dir).release();
  });

  it('names the live process that holds the folder', () => {
    const dir = folder();
    // The parent of this test runner is alive and is not this process.
    writeFileSync(join(dir, LOCK_FILE), `${process.ppid}\n`);
    expect(() => lockDataDir(dir)).toThrow(new AlreadyRunningError(dir, process.ppid).message);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.ppid));
  });

  it('takes over a lock whose process is gone, or that is unreadable', () => {
    const dir = folder();
    writeFileSync(join(dir, LOCK_FILE), `${deadPid()}\n`);
    const lock = lockDataDir(dir);
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(process.pid));
    lock.release();
    writeFileSync(join(dir, LOCK_FILE), 'junk');
    lockDataDir(dir).release();
  });

  it('leaves a lock another process took after this one was released', () => {
    const dir = folder();
    const lock = lockDataDir(dir);
    writeFileSync(join(dir, LOCK_FILE), `${process.ppid}\n`);
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
  });
});
