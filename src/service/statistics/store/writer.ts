import { createHash } from 'node:crypto';
import { RANKING_KEYS, STATISTIC_NUMERIC_FIELDS, type FullRanking } from '../../../shared/api/statistics';
import type { StatisticValues } from '../formulas/statistics';
import type { Window } from '../formulas/windows';
import type { ServiceDb } from '../../store/database';
import { currentGeneration } from './statistic-rows';
import { expireOldPits } from '../queries/point-in-time';
import { storeGenerationJson, storePopulationJson, storeStatisticJson } from './stored-json';
import { prepareCached } from '../../../node/sqlite';

/** One computed record ready to store. */
export interface RecordToStore {
  account: string;
  protocol: string;
  type: Window;
  values: StatisticValues;
  ranking: FullRanking;
}

/** A record's id is stable across recomputes: the same trader, protocol and window keep it. */
export const statisticId = (account: string, protocol: string, type: Window): string =>
  createHash('sha256').update(`${protocol}|${account.toLowerCase()}|${type}`).digest('hex').slice(0, 24);

/** The numeric columns of a statistics row, in insert order: the contract's fields, then unrealisedPnl. */
export const STATISTIC_NUMERIC_COLUMNS: readonly string[] = [...STATISTIC_NUMERIC_FIELDS, 'unrealisedPnl'];
/** The columns between the rankings and the timestamps; each has a default in the table. */
const DESCRIPTIVE_COLUMNS = ['index_tokens', 'pairs', 'is_open_position'] as const;

/**
 * The INSERT of one statistics row: id, account, protocol, type, gen_from, the numeric columns,
 * the rankings, then `descriptive` (by default index_tokens, pairs and is_open_position), then
 * last_trade_at_ms, statistic_at_ms, created_at_ms and updated_at_ms; run it with the values in that order.
 */
