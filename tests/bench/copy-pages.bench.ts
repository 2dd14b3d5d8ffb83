// npm run bench:copy-pages — where the copy engine's write path goes, beside its floor (issue #18):
// the WAL frames (pages) each source order writes, by b-tree, and the CPU per order split into
// SQLite's statements, the commit and the rest (the engine's JavaScript), for bench:copy's world
// at one batch size. Both the engine and the floor (bench:copy-floor's rowPerFill) first write
// BENCH_WARM_ORDERS orders (default 8,000), then BENCH_SOURCE_ORDERS (default 2,000) are measured
// with checkpoints off (no checkpointer, wal_autocheckpoint 0), so that every page a transaction
// changes is one frame appended to the WAL: frames are counted from the WAL file, by page number,
// and each page is named by the dbstat table. BENCH_BATCH (default 100) orders per transaction.
// Timing each statement costs a getrusage call, ~1 µs each, counted in its phase.
// docs/copy-engine.md, Against its floor (issue #18).
import type Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalService } from '../../src/service/app';
import { defaultConfig } from '../../src/service/config';
import { CopyEngine } from '../../src/service/copy-engine/engine';
import { openServiceDatabase } from '../../src/service/store/database';
import { openDatabase } from '../../src/node/sqlite';
import { rowPerFill } from './copy-floor-layouts';
import { followers, sourceOrders, traderAddresses } from './copy-world';

const BATCH = Number(process.env.BENCH_BATCH ?? 100);
const WARM = Number(process.env.BENCH_WARM_ORDERS ?? 8_000);
const MEASURED = Number(process.env.BENCH_SOURCE_ORDERS ?? 2_000);
for (const [name, value] of Object.entries({ BENCH_BATCH: BATCH, BENCH_SOURCE_ORDERS: MEASURED }))
  if (!(Number.isInteger(value) && value >= 1)) throw new Error(`${name} must be an integer ≥ 1`);
if (!(Number.isInteger(WARM) && WARM >= 0)) throw new Error('BENCH_WARM_ORDERS must be an integer ≥ 0');

const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;
/** The process's CPU time so far, ms (every thread: here only this one works). */
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** The WAL's size now, to count the frames appended after it. */
const walSize = (path: string): number => statSync(`${path}-wal`).size;

/** Frames appended to the WAL past `from` bytes, per b-tree (dbstat names every page). */
function framesByTree(db: Database.Database, path: string, from: number): Map<string, number> {
  const wal = readFileSync(`${path}-wal`);
  const frame = 24 + wal.readUInt32BE(8);
  const names = new Map(db.prepare('SELECT pageno, name FROM dbstat').raw().all() as [number, string][]);
  const counts = new Map<string, number>();
  for (let at = 32 + Math.ceil((from - 32) / frame) * frame; at + frame <= wal.length; at += frame) {
    const name = names.get(wal.readUInt32BE(at)) ?? '(freed)';
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

/** Frames per order, largest first, and their sum. */
function perOrder(counts: Map<string, number>): { framesPerOrder: number; byTree: Record<string, number> } {
  const sorted = [...counts].sort((a, b) => b[1] - a[1]);
  const total = sorted.reduce((sum, [, n]) => sum + n, 0);
  return {
    framesPerOrder: round(total / MEASURED, 2),
    byTree: Object.fromEntries(sorted.map(([name, n]) => [name, round(n / MEASURED, 2)])),
  };
}

/**
 * Times every statement prepared on `db` from now on (CPU ms, summed in `phase.statements`);
 * `phase.lastEnd` is when the last one returned, so that what follows it in a transaction's
 * call (the commit) can be told apart.
 */
function timeStatements(db: Database.Database, phase: { statements: number; lastEnd: number }): void {
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    const statement = prepare(sql);
    for (const method of ['run', 'get', 'all'] as const) {
      const original = statement[method].bind(statement) as (...args: unknown[]) => unknown;
      (statement as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        const start = cpuMs();
        try {
          return original(...args);
        } finally {
          phase.lastEnd = cpuMs();
          phase.statements += phase.lastEnd - start;
        }
      };
    }
    return statement;
  }) as typeof db.prepare;
}

