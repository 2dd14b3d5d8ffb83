import type { NumberColumn, Population, RecordRef } from '../../../shared/statistics-index';
import { prepareCached } from '../../../node/sqlite';
import type { ServiceDb } from '../../store/database';
import { RANKING_KEYS } from '../../../shared/api/statistics';
import { GEN_FROM_COLUMN, JSON_ROWID_COLUMN } from '../index/statistics-index';
import { pageWithStoredJson } from '../store/stored-json';
import { statisticJsonSql } from '../store/json-rows';

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
  const texts = storedRowsText(db, refs);
  if (!withRanking) return texts;
  return texts.map((text, i) => `${text.slice(0, -1)},"ranking":${rankingJson(refs[i] as RecordRef)}}`);
}

/**
 * The whole answer `{"data":[…],"meta":…}` of a page as bytes, the same text `pageJson` makes of
 * `currentRowsJson`'s rows. Everything is written into one reused scratch buffer, then copied out
 * once: each record's stored JSON as SQLite's text (a Buffer a row, read as a BLOB, cost more:
 * docs/statistics.md, "The page's own cost"), its closing brace overwritten by the `ranking`
 * when asked, each percentile copied from a table of their JSON bytes.
 */
export function currentPageBuffer(
  db: ServiceDb,
  refs: readonly RecordRef[],
  withRanking: boolean,
  meta: object,
): Buffer {
  // The percentiles first, before SQLite's read takes the cache (gatherPercentiles).
  const percentiles = withRanking ? gatherPercentiles(refs) : null;
  const rows = refs.length === 0 ? [] : storedRowsText(db, refs);
  const tail = `],"meta":${JSON.stringify(meta)}}`;
  // UTF-8 takes at most 3 bytes a UTF-16 unit; a ranking at most RANKING_MOST_BYTES.
  let most = PAGE_HEAD.length + 3 * tail.length + rows.length * (1 + RANKING_KEY.length + RANKING_MOST_BYTES);
  for (const row of rows) most += 3 * row.length;
  if (pageScratch.length < most) pageScratch = Buffer.allocUnsafe(Math.max(most, 2 * pageScratch.length));
  const page = pageScratch;
  let at = page.write(PAGE_HEAD, 0, 'latin1');
  for (let i = 0; i < rows.length; i += 1) {
    if (i > 0) page[at++] = COMMA;
    at += page.write(rows[i] as string, at, 'utf8');
    if (!withRanking) continue;
    // `{…}` becomes `{…,"ranking":{…}}`: the row's closing brace is overwritten.
    page.set(RANKING_KEY, at - 1);
    at = writeRanking(page, at - 1 + RANKING_KEY.length, refs[i] as RecordRef, percentiles as Int32Array, i);
    page[at++] = CLOSE;
  }
  at += page.write(tail, at, 'utf8');
  const out = Buffer.allocUnsafe(at);
  page.copy(out, 0, 0, at);
  return out;
}
const PAGE_HEAD = '{"data":[';
let pageScratch = Buffer.allocUnsafe(128 * 1024);

/**
 * Each record's percentiles in hundredths, RANKING_KEYS.length a record (-1: one that
 * writeRanking writes through the general path). Read in one pass of independent loads: 380
 * codes at random rows of 19 columns are mostly cache misses, and read while the text was being
 * written each waited for the one before (docs/statistics.md, "The page's own cost").
 */
function gatherPercentiles(refs: readonly RecordRef[]): Int32Array {
  const size = refs.length * RANKING_KEYS.length;
  if (gathered.length < size) gathered = new Int32Array(Math.max(size, 2 * gathered.length));
  let n = 0;
  for (const { population, row } of refs) {
    const columns = percentileColumns(population);
    for (let k = 0; k < columns.length; k += 1)
      gathered[n++] = percentileHundredths(columns[k] as PercentileColumn, row);
  }
  return gathered;
}
let gathered = new Int32Array(100 * RANKING_KEYS.length);

/**
 * Writes record `i`'s `ranking` object (the text rankingJson makes) at `at` from its gathered
 * percentiles; answers where it ends.
 */
function writeRanking(
  out: Buffer,
  at: number,
  { population, row }: RecordRef,
  percentiles: Int32Array,
  i: number,
): number {
  const columns = percentileColumns(population);
  const from = i * columns.length;
  for (let k = 0; k < columns.length; k += 1) {
    const prefix = RANKING_PREFIX_BYTES[k] as Uint8Array;
    for (let j = 0; j < prefix.length; j += 1) out[at + j] = prefix[j] as number;
    at += prefix.length;
    const hundredths = percentiles[from + k] as number;
    at =
      hundredths >= 0
        ? writeHundredths(out, at, hundredths)
        : at + out.write(numberJson((columns[k] as PercentileColumn).column.at(row)), at, 'latin1');
  }
  out[at++] = CLOSE;
  return at;
}

