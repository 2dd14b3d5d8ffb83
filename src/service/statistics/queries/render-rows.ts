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
  const texts = storedRowsJson(db, refs).map((bytes) => Buffer.from(bytes).toString('utf8'));
  if (!withRanking) return texts;
  return texts.map((text, i) => `${text.slice(0, -1)},"ranking":${rankingJson(refs[i] as RecordRef)}}`);
}

/**
 * The whole answer `{"data":[…],"meta":…}` of a page as bytes, the same text `pageJson` makes of
 * `currentRowsJson`'s rows: each record's stored JSON is copied into the answer as the bytes
 * SQLite gave (decoding ~36 KB into strings and encoding them again cost a tenth of a miss;
 * docs/statistics.md, "Figures"), its closing brace replaced by the `ranking` when asked.
 */
export function currentPageBuffer(
  db: ServiceDb,
  refs: readonly RecordRef[],
  withRanking: boolean,
  meta: object,
): Buffer {
  const rows = refs.length === 0 ? [] : storedRowsJson(db, refs);
  // The rankings' bytes first, one after another in a scratch buffer (`ends[i]`: where row i's ends).
  const ends = withRanking ? writeRankings(refs) : null;
  const head = '{"data":[';
  const tail = `],"meta":${JSON.stringify(meta)}}`;
  let bytes = head.length + Buffer.byteLength(tail) + Math.max(rows.length - 1, 0);
  for (const row of rows) bytes += row.byteLength;
  if (ends) bytes += ends.length * RANKING_KEY.length + (ends.at(-1) ?? 0);
  const page = Buffer.allocUnsafe(bytes);
  let at = page.write(head, 0, 'latin1');
  for (let i = 0; i < rows.length; i += 1) {
    if (i > 0) page[at++] = COMMA;
    const row = rows[i] as Uint8Array;
    if (!ends) {
      page.set(row, at);
      at += row.byteLength;
      continue;
    }
    // `{…}` becomes `{…,"ranking":{…}}`: the row without its closing brace, then the ranking.
    page.set(row.subarray(0, row.byteLength - 1), at);
    at += row.byteLength - 1;
    page.set(RANKING_KEY, at);
    at += RANKING_KEY.length;
    const from = i > 0 ? (ends[i - 1] as number) : 0;
    page.set(scratch.subarray(from, ends[i]), at);
    at += (ends[i] as number) - from;
    page[at++] = CLOSE;
  }
  page.write(tail, at, 'utf8');
  return page;
}

/**
 * Writes each record's `ranking` object (the text rankingJson makes) into `scratch`, one after
 * another, and answers where each ends. Written byte by byte: 380 percentiles a page made into
 * strings and joined cost ~0.07 ms of a REST miss.
 */
function writeRankings(refs: readonly RecordRef[]): number[] {
  // At most 24 characters a number (`-1.2345678901234567e-300`) after each key.
  const most = refs.length * (RANKING_PREFIX_BYTES_TOTAL + RANKING_KEYS.length * 24 + 1);
  if (scratch.length < most) scratch = Buffer.allocUnsafe(Math.max(most, 2 * scratch.length));
  const ends: number[] = [];
  let at = 0;
  for (const { population, row } of refs) {
    const columns = rankingColumns(population);
    for (let k = 0; k < columns.length; k += 1) {
      const prefix = RANKING_PREFIX_BYTES[k] as Uint8Array;
      scratch.set(prefix, at);
      at = writeNumber(scratch, at + prefix.length, (columns[k] as NumberColumn).at(row));
    }
    scratch[at++] = CLOSE;
    ends.push(at);
  }
  return ends;
}
let scratch = Buffer.allocUnsafe(64 * 1024);

/** Writes numberJson(value) at `at`; answers where it ends. */
function writeNumber(out: Buffer, at: number, value: number): number {
  if (value >= 0 && value < 1e9) {
    const hundredths = Math.round(value * 100);
    if (hundredths / 100 === value) {
      const whole = Math.floor(hundredths / 100);
      const cents = hundredths - whole * 100;
      at = writeDigits(out, at, whole);
      if (cents === 0) return at;
      out[at++] = DOT;
      out[at++] = ZERO + Math.floor(cents / 10);
      if (cents % 10 !== 0) out[at++] = ZERO + (cents % 10);
      return at;
    }
  }
  return at + out.write(JSON.stringify(value), at, 'latin1');
}

