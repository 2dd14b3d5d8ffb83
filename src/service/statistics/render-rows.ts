import type { RecordRef } from '../../shared/statistics-index';
import { prepareCached } from '../../node/sqlite';
import type { ServiceDb } from '../store/database';
import { CURRENT_ROWS } from '../store/statistics';
import { statisticJsonSql } from './json-rows';
import { GEN_FROM_COLUMN } from './statistics-index';
import { pageWithStoredJson } from './stored-json';

/** The keys of a page as one JSON parameter: one statement text whatever the page's length. */
const keysParam = (refs: readonly RecordRef[], withGeneration: boolean): string =>
  JSON.stringify(
    refs.map(({ population, row }) => [
      population.constant('protocol'),
      population.constant('type'),
      population.tie(row),
      ...(withGeneration ? [population.number(GEN_FROM_COLUMN)[row]] : []),
    ]),
  );

const PAGE_KEYS = `SELECT key AS at, json_extract(value, '$[0]') AS k_protocol,
  json_extract(value, '$[1]') AS k_type, json_extract(value, '$[2]') AS k_id FROM json_each(?)`;

/**
 * The API JSON of current records found by the index, in the page's order, rendered by SQLite
 * from each row as the SQL filters did (with the ranking for the public filter).
 */
export function currentRowsJson(db: ServiceDb, refs: readonly RecordRef[], withRanking: boolean): string[] {
  if (refs.length === 0) return [];
  return prepareCached(
    db,
    `WITH page AS (${PAGE_KEYS}) SELECT ${statisticJsonSql(withRanking)} FROM page JOIN statistics
       ON protocol = k_protocol AND type = k_type AND id = k_id AND ${CURRENT_ROWS} ORDER BY at`,
    'pluck',
  ).all(keysParam(refs, false)) as string[];
}

/** The full `statistics` rows of current records found by the index, in the page's order. */
export function currentRows(db: ServiceDb, refs: readonly RecordRef[]): Record<string, unknown>[] {
  if (refs.length === 0) return [];
  return prepareCached(
    db,
    `WITH page AS (${PAGE_KEYS}) SELECT statistics.* FROM page JOIN statistics
       ON protocol = k_protocol AND type = k_type AND id = k_id AND ${CURRENT_ROWS} ORDER BY at`,
  ).all(keysParam(refs, false)) as Record<string, unknown>[];
}

/**
 * The stored JSON (UTF-8 bytes) of records of any generation a point in time still sees, found
 * by their full key, in the page's order (stored-json.ts).
 */
export function storedRowsJson(db: ServiceDb, refs: readonly RecordRef[]): Uint8Array[] {
  if (refs.length === 0) return [];
  const page = `SELECT key AS at, json_extract(value, '$[0]') AS protocol, json_extract(value, '$[1]') AS type,
    json_extract(value, '$[2]') AS id, json_extract(value, '$[3]') AS gen_from FROM json_each(?)`;
  return prepareCached(db, pageWithStoredJson(page, ['at'], 'at'), 'pluck').all(
    keysParam(refs, true),
  ) as Uint8Array[];
}