/**
 * A ranking column as writePercentile reads it. `step`: the hundredths a code is worth, when the
 * column holds integer codes of a whole number of hundredths (a percentile column is int16 at
 * scale 100, or 10, or 1 when every value is whole: docs/statistics.md, "Narrow columns"); 0
 * for any other form, whose values are decoded.
 */
export interface PercentileColumn {
  column: NumberColumn;
  codes: NumberColumn['codes'];
  step: number;
  nanCode: number;
}

export function percentileColumn(column: NumberColumn): PercentileColumn {
  const { codes, scale, offset, nanCode } = column;
  const integer = codes instanceof Int16Array || codes instanceof Int32Array;
  const step = integer && offset === 0 && 100 % scale === 0 ? 100 / scale : 0;
  return { column, codes, step, nanCode };
}

/**
 * Writes numberJson(column.at(row)) at `at`, as writeRanking does; answers where it ends. A
 * percentile (two decimals, 0–100: docs/statistics.md, "Rankings") is copied from
 * PERCENTILE_BYTES; anything else (a missing value, a value out of 0–100 or with more decimals)
 * takes the general path.
 */
export function writePercentile(out: Buffer, at: number, percentile: PercentileColumn, row: number): number {
  const hundredths = percentileHundredths(percentile, row);
  if (hundredths >= 0) return writeHundredths(out, at, hundredths);
  return at + out.write(numberJson(percentile.column.at(row)), at, 'latin1');
}

/**
 * Record `row`'s percentile in hundredths (0…10,000), from its code without float maths when the
 * column allows; -1 for any other value.
 */
function percentileHundredths(percentile: PercentileColumn, row: number): number {
  let hundredths = -1;
  if (percentile.step > 0) {
    const code = percentile.codes[row] as number;
    if (code !== percentile.nanCode) hundredths = code * percentile.step;
  } else {
    const value = percentile.column.at(row);
    const h = Math.round(value * 100);
    if (h / 100 === value) hundredths = h;
  }
  return hundredths >= 0 && hundredths <= 10_000 ? hundredths : -1;
}

/**
 * Copies the JSON of `hundredths` (0…10,000) to `at`; answers where it ends. Always 5 bytes (the
 * longest, `99.99`), the end moved by the text's own length: a copy whose length depends on the
 * value mispredicts (docs/statistics.md, "The page's own cost"). The caller leaves room for 24.
 */
function writeHundredths(out: Buffer, at: number, hundredths: number): number {
  const from = hundredths * PERCENTILE_STRIDE;
  out[at] = PERCENTILE_BYTES[from] as number;
  out[at + 1] = PERCENTILE_BYTES[from + 1] as number;
  out[at + 2] = PERCENTILE_BYTES[from + 2] as number;
  out[at + 3] = PERCENTILE_BYTES[from + 3] as number;
  out[at + 4] = PERCENTILE_BYTES[from + 4] as number;
  return at + (PERCENTILE_LENGTHS[hundredths] as number);
}

/**
 * The JSON of every percentile 0.00…100.00, made once: k hundredths at k × PERCENTILE_STRIDE,
 * PERCENTILE_LENGTHS[k] bytes.
 */
const PERCENTILE_STRIDE = 8;
const PERCENTILE_LENGTHS = new Uint8Array(10_001);
const PERCENTILE_BYTES = new Uint8Array(10_001 * PERCENTILE_STRIDE);
for (let k = 0; k <= 10_000; k += 1) {
  const text = numberJson(k / 100);
  PERCENTILE_LENGTHS[k] = text.length;
  for (let i = 0; i < text.length; i += 1) PERCENTILE_BYTES[k * PERCENTILE_STRIDE + i] = text.charCodeAt(i);
}
const RANKING_KEY = Buffer.from(',"ranking":', 'latin1');
const COMMA = 0x2c;
const CLOSE = 0x7d;

/** `{"avgDuration":…,…}` in the order of RANKING_KEYS, a missing percentile as null (as SQL wrote it). */
function rankingJson({ population, row }: RecordRef): string {
  const columns = percentileColumns(population);
  let out = '{';
  for (let k = 0; k < columns.length; k += 1) {
    const value = (columns[k] as PercentileColumn).column.at(row);
    out += `${RANKING_PREFIXES[k] as string}${numberJson(value)}`;
  }
  return `${out}}`;
}
/**
 * What JSON.stringify writes for a number (null for NaN, a missing value), made quicker for
 * values of at most two decimals from 0 to 10⁹ (percentiles): the shortest text that reads back
 * as such a double is its two-decimal text without trailing zeros, written from integers. 380
 * percentiles a page took ~0.1 ms through the general conversion.
 */
