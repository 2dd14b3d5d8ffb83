// The service's checkpoints run on a worker thread, off the commits (src/node/wal-checkpointer.ts;
// docs/copy-engine.md, "Checkpoints off the commit path"). These pin that it checkpoints so that
// the WAL starts over, that the committing connection never checkpoints while it runs, and that a
// process killed with a large WAL, never checkpointed, restarts with every committed row.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startWalCheckpointer } from '../../src/node/wal-checkpointer';
import { openServiceDatabase, type ServiceDb } from '../../src/service/store/database';

const open: ServiceDb[] = [];
afterEach(() => open.splice(0).forEach((db) => db.open && db.close()));

function database(): { db: ServiceDb; path: string } {
  const path = join(mkdtempSync(join(tmpdir(), 'copydesk-wal-')), 'service.db');
  const db = openServiceDatabase(path);
  open.push(db);
  return { db, path };
}

const walBytes = (path: string) => (existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0);

async function until(done: () => boolean, ms = 10_000): Promise<void> {
  for (const start = Date.now(); !done(); await sleep(20))
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
}

/** 6,000 commits of a row of ~550 bytes, pausing a little every 100; the largest WAL file seen. */
async function write(db: ServiceDb, path: string): Promise<number> {
  const insert = db.prepare(
    'INSERT INTO copy_source_orders (id, account, protocol, processed_at_ms) VALUES (?, ?, ?, ?)',
  );
  let largest = 0;
  for (let i = 0; i < 6_000; i += 1) {
    insert.run(`order-${i}-${'x'.repeat(500)}`, '0xabc', 'NOVA_ARB', i);
    if (i % 100 === 0) await sleep(5);
    largest = Math.max(largest, walBytes(path));
  }
  return largest;
}

describe('the WAL checkpointer', () => {
  it('checkpoints on its own thread and bounds the WAL that the committing connection no longer checkpoints', async () => {
    const unchecked = database();
    unchecked.db.pragma('wal_autocheckpoint = 0');
    const unbounded = await write(unchecked.db, unchecked.path);
    const { db, path } = database();
    const checkpointer = startWalCheckpointer(db, path, {
      pages: 100,
      catchUpPages: 200,
      hardCapPages: 1_000,
      idleMs: 200,
    });
    expect(checkpointer).not.toBeNull();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const largest = await write(db, path);
    // ~3 pages a commit: with nothing checkpointed the WAL holds them all (~100 MB).
    expect(unbounded).toBeGreaterThan(48 * 1024 * 1024);
    expect(largest).toBeLessThan(unbounded / 2);
    expect(checkpointer!.stats().checkpoints).toBeGreaterThan(1);
    expect(checkpointer!.stats().errors).toBe(0);
    const reader = openServiceDatabase(path);
    open.push(reader);
    expect(reader.prepare('SELECT COUNT(*) FROM copy_source_orders').pluck().get()).toBe(6_000);
    await checkpointer!.stop();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
  });

  it('leaves a database without a WAL alone', () => {
    const db = openServiceDatabase(':memory:');
    open.push(db);
    expect(startWalCheckpointer(db, ':memory:')).toBeNull();
  });

  it('a process killed with a large WAL restarts with every committed row', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'copydesk-wal-kill-')), 'service.db');
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/wal-writer-child.ts', path], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let committed = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      for (const match of chunk.toString().matchAll(/committed (\d+)/g)) committed = Number(match[1]);
    });
    try {
      await until(() => walBytes(path) > 16 * 1024 * 1024, 60_000);
    } finally {
      child.kill('SIGKILL');
    }
    await new Promise((resolve) => child.once('exit', resolve));
    const wal = walBytes(path);
    expect(wal).toBeGreaterThan(16 * 1024 * 1024);
    const db = openServiceDatabase(path);
    open.push(db);
    const rows = db.prepare('SELECT COUNT(*) FROM copy_source_orders').pluck().get() as number;
    // Every batch it said was committed is there (and at most the one it was writing beyond).
    expect(committed).toBeGreaterThan(0);
    expect(rows).toBeGreaterThanOrEqual(committed);
    expect(rows % 100).toBe(0);
  });
});
