import type { GraphqlSearchBody } from '../../shared/api/graphql';
import type { PageMeta } from '../../shared/api/common';
import { compileConditions, compileSort, type Sql } from '../store/conditions';
import type { ServiceDb } from '../store/database';
import { prepareCached } from '../../node/sqlite';
import type { DataSet } from './datasets';
import { searchPopulations, type RecordRef } from '../../shared/statistics-index';
import { indexConditions, indexSort } from '../statistics/index/index-conditions';
import { storedRowsText } from '../statistics/queries/render-rows';
import { statisticsIndexOf } from '../statistics/index/statistics-index';

/** One search: the client's body, and conditions the query itself adds (protocols, OPEN only). */
export interface SearchRequest {
  body: GraphqlSearchBody;
  implied: Sql[];
}

/** The two statements of a search, every value a bound parameter. */
export interface SearchSql {
  count: Sql;
  page: Sql;
}

/** A page as the four queries answer it. */
export interface SearchPage {
  data: Record<string, unknown>[];
  meta: PageMeta;
}

/**
 * Compiles a search to SQL. Column names come only from the data set's field map (an unknown
 * field is a 400-style error naming it); values are always parameters.
 */
export function compileSearch(set: DataSet, request: SearchRequest): SearchSql {
  const { filter, sorts, paging } = request.body;
  const client = compileConditions(set.fields, filter.and, 'body.filter.and');
  const where = joinAnd([{ sql: set.always, params: [] }, ...request.implied, client]);
  const from = `FROM ${set.table} WHERE ${where.sql}`;
  const order = compileSort(set.fields, sorts.length > 0 ? sorts : [set.defaultSort], 'body.sorts');
  const orderBy = set.tieBreak ? `${order}, ${set.tieBreak}` : order;
  return {
    count: { sql: `SELECT COUNT(*) AS n ${from}`, params: where.params },
    // Only the key columns travel through the sort; the page's rows are fetched afterwards.
    page: {
      sql: `SELECT ${set.key.join(', ')} ${from} ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
      params: [...where.params, paging.size, paging.from],
    },
  };
}

/** Runs a search: its page of items and `meta` (limit = paging.size, offset = paging.from). */
export function runSearch(db: ServiceDb, set: DataSet, request: SearchRequest): SearchPage {
  if (set.kind === 'position_statistics' && request.implied.length === 0)
    return searchStatistics(db, set, request);
  const { count, page } = compileSearch(set, request);
  const total = (prepareCached(db, count.sql).get(...count.params) as { n: number }).n;
  const keys = prepareCached(db, page.sql).all(...page.params) as Record<string, unknown>[];
  const rows = rowsOfKeys(db, set, keys);
  const { size, from } = request.body.paging;
  return {
    data: rows.map((row) => set.toItem(row)),
    meta: { total, limit: size, offset: from, totalPages: Math.ceil(total / size) },
  };
}

/**
 * `searchPositionStatistic` through the columnar statistics index (docs/statistics.md): the same
 * condition grammar, checks and order as the SQL (sorts, then id, protocol and window), then the
 * page's records from their stored JSON.
 */
function searchStatistics(db: ServiceDb, set: DataSet, request: SearchRequest): SearchPage {
  const { refs, meta } = searchStatisticRefs(db, set, request);
  return {
    // Each record's stored JSON is its wire form (statisticToWire; stored-json.ts): parsing it
    // costs less than reading the full row and converting it.
    data: storedRowsText(db, refs).map((text) => JSON.parse(text) as Record<string, unknown>),
    meta,
  };
}

/**
 * The index's answer to a statistics search, before any record is read: the page's records and
 * its `meta` (the plain-field answer, plain-search.ts, reads only the fields it selects).
 */
export function searchStatisticRefs(
  db: ServiceDb,
  set: DataSet,
  request: SearchRequest,
): { refs: RecordRef[]; meta: PageMeta } {
  const { filter, sorts, paging } = request.body;
  const conditions = indexConditions(filter.and, 'body.filter.and');
  const sort = indexSort(sorts.length > 0 ? sorts : [set.defaultSort], 'body.sorts');
  const page = searchPopulations(statisticsIndexOf(db).current().all(), {
    conditions,
    sort,
    offset: paging.from,
    limit: paging.size,
  });
  return {
    refs: page.refs,
    meta: {
      total: page.total,
      limit: paging.size,
      offset: paging.from,
      totalPages: Math.ceil(page.total / paging.size),
    },
  };
}

/** The full rows of a page's keys, in the keys' order. */
function rowsOfKeys(db: ServiceDb, set: DataSet, keys: Record<string, unknown>[]): Record<string, unknown>[] {
  if (keys.length === 0) return [];
  const tuple = `(${set.key.join(', ')})`;
  const placeholders = keys.map(() => `(${set.key.map(() => '?').join(', ')})`).join(', ');
  const sql = `SELECT * FROM ${set.table} WHERE ${set.always} AND ${tuple} IN (VALUES ${placeholders})`;
  const rows = prepareCached(db, sql).all(...keys.flatMap((k) => set.key.map((c) => k[c]))) as Record<
    string,
    unknown
  >[];
  const keyOf = (r: Record<string, unknown>) => set.key.map((c) => String(r[c])).join('|');
  const byKey = new Map(rows.map((r) => [keyOf(r), r]));
  return keys.map((k) => byKey.get(keyOf(k)) as Record<string, unknown>);
}

/** Joins fragments with AND, keeping their parameters in order; always-true `1`s are left out. */
export function joinAnd(parts: readonly Sql[]): Sql {
  const kept = parts.filter((p) => p.sql !== '1');
  return {
    sql: kept.length > 0 ? kept.map((p) => `(${p.sql})`).join(' AND ') : '1',
    params: kept.flatMap((p) => p.params),
  };
}
