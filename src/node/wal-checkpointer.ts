// Checkpoints off the commit path (docs/copy-engine.md, "Checkpoints off the commit path").
// SQLite's automatic checkpoint runs inside the commit that crosses 1,000 WAL pages: that commit
// copies every page into the database and syncs it, which is the p99 of a write path that commits
// often (the copy engine's). Here the connection that commits stops checkpointing
// (`wal_autocheckpoint = 0`), and a worker thread with a connection of its own checkpoints
// instead, PASSIVE (it never waits for, nor blocks, a writer or a reader):
//   - once the WAL holds `pages` frames not yet copied into the database;
//   - once the WAL holds `catchUpPages` frames in all, whenever any are not yet copied and the
//     writer pauses (no new frame since the last look): the writer starts the WAL over from its
//     beginning only if, when its next transaction begins, every frame has been copied;
//   - when writes have paused for `idleMs`, for what is left.
// A WAL past `hardCapPages` frames all the same (a writer that never pauses: it starts the WAL
// over only if, when its transaction begins, every frame is copied) raises a flag that the
// committing thread reads after its own commits (`walCatchUp`, called by the copy engine) and
// between tasks: it then checkpoints the remainder itself, outside any transaction, and its next
// write starts the WAL over. The worker never takes the write lock (no RESTART, no TRUNCATE): a
// transaction that has read and then writes does not wait for a lock another connection holds
// (SQLite returns SQLITE_BUSY at once), so a checkpointer holding it would fail the service's
// transactions. `journal_size_limit` gives back the file beyond 64 MiB whenever the WAL starts
// over. Durability is WAL mode's: a commit is in the WAL before it returns, so a crash loses
// nothing whether or not it was checkpointed (tests/integration/wal-checkpointer.test.ts).
import type * as FileSystem from 'node:fs';
import { createRequire } from 'node:module';
import type * as OperatingSystem from 'node:os';
import type * as WorkerThreads from 'node:worker_threads';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

export interface WalCheckpointerOptions {
  /** Frames in the WAL not yet in the database that start a checkpoint (SQLite's default: 1,000). */
  pages?: number;
  /** How often the worker looks at the WAL, in ms. */
  pollMs?: number;
  /** Frames in the WAL from which any frame not yet copied starts a checkpoint. */
  catchUpPages?: number;
  /** Frames in the WAL from which the committing thread checkpoints the remainder itself. */
  hardCapPages?: number;
  /** No new frame for this long: checkpoint what is left. */
  idleMs?: number;
}

/** What the worker did, summed. */
export interface CheckpointStats {
  checkpoints: number;
  /** Wall time spent in checkpoints, ms (on the worker's thread). */
  ms: number;
  /** Catch-ups the committing thread ran (walCatchUp). */
  catchUps: number;
  /** Checkpoints that failed (tried again at the next poll). */
  errors: number;
}

export interface WalCheckpointer {
  stats(): CheckpointStats;
  /** Stops the worker (after a last checkpoint) and gives automatic checkpoints back to `db`. */
  stop(): Promise<void>;
}

const DEFAULTS: Required<WalCheckpointerOptions> = {
  pages: 1_000,
  pollMs: 10,
  catchUpPages: 4_000,
  hardCapPages: 16_000,
  idleMs: 1_000,
};
/** The WAL file kept after it starts over (bytes); beyond it, given back to the file system. */
const JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024;
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1_000;

/**
 * The worker's loop, run from its source text (so that it needs no file of its own in the build).
 * It may use nothing from this module's scope. How many frames wait is read from the wal-index
 * (the `-shm` file; its layout is SQLite's documented file format, walformat.html): mxFrame at
 * byte 16 of the header, nBackfill at byte 96, in the machine's byte order.
 */
