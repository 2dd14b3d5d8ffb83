import type { ServiceDb } from '../store/database';
import { prepareCached } from '../../node/sqlite';
import { compileConditions, compileSort, type Condition } from '../store/conditions';
import { statisticFields } from '../store/fields';
import { CURRENT_ROWS } from '../store/statistics';
import { statisticJsonSql } from './json-rows';

/** One page of current statistic records, each already rendered as JSON text. */
export interface StatisticPage {
  rows: string[];
  total: number;
}

export interface StatisticQuery {
  protocol: string;
  /** Conditions by the body part they came from, so an error names it (`queries`, `ranges`). */
  conditions: { from: string; list: Condition[] }[];
  sort: { field: string; direction: 'asc' | 'desc' };
  limit: number;
  offset: number;
  withRanking: boolean;
}

/**
 * Filters, sorts and pages the current records of one protocol (the REST statistic filters).
 * Two steps: the page's keys in order (the sort only carries keys), then the page's rows as JSON.
 */
export function filterStatistics(db: ServiceDb, query: StatisticQuery): StatisticPage {
  const parts = query.conditions.map((group) => compileConditions(statisticFields, group.list, group.from));
  const where = `WHERE protocol = ? AND ${CURRENT_ROWS} ${parts.map((p) => `AND ${p.sql}`).join(' ')}`;
  const params = [query.protocol, ...parts.flatMap((p) => p.params)];
  const total = prepareCached(db, `SELECT COUNT(*) FROM statistics ${where}`, 'pluck').get(
    ...params,
  ) as number;
  const order = compileSort(statisticFields, [query.sort], 'sortBy');
  const keys = prepareCached(
    db,
    `SELECT type, id FROM statistics ${where} ORDER BY ${order} LIMIT ? OFFSET ?`,
  ).all(...params, query.limit, query.offset) as { type: string; id: string }[];
  if (keys.length === 0) return { rows: [], total };
  const json = prepareCached(
    db,
    `SELECT type, id, ${statisticJsonSql(query.withRanking)} AS j FROM statistics
     WHERE protocol = ? AND ${CURRENT_ROWS} AND (type, id) IN (${keys.map(() => '(?, ?)').join(', ')})`,
  ).all(query.protocol, ...keys.flatMap((k) => [k.type, k.id])) as { type: string; id: string; j: string }[];
  const byKey = new Map(json.map((r) => [`${r.type}|${r.id}`, r.j]));
  return { rows: keys.map((k) => byKey.get(`${k.type}|${k.id}`) as string), total };
}

/** Every current record of one trader on one protocol, keyed by window, with its ranking, as JSON text. */
export function traderStatisticsJson(db: ServiceDb, protocol: string, account: string): string | null {
  const rows = db
    .prepare(
      `SELECT type, ${statisticJsonSql(true)} AS j FROM statistics WHERE account = ? AND protocol = ? AND ${CURRENT_ROWS}`,
    )
    .all(account, protocol) as { type: string; j: string }[];
  if (rows.length === 0) return null;
  return `{${rows.map((r) => `${JSON.stringify(r.type)}:${r.j}`).join(',')}}`;
}