export function numberJson(value: number): string {
  if (value >= 0 && value < 1e9) {
    const hundredths = Math.round(value * 100);
    if (hundredths / 100 === value) {
      const whole = Math.floor(hundredths / 100);
      const cents = hundredths - whole * 100;
      if (cents === 0) return `${whole}`;
      return cents % 10 === 0 ? `${whole}.${cents / 10}` : `${whole}.${cents < 10 ? '0' : ''}${cents}`;
    }
  }
  return JSON.stringify(value);
}
const RANKING_FIELDS = RANKING_KEYS.map((k) => `ranking.${k}`);
const RANKING_PREFIXES = RANKING_KEYS.map((k, i) => `${i > 0 ? ',' : ''}"${k}":`);
const RANKING_PREFIX_BYTES = RANKING_KEYS.map((k, i) => Buffer.from(`${i > 0 ? ',' : '{'}"${k}":`, 'latin1'));
/** The most a ranking object takes: its keys, 24 characters a number (`-1.2345678901234567e-300`), `}`. */
const RANKING_MOST_BYTES =
  RANKING_PREFIX_BYTES.reduce((sum, b) => sum + b.length, 0) + RANKING_KEYS.length * 24 + 1;

/** A population's ranking columns in RANKING_KEYS order, looked up once (a population never changes). */
function percentileColumns(population: Population): PercentileColumn[] {
  let columns = rankingColumnsOf.get(population);
  if (!columns) {
    columns = RANKING_FIELDS.map((field) => percentileColumn(population.number(field)));
    rankingColumnsOf.set(population, columns);
  }
  return columns;
}
const rankingColumnsOf = new WeakMap<Population, PercentileColumn[]>();

/**
 * The stored JSON (UTF-8 bytes) of records of any generation a point in time still sees, in the
 * page's order (stored-json.ts): for search-after batches, whose bytes go into the answer as
 * they are. A page of at most MAX_BY_ROWID records is read by the rowids the index holds, each
 * checked against the record's generation; should one not be found (JSON written again since its
 * population was read, or none stored), the page is read by full key.
 */
export function storedRowsJson(db: ServiceDb, refs: readonly RecordRef[]): Uint8Array[] {
  if (refs.length === 0) return [];
  if (refs.length <= MAX_BY_ROWID) {
    const rows = byRowidStatement(db, refs.length, true).all(rowidParams(refs)) as Uint8Array[];
    if (rows.length === refs.length) return rows;
  }
  return storedRowsStatement(db).all(keysParam(refs, true)) as Uint8Array[];
}

/**
 * The same records' stored JSON as text, for a page that is written into one buffer (the REST
 * filter) or parsed (GraphQL): SQLite's text is made into a string without the ArrayBuffer a
 * BLOB costs (docs/statistics.md, "The page's own cost").
 */
export function storedRowsText(db: ServiceDb, refs: readonly RecordRef[]): string[] {
  if (refs.length === 0) return [];
  if (refs.length <= MAX_BY_ROWID) {
    const rows = byRowidStatement(db, refs.length, false).all(rowidParams(refs)) as string[];
    if (rows.length === refs.length) return rows;
  }
  const bytes = storedRowsStatement(db).all(keysParam(refs, true)) as Uint8Array[];
  return bytes.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8'));
}

/**
 * Pages longer than this are read by key: a statement per page length is held, and search-after
 * batches (up to thousands of records) are not where a request's time goes.
 */
const MAX_BY_ROWID = 100;

/**
 * Each record's JSON rowid and generation, as the by-rowid statement binds them (a missing rowid
 * as null), in an array held per page length: binding reads it at once, so it is reused.
 */
function rowidParams(refs: readonly RecordRef[]): (number | null)[] {
  let params = rowidParamsOf[refs.length];
  if (!params) rowidParamsOf[refs.length] = params = new Array<number | null>(refs.length * 2);
  for (let i = 0; i < refs.length; i += 1) {
    const { population, row } = refs[i] as RecordRef;
    const [rowids, generations] = rowidColumns(population);
    const rowid = rowids.at(row);
    params[2 * i] = Number.isNaN(rowid) ? null : rowid;
    params[2 * i + 1] = generations.at(row);
  }
  return params;
}
const rowidParamsOf: (number | null)[][] = [];

/** A population's JSON rowid and generation columns, looked up once. */
function rowidColumns(population: Population): [NumberColumn, NumberColumn] {
  let columns = rowidColumnsOf.get(population);
  if (!columns) {
    columns = [population.number(JSON_ROWID_COLUMN), population.number(GEN_FROM_COLUMN)];
    rowidColumnsOf.set(population, columns);
  }
  return columns;
}
const rowidColumnsOf = new WeakMap<Population, [NumberColumn, NumberColumn]>();