/** The decimal digits of a whole number from 0 to 10⁹. */
function writeDigits(out: Buffer, at: number, whole: number): number {
  let digits = 1;
  for (let rest = whole; rest >= 10; rest = Math.floor(rest / 10)) digits += 1;
  let rest = whole;
  for (let i = digits - 1; i >= 0; i -= 1) {
    out[at + i] = ZERO + (rest % 10);
    rest = Math.floor(rest / 10);
  }
  return at + digits;
}
const DOT = 0x2e;
const ZERO = 0x30;
const RANKING_KEY = Buffer.from(',"ranking":', 'latin1');
const COMMA = 0x2c;
const CLOSE = 0x7d;

/** `{"avgDuration":…,…}` in the order of RANKING_KEYS, a missing percentile as null (as SQL wrote it). */
function rankingJson({ population, row }: RecordRef): string {
  const columns = rankingColumns(population);
  let out = '{';
  for (let k = 0; k < columns.length; k += 1) {
    const value = (columns[k] as NumberColumn).at(row);
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
const RANKING_PREFIX_BYTES_TOTAL = RANKING_PREFIX_BYTES.reduce((sum, b) => sum + b.length, 0);

/** A population's ranking columns in RANKING_KEYS order, looked up once (a population never changes). */
function rankingColumns(population: Population): NumberColumn[] {
  let columns = rankingColumnsOf.get(population);
  if (!columns) {
    columns = RANKING_FIELDS.map((field) => population.number(field));
    rankingColumnsOf.set(population, columns);
  }
  return columns;
}
const rankingColumnsOf = new WeakMap<Population, NumberColumn[]>();

/**
 * The stored JSON (UTF-8 bytes) of records of any generation a point in time still sees, in the
 * page's order (stored-json.ts). A page of at most MAX_BY_ROWID records is read by the rowids the
 * index holds, each checked against the record's generation; should one not be found (JSON
 * written again since its population was read, or none stored), the page is read by full key.
 */
export function storedRowsJson(db: ServiceDb, refs: readonly RecordRef[]): Uint8Array[] {
  if (refs.length === 0) return [];
  if (refs.length <= MAX_BY_ROWID) {
    const rows = byRowidStatement(db, refs.length).all(rowidParams(refs)) as Uint8Array[];
    if (rows.length === refs.length) return rows;
  }
  return storedRowsStatement(db).all(keysParam(refs, true)) as Uint8Array[];
}

/**
 * Pages longer than this are read by key: a statement per page length is held, and search-after
 * batches (up to thousands of records) are not where a request's time goes.
 */
const MAX_BY_ROWID = 100;

/** Each record's JSON rowid and generation, as the by-rowid statement binds them (a missing rowid as null). */
function rowidParams(refs: readonly RecordRef[]): (number | null)[] {
  const params = new Array<number | null>(refs.length * 2);
  for (let i = 0; i < refs.length; i += 1) {
    const { population, row } = refs[i] as RecordRef;
    const rowid = population.number(JSON_ROWID_COLUMN).at(row);
    params[2 * i] = Number.isNaN(rowid) ? null : rowid;
    params[2 * i + 1] = population.number(GEN_FROM_COLUMN).at(row);
  }
  return params;
}

/**
 * The by-rowid statement for pages of `length` records, held per database and length: the page's
 * (rowid, generation) pairs as `?` parameters, so that neither a JSON parameter (json_each and
 * json_extract of each key) nor the key's index is read. A record whose rowid now holds another
 * generation's JSON is left out, and the caller reads the page by key.
 */
function byRowidStatement(db: ServiceDb, length: number) {
  let statements = byRowidStatements.get(db);
  if (!statements) byRowidStatements.set(db, (statements = []));
  let statement = statements[length];
  if (!statement) {
    const values = Array.from({ length }, (_, i) => `(${i}, ?, ?)`).join(', ');
    statement = db
      .prepare(
        `WITH page(at, r, g) AS (VALUES ${values})
         SELECT CAST(j.json AS BLOB) FROM page JOIN statistic_json AS j ON j.rowid = page.r AND j.gen_from = page.g
         ORDER BY page.at`,
      )
      .pluck();
    statements[length] = statement;
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