export function statisticInsertSql(descriptive: readonly string[] = DESCRIPTIVE_COLUMNS): string {
  const columns = [
    'id',
    'account',
    'protocol',
    'type',
    'gen_from',
    ...STATISTIC_NUMERIC_COLUMNS.map((c) => `"${c}"`),
    ...RANKING_KEYS.map((k) => `"rk_${k}"`),
    ...descriptive,
    'last_trade_at_ms',
    'statistic_at_ms',
    'created_at_ms',
    'updated_at_ms',
  ];
  return `INSERT INTO statistics (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
}
const INSERT = statisticInsertSql();

/** Which current rows a new generation replaces. */
export type Retire = 'all' | { protocol: string; type: Window }[] | { protocol: string; account: string };

/**
 * Replaces the current records that `retire` names with `records` as a new generation, in one
 * transaction: rows that a point in time still sees are retired, not deleted, so search-after
 * keeps its snapshot (docs/api.md). Each new row's API JSON is stored with it, for
 * search-after (stored-json.ts). Returns the new generation.
 */
export function writeGeneration(
  db: ServiceDb,
  retire: Retire,
  records: RecordToStore[],
  nowMs: number,
): number {
  const insert = recordInserter(db, nowMs);
  return db.transaction(() => {
    const next = currentGeneration(db) + 1;
    retireRows(db, retire, next);
    for (const r of records) {
      insert(r, next);
      if (retire !== 'all')
        storeStatisticJson(db, {
          protocol: r.protocol,
          type: r.type,
          id: statisticId(r.account, r.protocol, r.type),
          genFrom: next,
        });
    }
    // A recompute writes every row: one statement over the generation renders them faster than
    // one per row (docs/service.md). A live update writes a few rows, which are rendered by key.
    if (retire === 'all') storeGenerationJson(db, next);
    finishGeneration(db, next, nowMs);
    return next;
  })();
}

/** How a chunked write commits: after each `chunkMs` of writing, telling `onCommit` how far it is. */
export interface ChunkedWrite {
  chunkMs: number;
  /** Called after each commit but the last, outside any transaction: `done` of `total` steps (records, then populations' JSON). */
  onCommit?: (done: number, total: number) => void;
  /** Run inside the last transaction: what marks the caller's work finished commits with the generation. */
  onLastTransaction?: () => void;
}

/**
 * writeGeneration(db, 'all', …) in short transactions, for a first start's preparation only
 * (docs/service.md, Listening while preparing): nobody reads statistics then, so the new rows may
 * be committed a chunk at a time, leaving SQLite's write lock free between chunks for a login.
 * The generation counter moves in the last transaction, so until then the committed rows belong
 * to an unfinished generation, which undoUnfinishedGeneration removes. Any other recompute keeps
 * writeGeneration's one transaction: readers see the old generation or the new one, whole.
 */
export function writeGenerationInChunks(
  db: ServiceDb,
  records: RecordToStore[],
  nowMs: number,
  chunks: ChunkedWrite,
): number {
  const insert = recordInserter(db, nowMs);
  const next = currentGeneration(db) + 1;
  const populations = new Map<string, { protocol: string; type: string }>();
  for (const r of records) populations.set(`${r.protocol}|${r.type}`, { protocol: r.protocol, type: r.type });
  // Records, then their JSON a population at a time: the table has no rowid to find one chunk's
  // rows by, and a population's rows are one range of its primary key.
  const steps = [
    ...records.map((r) => () => insert(r, next)),
    ...[...populations.values()].map((p) => () => storePopulationJson(db, next, p)),
  ];
  db.exec('BEGIN IMMEDIATE');
  try {
    retireRows(db, 'all', next);
    let since = performance.now();
    for (let i = 0; i < steps.length; i += 1) {
      steps[i]!();
      if (performance.now() - since < chunks.chunkMs || i === steps.length - 1) continue;
      db.exec('COMMIT');
      chunks.onCommit?.(i + 1, steps.length);
      db.exec('BEGIN IMMEDIATE');
      since = performance.now();
    }
    finishGeneration(db, next, nowMs);
    chunks.onLastTransaction?.();
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
  return next;
}

/**
 * Removes what an unfinished chunked write left (a preparation killed inside it): the rows and
 * JSON of the generation after the current one, and the retirement of the rows it replaced.
 * Only a chunked write commits rows ahead of the counter, so this touches nothing else.
 * Run it inside a transaction; returns the rows removed.
 */
export function undoUnfinishedGeneration(db: ServiceDb): number {
  const next = currentGeneration(db) + 1;
  db.prepare('DELETE FROM statistic_json WHERE gen_from = ?').run(next);
  const removed = db.prepare('DELETE FROM statistics WHERE gen_from = ?').run(next).changes;
  db.prepare('UPDATE statistics SET gen_to = NULL WHERE gen_to = ?').run(next);
  return removed;
}

/**
 * Inserts one record as a row of `generation`, keeping its first version's creation time (the
 * primary key's prefix finds it).
 */
function recordInserter(db: ServiceDb, nowMs: number) {
  const insert = prepareCached(db, INSERT);
  const createdAt = prepareCached(
    db,
    'SELECT created_at_ms FROM statistics WHERE protocol = ? AND type = ? AND id = ? ORDER BY gen_from LIMIT 1',
    'pluck',
  );
  return (r: RecordToStore, generation: number): void => {
    const id = statisticId(r.account, r.protocol, r.type);
    const created = (createdAt.get(r.protocol, r.type, id) as number | undefined) ?? nowMs;
    insert.run(...rowValues(r, id, generation, created, nowMs));
  };
}

/** Makes `generation` the one new readers see, and forgets what no point in time sees any more. */
function finishGeneration(db: ServiceDb, generation: number, nowMs: number): void {
  prepareCached(db, "UPDATE meta SET value = ? WHERE key = 'statistics_generation'").run(String(generation));
  expireOldPits(db, nowMs);
}

/**
 * Retires one trader's current rows. Pinned to the (account, protocol) index: without table
 * statistics SQLite picks the primary key's protocol prefix and walks every row of the protocol,
 * which a feed recomputing 1,000 accounts paid on each of them (~7 % of its ingest CPU).
 */
export const RETIRE_TRADER_SQL =
  'UPDATE statistics INDEXED BY statistics_account SET gen_to = ? WHERE account = ? AND protocol = ? AND gen_to IS NULL';

function retireRows(db: ServiceDb, retire: Retire, generation: number): void {
  if (retire === 'all') {
    prepareCached(db, 'UPDATE statistics SET gen_to = ? WHERE gen_to IS NULL').run(generation);
  } else if (Array.isArray(retire)) {
    const statement = prepareCached(
      db,
      'UPDATE statistics SET gen_to = ? WHERE protocol = ? AND type = ? AND gen_to IS NULL',
    );
    for (const p of retire) statement.run(generation, p.protocol, p.type);
  } else {
    prepareCached(db, RETIRE_TRADER_SQL).run(generation, retire.account, retire.protocol);
  }
}

function rowValues(
  r: RecordToStore,
  id: string,
  generation: number,
  createdAtMs: number,
  nowMs: number,
): unknown[] {
  const v = r.values as unknown as Record<string, unknown>;
  return [
    id,
    r.account,
    r.protocol,
    r.type,
    generation,
    ...STATISTIC_NUMERIC_COLUMNS.map((c) => (v[c] ?? null) as number | null),
    ...RANKING_KEYS.map((k) => r.ranking[k]),
    JSON.stringify(r.values.indexTokens),
    JSON.stringify(r.values.pairs),
    r.values.isOpenPosition ? 1 : 0,
    r.values.lastTradeAtTs,
    Date.parse(r.values.statisticAt),
    createdAtMs,
    nowMs,
  ];
}