/**
 * The by-rowid statement for pages of `length` records, held per database, length and answer
 * form (`bytes`: the JSON as a BLOB, else as text): the page's (rowid, generation) pairs as `?`
 * parameters, so that neither a JSON parameter (json_each and json_extract of each key) nor the
 * key's index is read. A record whose rowid now holds another generation's JSON is left out, and
 * the caller reads the page by key.
 */
function byRowidStatement(db: ServiceDb, length: number, bytes: boolean) {
  let statements = byRowidStatements.get(db);
  if (!statements) byRowidStatements.set(db, (statements = []));
  const at = 2 * length + (bytes ? 1 : 0);
  let statement = statements[at];
  if (!statement) {
    const values = Array.from({ length }, (_, i) => `(${i}, ?, ?)`).join(', ');
    statement = db
      .prepare(
        `WITH page(at, r, g) AS (VALUES ${values})
         SELECT ${bytes ? 'CAST(j.json AS BLOB)' : 'j.json'} FROM page
         JOIN statistic_json AS j ON j.rowid = page.r AND j.gen_from = page.g
         ORDER BY page.at`,
      )
      .pluck();
    statements[at] = statement;
  }
  return statement;
}
const byRowidStatements = new WeakMap<ServiceDb, ReturnType<ServiceDb['prepare']>[]>();

/** The statement of storedRowsJson, held per database: its text is long, and hashing it on every page cost more than holding it. */
function storedRowsStatement(db: ServiceDb) {
  let statement = storedRowsStatements.get(db);
  if (!statement) {
    const page = `SELECT key AS at, json_extract(value, '$[0]') AS protocol, json_extract(value, '$[1]') AS type,
    json_extract(value, '$[2]') AS id, json_extract(value, '$[3]') AS gen_from FROM json_each(?)`;
    statement = prepareCached(db, pageWithStoredJson(page, ['at'], 'at'), 'pluck');
    storedRowsStatements.set(db, statement);
  }
  return statement;
}
const storedRowsStatements = new WeakMap<ServiceDb, ReturnType<typeof prepareCached>>();

/**
 * Chosen fields of records of the page, read from their stored JSON by SQLite (`json_extract`),
 * in the page's order: one array of values a record, a field the JSON lacks as null. A GraphQL
 * search that selects a few plain fields reads these instead of parsing each record's whole JSON
 * (src/service/graphql/plain-search.ts). A record without stored JSON is rendered afresh first, as
 * storedRowsJson does.
 */
export function storedRowFields(
  db: ServiceDb,
  refs: readonly RecordRef[],
  fields: readonly string[],
): unknown[][] {
  if (refs.length === 0 || fields.length === 0) return refs.map(() => []);
  const texts = fieldsStatement(db, fields).all(keysParam(refs, true)) as string[];
  return texts.map((text) => JSON.parse(text) as unknown[]);
}

function fieldsStatement(db: ServiceDb, fields: readonly string[]) {
  let statements = fieldsStatements.get(db);
  if (!statements) fieldsStatements.set(db, (statements = new Map()));
  const key = fields.join(',');
  let statement = statements.get(key);
  if (!statement) {
    // With two paths or more json_extract answers a JSON array of the values; one path is asked
    // twice so that the answer has the same form.
    const paths = (fields.length === 1 ? [fields[0], fields[0]] : fields).map(
      (field) => `'$.${JSON.stringify(field).replaceAll("'", "''")}'`,
    );
    statement = db
      .prepare(
        `WITH page AS (SELECT key AS at, json_extract(value, '$[0]') AS protocol, json_extract(value, '$[1]') AS type,
           json_extract(value, '$[2]') AS id, json_extract(value, '$[3]') AS gen_from FROM json_each(?))
         SELECT json_extract(COALESCE(j.json, (SELECT ${statisticJsonSql(false)} FROM statistics AS r
           WHERE r.protocol = page.protocol AND r.type = page.type AND r.id = page.id AND r.gen_from = page.gen_from)),
           ${paths.join(', ')})
         FROM page LEFT JOIN statistic_json AS j USING (protocol, type, id, gen_from) ORDER BY at`,
      )
      .pluck();
    statements.set(key, statement);
    // Query texts are few (the document cache holds 500); so are their field lists.
    if (statements.size > 500) statements.delete(statements.keys().next().value as string);
  }
  return statement;
}
const fieldsStatements = new WeakMap<ServiceDb, Map<string, ReturnType<ServiceDb['prepare']>>>();
