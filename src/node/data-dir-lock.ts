import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** The file in the data folder that names the process running Copydesk on it. */
export const LOCK_FILE = 'copydesk.lock';

/** Raised when another live process holds the data folder. */
export class AlreadyRunningError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `Copydesk is already running on the data folder ${dataDir} (process ${pid}). ` +
        'Use that window, or quit it first.',
    );
    this.name = 'AlreadyRunningError';
  }
}

export interface DataDirLock {
  release(): void;
}

/**
 * Claims `dataDir` for this process: one terminal per data folder, so that two local services
 * never run on the same database. The claim is a file created exclusively (`wx`) holding this
 * process's id; a file whose process is gone (a crash, a kill -9) is stale and is taken over.
 * Throws AlreadyRunningError when a live process holds it (this one included: two cores in one
 * process would start two services too).
 */
export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, LOCK_FILE);
  // Two tries: the second after removing a stale file (a racing start that takes it first wins).
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const claimed = tryCreate(path);
    if (claimed) return claimed;
    const holder = holderOf(path);
    if (holder !== null && isAlive(holder)) throw new AlreadyRunningError(dataDir, holder);
    rmSync(path, { force: true });
  }
  throw new Error(`Could not lock the data folder ${dataDir}: ${path} keeps coming back.`);
}

function tryCreate(path: string): DataDirLock | null {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return null;
    throw error;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  let released = false;
  return {
    release: () => {
      if (released) return;
      released = true;
      // Only our own claim is removed: never a file a later process wrote after taking a stale one.
      if (holderOf(path) === process.pid) rmSync(path, { force: true });
    },
  };
}

/** The pid in the lock file, or null when it is unreadable (a claim being written, or junk). */
function holderOf(path: string): number | null {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Whether a process with this id exists (signal 0 checks without sending anything). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