function checkpointLoop(): void {
  /* eslint-disable @typescript-eslint/no-require-imports -- a worker run from source text loads with require */
  const { parentPort, workerData } = require('node:worker_threads') as typeof WorkerThreads;
  const fs = require('node:fs') as typeof FileSystem;
  const os = require('node:os') as typeof OperatingSystem;
  const Driver = require(workerData.driver as string) as typeof Database;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const { path, pages, pollMs, catchUpPages, hardCapPages, idleMs } =
    workerData as Required<WalCheckpointerOptions> & {
      path: string;
    };
  const db = new Driver(path);
  const header = Buffer.alloc(100);
  const littleEndian = os.endianness() === 'LE';
  const u32 = (offset: number) => (littleEndian ? header.readUInt32LE(offset) : header.readUInt32BE(offset));
  let shm: number | null = null;
  const frames = (): { last: number; waiting: number } | null => {
    try {
      shm ??= fs.openSync(`${path}-shm`, 'r');
      if (fs.readSync(shm, header, 0, 100, 0) < 100) return null;
    } catch {
      return null;
    }
    return { last: u32(16), waiting: Math.max(0, u32(16) - u32(96)) };
  };
  const stats = { checkpoints: 0, ms: 0, errors: 0 };
  const catchUp = new Int32Array(workerData.catchUp as SharedArrayBuffer);
  const checkpoint = (): void => {
    const start = performance.now();
    try {
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Locked by another connection's own checkpoint or a schema change: the next poll tries again.
      stats.errors += 1;
    }
    stats.ms += performance.now() - start;
    stats.checkpoints += 1;
    parentPort?.postMessage(stats);
  };
  let lastFrame = -1;
  let quietMs = 0;
  let caughtUp = true;
  const timer = setInterval(() => {
    const now = frames();
    if (now === null) return;
    if (now.last !== lastFrame) {
      lastFrame = now.last;
      quietMs = 0;
      caughtUp = false;
    } else quietMs += pollMs;
    // Asked the committing thread to catch up: leave it the checkpoint lock (a checkpoint running
    // here would make its own give up at once).
    if (Atomics.load(catchUp, 0) === 1) return;
    // A catch-up only while the writer pauses: one it outruns copies pages again for nothing.
    const pausing = quietMs > 0;
    if (now.waiting >= pages || (now.last >= catchUpPages && now.waiting > 0 && pausing)) checkpoint();
    else if (quietMs >= idleMs && !caughtUp) {
      checkpoint();
      caughtUp = true;
    }
    if (now.last >= hardCapPages && Atomics.compareExchange(catchUp, 0, 0, 1) === 0)
      parentPort?.postMessage('catch up');
  }, pollMs);
  parentPort?.on('message', () => {
    clearInterval(timer);
    checkpoint();
    if (shm !== null) fs.closeSync(shm);
    db.close();
    parentPort.close();
  });
}

/** The catch-up flag of each database that has a checkpointer (set by its worker). */
const catchUps = new WeakMap<Database.Database, { flag: Int32Array; run: () => void }>();

/**
 * After a commit, outside any transaction: when the worker asked for it (the WAL passed its hard
 * cap), checkpoints the remainder on `db` itself, so that its next write starts the WAL over.
 * Costs one atomic read otherwise. A no-op for a database without a checkpointer.
 */
export function walCatchUp(db: Database.Database): void {
  const catchUp = catchUps.get(db);
  if (catchUp && Atomics.load(catchUp.flag, 0) === 1 && !db.inTransaction) catchUp.run();
}

/**
 * Takes checkpoints off `db`'s commits: returns null (and changes nothing) for a database that is
 * not a WAL file. If the worker fails, `db` checkpoints by itself again.
 */
export function startWalCheckpointer(
  db: Database.Database,
  path: string,
  options: WalCheckpointerOptions = {},
): WalCheckpointer | null {
  if (path === '' || path === ':memory:' || db.pragma('journal_mode', { simple: true }) !== 'wal')
    return null;
  const settings = { ...DEFAULTS, ...options };
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const flag = new Int32Array(new SharedArrayBuffer(4));
  // tsx (esbuild, keepNames) wraps the loop's inner functions in `__name(…)`: give it one.
  const worker = new Worker(`const __name = (f) => f; (${checkpointLoop.toString()})()`, {
    eval: true,
    workerData: { ...settings, path, driver, catchUp: flag.buffer },
  });
  let stats: CheckpointStats = { checkpoints: 0, ms: 0, catchUps: 0, errors: 0 };
  const selfCheckpoint = () => {
    if (db.open) db.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
  };
  const run = () => {
    if (db.open) {
      let busy: boolean;
      try {
        const [result] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number }[];
        busy = result?.busy === 1;
      } catch {
        // Locked (a statement of this connection still reading, another connection's schema
        // change): as busy. A catch-up runs from an event handler, where a throw ends the process.
        busy = true;
      }
      // Busy: the worker's last checkpoint still holds the lock; the next commit tries again.
      if (busy) return;
      stats.catchUps += 1;
    }
    Atomics.store(flag, 0, 0);
  };
  catchUps.set(db, { flag, run });
  worker.on('message', (message: 'catch up' | Omit<CheckpointStats, 'catchUps'>) => {
    // Between tasks no transaction of this thread is open, unless one awaits (then: after it).
    if (message === 'catch up') walCatchUp(db);
    else stats = { ...message, catchUps: stats.catchUps };
  });
  worker.on('error', selfCheckpoint);
  worker.unref();
  db.pragma('wal_autocheckpoint = 0');
  db.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT}`);
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    stats: () => ({ ...stats }),
    stop: async () => {
      // Unreferenced so that it never keeps a process alive; stopping waits for it.
      worker.ref();
      worker.postMessage('stop');
      await exited;
      catchUps.delete(db);
      selfCheckpoint();
    },
  };
}
