// The demo world in the store: thousands of traders' positions and orders over months, the mark
// prices at the end, then every statistic record. Built to take seconds, not minutes.
import type { ServiceDb } from '../../store/database';
import { recomputeAll } from '../../statistics/compute/recompute';
import { undoUnfinishedGeneration, type ChunkedWrite } from '../../statistics/store/writer';
import { readMeta, writeMeta } from '../../store/meta';
import { seedTokenCatalogue } from '../token-listing';
import { rowInserters, suspendIndexes } from './bulk-insert';
import type { PositionSink } from './trader';
import { buildWorld, forEachPosition, type World } from './world';

/** The phases of seeding, in order. */
export type SeedPhase = 'prices' | 'positions' | 'indexes' | 'statistics' | 'done';

/** Where seeding is: `done` of `total` units of the phase (traders for `positions`). */
export interface SeedProgress {
  phase: SeedPhase;
  done: number;
  total: number;
}

/** Options of the demo world; the same seed and nowMs give identical rows. */
export interface SeedDemoOptions {
  seed: number;
  nowMs: number;
  /** Traders in the world (default 5,000). */
  traders?: number;
  /** Days of history before nowMs (default 120). */
  days?: number;
  /** Called at each phase's start and end and a few times per second in between. */
  onProgress?: (progress: SeedProgress) => void;
  /** Skip the statistics recompute (tests of the rows alone). */
  skipStatistics?: boolean;
  /**
   * Commit every CHUNK_MS instead of in one transaction, so that another connection to the file
   * (the service answering logins while a worker thread seeds: docs/service.md, Listening while
   * preparing) never waits long for the write lock. A seeding cut short is undone at the next one.
   */
  chunked?: boolean;
  /** The longest a chunked seeding holds the write lock between commits (default CHUNK_MS; tests: less, for more commits). */
  chunkMs?: number;
}

/** What was written, and how long each part took. */
export interface SeedDemoResult {
  traders: number;
  positions: number;
  openPositions: number;
  orders: number;
  liquidations: number;
  records: number;
  timings: { worldMs: number; writeMs: number; statisticsMs: number; totalMs: number };
}

/** The demo world's default size: 5,000 traders over the 120 days before now. */
export const DEMO_WORLD = { traders: 5_000, days: 120 } as const;

/** Progress calls at most every 200 ms, except phase starts and ends. */
const PROGRESS_INTERVAL_MS = 200;

/**
 * Seeds the demo world into a store without positions and computes its statistics; returns null
 * (and writes nothing) when the store already has positions.
 */
export function seedDemoWorld(db: ServiceDb, options: SeedDemoOptions): SeedDemoResult | null {
  undoInterruptedSeeding(db);
  if (db.prepare('SELECT 1 FROM positions LIMIT 1').get() !== undefined) return null;
  const clock = performance.now();
  const report = throttled(options.onProgress);
  seedTokenCatalogue(db);
  slowSeedingForTests(report);
  report({ phase: 'prices', done: 0, total: 1 }, true);
  const world = buildWorld({
    seed: options.seed,
    nowMs: options.nowMs,
    traders: options.traders ?? DEMO_WORLD.traders,
    days: options.days ?? DEMO_WORLD.days,
  });
  report({ phase: 'prices', done: 1, total: 1 }, true);
  const worldMs = performance.now() - clock;
  const chunkMs = options.chunkMs ?? CHUNK_MS;
  const counts = options.chunked
    ? writeWorldInChunks(db, world, report, chunkMs)
    : writeWorld(db, world, report);
  const writeMs = performance.now() - clock - worldMs;
  report({ phase: 'statistics', done: 0, total: 1 }, true);
  const clearMark = () => db.prepare('DELETE FROM meta WHERE key = ?').run(SEEDING_MARK);
  // Chunked, the records commit in short transactions too (a first start's preparation, when no
  // one reads statistics), the mark cleared in the last one: a seeding killed before it is undone.
  const chunks: ChunkedWrite | undefined = options.chunked
    ? {
        chunkMs,
        onCommit: (done, total) => report({ phase: 'statistics', done, total }, true),
        onLastTransaction: clearMark,
      }
    : undefined;
  const records = options.skipStatistics ? 0 : recomputeAll(db, options.nowMs, chunks).records;
  report({ phase: 'statistics', done: 1, total: 1 }, true);
  clearMark();
  report({ phase: 'done', done: 1, total: 1 }, true);
  const totalMs = performance.now() - clock;
  return {
    traders: world.traders.length,
    ...counts,
    records,
    timings: { worldMs, writeMs, statisticsMs: totalMs - worldMs - writeMs, totalMs },
  };
}

/**
 * Writes every position and order and the final mark prices in one transaction, with the
 * positions' and orders' indexes rebuilt at the end: all or nothing, and about twice as fast as
 * updating seven indexes on every row.
 */
/** Inserts a position with its orders and counts what was written. */
function positionWriter(db: ServiceDb) {
  const counts = { positions: 0, openPositions: 0, orders: 0, liquidations: 0 };
  const insert = rowInserters(db);
  const write: PositionSink = (position, orders) => {
    insert.position(position.toRow());
    for (const order of orders) insert.order(order);
    counts.positions += 1;
    counts.orders += orders.length;
    if (position.closeTimeMs === null) counts.openPositions += 1;
    if (position.isLiquidate) counts.liquidations += 1;
  };
  return { counts, write };
}

