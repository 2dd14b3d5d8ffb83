import { createHash } from 'node:crypto';
import { RANKING_KEYS, STATISTIC_NUMERIC_FIELDS, type FullRanking } from '../../shared/api/statistics';
import type { StatisticValues } from '../analytics/statistics';
import type { Window } from '../analytics/windows';
import type { ServiceDb } from '../store/database';
import { currentGeneration } from '../store/statistics';
import { expireOldPits } from './point-in-time';
import { storeGenerationJson, storeStatisticJson } from './stored-json';
import { prepareCached } from '../../node/sqlite';

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
  const insert = prepareCached(db, INSERT);
  // By the primary key's prefix: a record's first version holds its creation time.
  const createdAt = prepareCached(
    db,
    'SELECT created_at_ms FROM statistics WHERE protocol = ? AND type = ? AND id = ? ORDER BY gen_from LIMIT 1',
    'pluck',
  );
  return db.transaction(() => {
    const next = currentGeneration(db) + 1;
    retireRows(db, retire, next);
    for (const r of records) {
      const id = statisticId(r.account, r.protocol, r.type);
      insert.run(
        ...rowValues(
          r,
          id,
          next,
          (createdAt.get(r.protocol, r.type, id) as number | undefined) ?? nowMs,
          nowMs,
        ),
      );
      if (retire !== 'all') storeStatisticJson(db, { protocol: r.protocol, type: r.type, id, genFrom: next });
    }
    // A recompute writes every row: one statement over the generation renders them faster than
    // one per row (docs/service.md). A live update writes a few rows, which are rendered by key.
    if (retire === 'all') storeGenerationJson(db, next);
    prepareCached(db, "UPDATE meta SET value = ? WHERE key = 'statistics_generation'").run(String(next));
    expireOldPits(db, nowMs);
    return next;
  })();
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
