import { prepareCached } from '../../../node/sqlite';
import type { ServiceDb } from '../../store/database';
import { statisticJsonSql } from './json-rows';

/**
 * Each statistics row's API JSON (no ranking), rendered once when the row is written, in the
 * side table `statistic_json` keyed like `statistics`. Search-after batches read this text:
 * rendering 1,000 records per batch cost ~7–9.5 ms of CPU, reading them ~1.5 ms (docs/service.md).
 * The rows' ranking columns change in place, which is why the ranking is not stored here.
 */

/**
 * The table, keyed exactly like the `statistics` primary key (migration 6). A rowid table, not
 * WITHOUT ROWID: a text of ~1.4 KB does not fit in a WITHOUT ROWID (index) page's ~1 KB of local
 * payload, and reading its overflow pages made a batch slower than rendering it afresh.
 */
export const STATISTIC_JSON_TABLE_SQL = `
  CREATE TABLE statistic_json (
    protocol TEXT NOT NULL,
    type TEXT NOT NULL,
    id TEXT NOT NULL,
    gen_from INTEGER NOT NULL,
    json TEXT NOT NULL,
    PRIMARY KEY (protocol, type, id, gen_from)
  ) STRICT`;

const RENDER_INTO = `INSERT OR REPLACE INTO statistic_json (protocol, type, id, gen_from, json)
  SELECT protocol, type, id, gen_from, ${statisticJsonSql(false)} FROM statistics`;

/**
 * Renders the JSON of one row just inserted, found by its primary key. By key rather than one
 * statement per generation: `gen_from` has no index, and a live update writes a few rows into a
 * table of hundreds of thousands. OR REPLACE lets a fixture render its rows again.
 */
export function storeStatisticJson(
  db: ServiceDb,
  key: { protocol: string; type: string; id: string; genFrom: number },
): void {
  prepareCached(db, `${RENDER_INTO} WHERE protocol = ? AND type = ? AND id = ? AND gen_from = ?`).run(
    key.protocol,
    key.type,
    key.id,
    key.genFrom,
  );
}

/**
 * Renders the JSON of every row of generation `generation`, in one statement: for a recompute,
 * which writes every row (generations only move forward, so its rows are exactly the ones just
 * inserted), and for fixtures that insert rows directly.
 */
export function storeGenerationJson(db: ServiceDb, generation: number): void {
  prepareCached(db, `${RENDER_INTO} WHERE gen_from = ?`).run(generation);
}

/**
 * Renders the JSON of the rows of `generation` in one population (protocol and window): a chunked
 * recompute's rows a few hundred at a time (writer.ts), found through the primary key's prefix.
 */
export function storePopulationJson(
  db: ServiceDb,
  generation: number,
  population: { protocol: string; type: string },
): void {
  prepareCached(db, `${RENDER_INTO} WHERE protocol = ? AND type = ? AND gen_from = ?`).run(
    population.protocol,
    population.type,
    generation,
  );
}

/** Renders the JSON of every row (the migration that adds the table, and test fixtures). */
export function storeAllStatisticJson(db: ServiceDb): void {
  db.prepare(RENDER_INTO).run();
}

/** Deletes the JSON of the retired rows that `DELETE … gen_to <= ?` is about to delete. */
export function deleteRetiredStatisticJson(db: ServiceDb, keepFrom: number): void {
  prepareCached(
    db,
    `DELETE FROM statistic_json WHERE (protocol, type, id, gen_from) IN
       (SELECT protocol, type, id, gen_from FROM statistics WHERE gen_to IS NOT NULL AND gen_to <= ?)`,
  ).run(keepFrom);
}

/**
 * A page of records as their stored JSON, then `columns`, in `order`. `page` selects
 * `protocol, type, id, gen_from` and `columns` from `statistics`, ordered and limited: the JSON
 * is looked up for the page's rows only, not for every row a sort reads (a search-after without
 * a population's conditions sorts the whole table). Every writer stores a row's JSON with it
 * (writeGeneration, the migration, the test and bench fixtures); should one ever miss, that row
 * is rendered afresh rather than dropped from the batch, which would read as the end of the data
 * (COALESCE evaluates it only when the text is missing, ~0.1 ms a batch).
 * The JSON comes back as its UTF-8 bytes (a BLOB): made into a JavaScript string, then encoded
 * into the answer again, it cost the service a fifth of a batch's CPU (docs/service.md).
 */
export function pageWithStoredJson(page: string, columns: readonly string[], order: string): string {
  return `WITH page AS (${page})
    SELECT CAST(COALESCE(j.json, (SELECT ${statisticJsonSql(false)} FROM statistics AS r
      WHERE r.protocol = page.protocol AND r.type = page.type AND r.id = page.id AND r.gen_from = page.gen_from)) AS BLOB),
      ${columns.join(', ')}
    FROM page LEFT JOIN statistic_json AS j USING (protocol, type, id, gen_from) ORDER BY ${order}`;
}