function writeWorld(db: ServiceDb, world: World, report: Reporter) {
  const { counts, write } = positionWriter(db);
  db.transaction(() => {
    const restoreIndexes = suspendIndexes(db, ['positions', 'orders']);
    forEachPosition(world, write, (done, total) =>
      report({ phase: 'positions', done, total }, done === total),
    );
    writeMarkPrices(db, world);
    report({ phase: 'indexes', done: 0, total: 1 }, true);
    restoreIndexes((done, total) => report({ phase: 'indexes', done, total }, true));
  })();
  return counts;
}

/** The meta key a chunked seeding holds while under way: the indexes it dropped, as JSON. */
const SEEDING_MARK = 'demo_world_seeding';
/** The longest a chunked seeding holds the write lock between two commits (index builds aside). */
const CHUNK_MS = 100;

/**
 * writeWorld in short transactions: the indexes dropped first (their SQL kept in SEEDING_MARK, so
 * that a seeding cut short can put them back), rows committed every CHUNK_MS, then each index
 * rebuilt in a statement of its own.
 */
function writeWorldInChunks(db: ServiceDb, world: World, report: Reporter, chunkMs: number) {
  const { counts, write } = positionWriter(db);
  db.exec('BEGIN IMMEDIATE');
  try {
    writeMeta(db, SEEDING_MARK, JSON.stringify(indexesOf(db)));
    const restoreIndexes = suspendIndexes(db, ['positions', 'orders']);
    let since = performance.now();
    forEachPosition(world, write, (done, total) => {
      report({ phase: 'positions', done, total }, done === total);
      if (performance.now() - since < chunkMs) return;
      db.exec('COMMIT');
      db.exec('BEGIN IMMEDIATE');
      since = performance.now();
    });
    writeMarkPrices(db, world);
    db.exec('COMMIT');
    report({ phase: 'indexes', done: 0, total: 1 }, true);
    restoreIndexes((done, total) => report({ phase: 'indexes', done, total }, true));
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
  return counts;
}

type StoredIndex = { name: string; sql: string };

function indexesOf(db: ServiceDb): StoredIndex[] {
  return db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
       AND tbl_name IN ('positions', 'orders') ORDER BY name`,
    )
    .all() as StoredIndex[];
}

/**
 * Undoes a chunked seeding that was cut short (the process killed half-way): its rows go (the
 * statistics records of an unfinished generation too), its dropped indexes come back, all in one
 * transaction, so that the next seeding starts clean.
 * Returns whether there was one to undo.
 */
export function undoInterruptedSeeding(db: ServiceDb): boolean {
  const mark = readMeta(db, SEEDING_MARK);
  if (mark === null) return false;
  const indexes = JSON.parse(mark) as StoredIndex[];
  db.transaction(() => {
    db.exec('DELETE FROM orders; DELETE FROM positions; DELETE FROM mark_prices;');
    undoUnfinishedGeneration(db);
    const present = new Set(indexesOf(db).map((index) => index.name));
    for (const index of indexes) if (!present.has(index.name)) db.exec(index.sql);
    db.prepare('DELETE FROM meta WHERE key = ?').run(SEEDING_MARK);
  })();
  return true;
}

/** Whether a chunked seeding was cut short and waits to be undone. */
export const seedingInterrupted = (db: ServiceDb): boolean => readMeta(db, SEEDING_MARK) !== null;

/** Every listed token's mark price: the last value of its symbol's path, stamped now. */
function writeMarkPrices(db: ServiceDb, world: World): void {
  const upsert = db.prepare(
    `INSERT INTO mark_prices (index_token, price, time_ms) VALUES (?, ?, ?)
     ON CONFLICT(index_token) DO UPDATE SET price = excluded.price, time_ms = excluded.time_ms`,
  );
  for (const market of world.markets)
    for (const token of market.tokens) {
      const path = world.paths.get(token.symbol);
      if (path) upsert.run(token.indexToken, path.lastPrice, world.nowMs);
    }
}

type Reporter = (progress: SeedProgress, force?: boolean) => void;

/**
 * Test hook (docs/ui.md, First start): `COPYDESK_TEST_SLOW_SEED_MS` makes seeding that much
 * slower, as on a busy machine, blocking like the real work does (in the service's preparing
 * worker thread: docs/service.md, Listening while preparing) and reporting progress as it goes,
 * so that a first start can be watched for longer than any timeout. Read only here.
 */
export const SLOW_SEED_ENV = 'COPYDESK_TEST_SLOW_SEED_MS';
const SLOW_SEED_STEPS = 20;

function slowSeedingForTests(report: Reporter): void {
  const totalMs = Number(process.env[SLOW_SEED_ENV] ?? 0);
  if (!Number.isFinite(totalMs) || totalMs <= 0) return;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let step = 0; step < SLOW_SEED_STEPS; step += 1) {
    report({ phase: 'prices', done: step, total: SLOW_SEED_STEPS }, true);
    Atomics.wait(pause, 0, 0, totalMs / SLOW_SEED_STEPS);
  }
}

/** A progress callback that fires at most every PROGRESS_INTERVAL_MS unless forced. */
function throttled(onProgress: SeedDemoOptions['onProgress']): Reporter {
  let last = -Infinity;
  return (progress, force = false) => {
    if (!onProgress) return;
    const now = performance.now();
    if (!force && now - last < PROGRESS_INTERVAL_MS) return;
    last = now;
    onProgress(progress);
  };
}
