import type { RecordRef } from '../../../shared/statistics-index';
import { prepareCached } from '../../../node/sqlite';
import type { ServiceDb } from '../../store/database';
import { RANKING_KEYS } from '../../../shared/api/statistics';
import { GEN_FROM_COLUMN } from '../index/statistics-index';
import { pageWithStoredJson } from '../store/stored-json';

/** The keys of a page as one JSON parameter: one statement text whatever the page's length. */
const keysParam = (refs: readonly RecordRef[], withGeneration: boolean): string =>
  JSON.stringify(
    refs.map(({ population, row }) => [
      population.constant('protocol'),
      population.constant('type'),
      population.tie(row),
      ...(withGeneration ? [population.number(GEN_FROM_COLUMN).at(row)] : []),
    ]),
  );

/**
 * The API JSON of current records found by the index, in the page's order: each record's stored
 * JSON (stored-json.ts), with the public filter's `ranking` object written from the index's
 * ranking columns. Rendering 20 records with SQLite's json_object cost more CPU than the whole
 * index search (docs/statistics.md, "The columnar index").
 */
export function currentRowsJson(db: ServiceDb, refs: readonly RecordRef[], withRanking: boolean): string[] {
  if (refs.length === 0) return [];
  const texts = storedRowsJson(db, refs).map((bytes) => Buffer.from(bytes).toString('utf8'));
  if (!withRanking) return texts;
  return texts.map((text, i) => `${text.slice(0, -1)},"ranking":${rankingJson(refs[i] as RecordRef)}}`);
}

/** `{"avgDuration":…,…}` in the order of RANKING_KEYS, a missing percentile as null (as SQL wrote it). */
function rankingJson({ population, row }: RecordRef): string {
  let out = '{';
  for (let k = 0; k < RANKING_FIELDS.length; k += 1) {
    const value = population.number(RANKING_FIELDS[k] as string).at(row);
    out += `${k > 0 ? ',' : ''}"${RANKING_KEYS[k] as string}":${Number.isNaN(value) ? 'null' : JSON.stringify(value)}`;
  }
  return `${out}}`;
}
const RANKING_FIELDS = RANKING_KEYS.map((k) => `ranking.${k}`);

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