async function engineRun() {
  const dir = mkdtempSync(join(tmpdir(), 'copydesk-copy-pages-'));
  const dbPath = join(dir, 'service.db');
  const config = defaultConfig({ dbPath, port: 0, copyTradeQuota: 10, startingBalance: 1e9 });
  const service = createLocalService(config);
  const traders = traderAddresses();
  followers(service, traders);
  await service.close();
  // The engine alone on a connection of its own: no checkpointer, no checkpoint in its commits.
  const db = openServiceDatabase(dbPath);
  try {
    db.pragma('wal_autocheckpoint = 0');
    const phase = { statements: 0, lastEnd: 0 };
    timeStatements(db, phase);
    const engine = new CopyEngine(db, config);
    const orders = sourceOrders(traders, Date.now() - 3_600_000, WARM + MEASURED);
    for (let i = 0; i < WARM; i += BATCH)
      engine.processSourceOrders(orders.slice(i, Math.min(WARM, i + BATCH)));
    db.pragma('wal_checkpoint(TRUNCATE)');
    const from = walSize(dbPath);
    phase.statements = 0;
    let commit = 0;
    const started = cpuMs();
    for (let i = WARM; i < WARM + MEASURED; i += BATCH) {
      engine.processSourceOrders(orders.slice(i, i + BATCH));
      commit += cpuMs() - phase.lastEnd;
    }
    const total = cpuMs() - started;
    return {
      ...perOrder(framesByTree(db, dbPath, from)),
      cpuMsPerOrder: round(total / MEASURED, 4),
      statementsCpuMsPerOrder: round(phase.statements / MEASURED, 4),
      commitCpuMsPerOrder: round(commit / MEASURED, 4),
      restCpuMsPerOrder: round((total - phase.statements - commit) / MEASURED, 4),
    };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function floorRun() {
  const dir = mkdtempSync(join(tmpdir(), 'copydesk-copy-pages-floor-'));
  const path = join(dir, 'floor.db');
  const db = openDatabase(path, [
    { version: 1, name: rowPerFill.name, up: (d) => d.exec(rowPerFill.schema) },
  ]);
  try {
    db.pragma('wal_autocheckpoint = 0');
    const write = rowPerFill.writer(db);
    const batch = db.transaction((from: number, to: number) => {
      for (let o = from; o < to; o += 1) write(o);
    });
    for (let i = 0; i < WARM; i += BATCH) batch(i, Math.min(WARM, i + BATCH));
    db.pragma('wal_checkpoint(TRUNCATE)');
    const from = walSize(path);
    const started = cpuMs();
    for (let i = WARM; i < WARM + MEASURED; i += BATCH) batch(i, Math.min(WARM + MEASURED, i + BATCH));
    const total = cpuMs() - started;
    return { ...perOrder(framesByTree(db, path, from)), cpuMsPerOrder: round(total / MEASURED, 4) };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const engine = await engineRun();
  console.log(`engine: ${JSON.stringify(engine)}`);
  const floor = floorRun();
  console.log(`floor: ${JSON.stringify(floor)}`);
  console.log(
    JSON.stringify({
      batchSize: BATCH,
      warmOrders: WARM,
      sourceOrders: MEASURED,
      framesPerOrder: engine.framesPerOrder,
      floorFramesPerOrder: floor.framesPerOrder,
      cpuMsPerOrder: engine.cpuMsPerOrder,
      statementsCpuMsPerOrder: engine.statementsCpuMsPerOrder,
      commitCpuMsPerOrder: engine.commitCpuMsPerOrder,
      restCpuMsPerOrder: engine.restCpuMsPerOrder,
      floorCpuMsPerOrder: floor.cpuMsPerOrder,
    }),
  );
}

void main();
