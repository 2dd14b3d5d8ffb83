import { RANKING_KEYS } from '../../../shared/api/statistics';
import { ColumnBudget, IndexGeneration, NumberColumn, Population } from '../../../shared/statistics-index';
import { ColumnFile } from './column-file';
import { PatchedColumns } from './patched-columns';
import type { ServiceDb } from '../../store/database';
import { statisticFields } from '../../store/fields';
import { CURRENT_ROWS } from '../store/statistic-rows';

// Per population: protocol and type (window) as shared texts; per record: id (the tie field,
// records are held in id order) and account as texts, and the numbers below.
/** Every numeric, boolean and time field a filter or sort may name, plus the row's generation. */
const NUMBER_FIELDS = Object.entries(statisticFields)
  .filter(([, spec]) => spec.type === 'number' || spec.type === 'boolean' || spec.type === 'time')
  .map(([field, spec]) => ({ field, sql: spec.sql }));
/** The generation a record was written in: where its stored JSON is found (stored-json.ts). */
export const GEN_FROM_COLUMN = '$genFrom';
/**
 * The rowid of the record's stored JSON in `statistic_json` (NaN when it has none): a page reads
 * its records by rowid, one B-tree descent each instead of one through the key's index and one
 * through the table (render-rows.ts, storedRowsJson).
 */
export const JSON_ROWID_COLUMN = '$jsonRowid';
const JSON_ROWID_SQL = `(SELECT j.rowid FROM statistic_json AS j WHERE j.protocol = statistics.protocol
  AND j.type = statistics.type AND j.id = statistics.id AND j.gen_from = statistics.gen_from)`;

const SELECT_COLUMNS = `id, account, gen_from, ${NUMBER_FIELDS.map((f) => f.sql).join(', ')}, ${JSON_ROWID_SQL}`;
const SELECT_POPULATION = `SELECT ${SELECT_COLUMNS}
  FROM statistics WHERE protocol = ? AND type = ? AND ${CURRENT_ROWS} ORDER BY id`;
const SELECT_ROWS = `SELECT ${SELECT_COLUMNS} FROM statistics WHERE protocol = ? AND type = ? AND ${CURRENT_ROWS}
  AND id IN (SELECT value FROM json_each(?)) ORDER BY id`;
const RANKING_COLUMNS = RANKING_KEYS.map((k) => ({ field: `ranking.${k}`, sql: `"rk_${k}"` }));
/**
 * The columns a population holds from the start: every page reads the generation and the JSON
 * rowid (to find the stored JSON) and the public filter's page renders all 19 percentiles. The
 * other columns wait in the population's column file until a query names them
 * (docs/statistics.md, "Columns made on demand").
 */
const HELD_FIELDS = new Set([GEN_FROM_COLUMN, JSON_ROWID_COLUMN, ...RANKING_COLUMNS.map((c) => c.field)]);
const SELECT_RANKINGS = `SELECT id, ${RANKING_COLUMNS.map((c) => c.sql).join(', ')}
  FROM statistics WHERE protocol = ? AND type = ? AND ${CURRENT_ROWS} ORDER BY id`;

/** SQL functions the triggers call: a row written, or a row's percentiles rewritten in place. */
const ROW_CHANGED = 'copydesk_statistic_row_changed';
const RANKINGS_CHANGED = 'copydesk_statistic_rankings_changed';
/**
 * Bytes the populations may hold of what they can make again: columns read from their column
 * files and sorted permutations (docs/statistics.md, "The budget of columns held"). At 2,000,000
 * records the parts always held take ~74 bytes a record (~147 MB) and the bench's queries use
 * ~147 MB of these parts: 160 MB keeps them all and the whole index near 310 MB for any workload.
 */
export const COLUMN_BUDGET_BYTES = 160 * 1024 * 1024;
/** Past this share of a population's records changed, it is read afresh rather than patched. */
const PATCH_SHARE = 0.25;

/**
 * The statistics index of one service database (docs/statistics.md, "The columnar index"): the
 * current records of every population as typed-array columns, built from SQLite at start and
 * kept current without any writer having to remember it. Temporary triggers (this connection's
 * only, nothing stored) report each written row; the next read patches those rows into a copy of
 * their population (a whole population is read again when most of it changed), re-reads the
 * percentile columns where the live market rewrote them in place, and swaps in a new generation.
 * A reader holding an older generation (a point in time) keeps it unchanged.
 */
export class StatisticsIndex {
  private generation = new IndexGeneration();
  /** Changed record ids by population key. */
  private readonly rows = new Map<string, Set<string>>();
  /** Populations whose percentiles were rewritten in place. */
  private readonly rankings = new Set<string>();
  private everything = true;
  /**
   * One string per account while a generation is built: a trader's records in every window and
   * protocol then share one account text (SQLite hands out a new string per row).
   */
  private readonly accounts = new Map<string, string>();
  /** Populations read in full, patched, and re-ranked since start (tests and the bench read them). */
  readonly counts = { loads: 0, patches: 0, rankings: 0 };
  /** Shared by every population this index makes, current or kept by a point in time. */
  readonly budget = new ColumnBudget(COLUMN_BUDGET_BYTES);

  constructor(private readonly db: ServiceDb) {
    db.function(ROW_CHANGED, { deterministic: false }, (protocol: unknown, type: unknown, id: unknown) => {
      const key = `${String(protocol)}|${String(type)}`;
      let ids = this.rows.get(key);
      if (!ids) this.rows.set(key, (ids = new Set()));
      ids.add(String(id));
      return null;
    });
    db.function(RANKINGS_CHANGED, { deterministic: false }, (protocol: unknown, type: unknown) => {
      this.rankings.add(`${String(protocol)}|${String(type)}`);
      return null;
    });
    const columns = (
      db.prepare("SELECT name FROM pragma_table_info('statistics')").pluck().all() as string[]
    ).map((c) => `"${c}"`);
    const ranked = new Set(RANKING_COLUMNS.map((c) => c.sql));
    const triggers = [
      ['insert', 'INSERT', `${ROW_CHANGED}(NEW.protocol, NEW.type, NEW.id)`],
      ['delete', 'DELETE', `${ROW_CHANGED}(OLD.protocol, OLD.type, OLD.id)`],
      [
        'update',
        `UPDATE OF ${columns.filter((c) => !ranked.has(c)).join(', ')}`,
        `${ROW_CHANGED}(NEW.protocol, NEW.type, NEW.id)`,
      ],
      ['rankings', `UPDATE OF ${[...ranked].join(', ')}`, `${RANKINGS_CHANGED}(NEW.protocol, NEW.type)`],
    ];
    for (const [name, event, call] of triggers) {
      db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS statistics_index_${name} AFTER ${event} ON main.statistics
        BEGIN SELECT ${call}; END`);
    }
    // A record's stored JSON written again (OR REPLACE) gets a new rowid: the record is read again
    // too, so that the current populations always hold the rowids of their records' JSON.
    for (const [name, event, row] of [
      ['insert', 'INSERT', 'NEW'],
      ['delete', 'DELETE', 'OLD'],
      ['update', 'UPDATE', 'NEW'],
    ]) {
      db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS statistics_index_json_${name} AFTER ${event} ON main.statistic_json
        BEGIN SELECT ${ROW_CHANGED}(${row}.protocol, ${row}.type, ${row}.id); END`);
    }
  }

  /**
   * Reads every population afresh, now: at start, once the data is prepared (preparation writes
   * through a worker thread's own connection, which this connection's triggers do not see).
   */
  reloadAll(): IndexGeneration {
    this.everything = true;
    return this.current();
  }

  /** The current generation, with every change since the last read taken in. */
  current(): IndexGeneration {
    if (this.everything) {
      this.everything = false;
      this.rows.clear();
      this.rankings.clear();
      const keys = this.db
        .prepare(`SELECT DISTINCT protocol, type FROM statistics WHERE ${CURRENT_ROWS}`)
        .all() as { protocol: string; type: string }[];
      this.generation = new IndexGeneration(
        new Map(keys.map((k) => [`${k.protocol}|${k.type}`, this.load(k.protocol, k.type)!])),
      );
      this.accounts.clear();
      return this.generation;
    }
    if (this.rows.size === 0 && this.rankings.size === 0) return this.generation;
    const replaced = new Map<string, Population | null>();
    for (const [key, ids] of this.rows) {
      const [protocol, type] = splitKey(key);
      const old = this.generation.get(key);
      replaced.set(
        key,
        old && ids.size <= old.size * PATCH_SHARE ? this.patch(old, ids) : this.load(protocol, type),
      );
    }
    for (const key of this.rankings) {
      const population = replaced.has(key) ? replaced.get(key) : this.generation.get(key);
      if (population) replaced.set(key, this.rerank(population));
    }
    this.rows.clear();
    this.rankings.clear();
    this.accounts.clear();
    this.generation = this.generation.with(replaced);
    return this.generation;
  }

  /** Bytes of the current populations' column files (on disk, read back when a column is named). */
  columnFileBytes(): number {
    let total = 0;
    for (const p of this.generation.all()) if (p.source instanceof ColumnFile) total += p.source.byteLength;
    return total;
  }

  private intern(account: string): string {
    const known = this.accounts.get(account);
    if (known !== undefined) return known;
    this.accounts.set(account, account);
    return account;
  }

  /** One population's current records as columns, or null when it has none. */
  private load(protocol: string, type: string): Population | null {
    this.counts.loads += 1;
    const rows = this.db.prepare(SELECT_POPULATION).raw(true).all(protocol, type) as unknown[][];
    return rows.length === 0
      ? null
      : populationOf(protocol, type, rows, (account) => this.intern(account), this.budget);
  }

  /**
   * A copy of `old` with the records `ids` as they are stored now (changed, added, or gone),
   * merged in id order; columns are copied, no other row is read.
   */
  private patch(old: Population, ids: ReadonlySet<string>): Population | null {
    this.counts.patches += 1;
    const protocol = old.constant('protocol');
    const type = old.constant('type');
    const fresh = this.db
      .prepare(SELECT_ROWS)
      .raw(true)
      .all(protocol, type, JSON.stringify([...ids])) as unknown[][];
    // The old records changed or gone, found by binary search (ids are held as bytes: decoding
    // every id of the population per patch cost more than the patch).
    const gone = new Set<number>();
    for (const id of ids) {
      const row = old.rowOf(id);
      if (row >= 0) gone.add(row);
    }
    const size = old.size - gone.size + fresh.length;
    if (size === 0) return null;
    // Merge the kept old rows and the fresh rows by id: each output row names its source (a
    // fresh row goes before the first old row whose id is above its own).
    const places = fresh.map((r) => old.placeOf(r[0] as string));
    const from: number[] = [];
    let f = 0;
    for (let row = 0; row <= old.size; row += 1) {
      while (f < fresh.length && (places[f] as number) <= row) from.push(-1 - f++);
      if (row < old.size && !gone.has(row)) from.push(row);
    }
    const texts = {
      id: old.text('id').gather(from, (i) => fresh[i]![0] as string),
      account: old.text('account').gather(from, (i) => this.intern(fresh[i]![1] as string)),
    };
    // The columns the old population held are patched now; the others when first named, from
    // the old column file and the fresh rows (patched-columns.ts).
    const numbers: Record<string, NumberColumn> = {};
    for (const [field, column] of old.heldNumbers) {
      const at = FRESH_AT.get(field);
      if (at === undefined) continue;
      numbers[field] = column.gather(from, (i) => {
        const v = fresh[i]![at];
        return v === null ? NaN : (v as number);
      });
    }
    const source = PatchedColumns.after(old.source, from, fresh, FRESH_AT);
    return new Population(
      old.key,
      { constants: { protocol, type }, texts, numbers },
      'id',
      source,
      this.budget,
    );
  }

  /**
   * `population` with its percentile columns read again (the same records, re-ranked in place);
   * it shares every other column, and the column file, with `population`.
   */
  private rerank(population: Population): Population {
    this.counts.rankings += 1;
    const [protocol, type] = splitKey(population.key);
    const rows = this.db.prepare(SELECT_RANKINGS).raw(true).all(protocol, type) as unknown[][];
    const ids = population.text('id');
    if (rows.length !== population.size || rows.some((r, i) => !ids.is(i, r[0] as string))) {
      // Records came or went without the row triggers seeing them (another connection): read all.
      return this.load(protocol, type) ?? population;
    }
    const replaced: Record<string, Float64Array> = {};
    RANKING_COLUMNS.forEach(({ field }, c) => {
      const column = new Float64Array(rows.length);
      rows.forEach((r, i) => {
        const v = r[c + 1];
        column[i] = v === null ? NaN : (v as number);
      });
      replaced[field] = column;
    });
    return population.withNumbers(replaced);
  }
}

const splitKey = (key: string): [string, string] => {
  const bar = key.indexOf('|');
  return [key.slice(0, bar), key.slice(bar + 1)];
};

/** Where each number field is in a row read with SELECT_COLUMNS. */
const FRESH_AT = new Map<string, number>([
  [GEN_FROM_COLUMN, 2],
  ...NUMBER_FIELDS.map((f, c): [string, number] => [f.field, c + 3]),
  [JSON_ROWID_COLUMN, NUMBER_FIELDS.length + 3],
]);

/**
 * A population of rows read with SELECT_POPULATION, in id order: the held columns in memory, the
 * others written to its column file.
 */
function populationOf(
  protocol: string,
  type: string,
  rows: unknown[][],
  intern: (account: string) => string,
  budget: ColumnBudget,
): Population {
  const n = rows.length;
  const ids: string[] = new Array<string>(n);
  const accounts: string[] = new Array<string>(n);
  for (let i = 0; i < n; i += 1) {
    const row = rows[i] as unknown[];
    ids[i] = row[0] as string;
    accounts[i] = intern(row[1] as string);
  }
  const numbers: Record<string, NumberColumn> = {};
  const file = ColumnFile.create();
  // One column at a time, so that a single column of doubles is alive beside the narrow ones.
  const values = new Float64Array(n);
  for (const [field, at] of FRESH_AT) {
    for (let i = 0; i < n; i += 1) {
      const v = (rows[i] as unknown[])[at];
      values[i] = v === null ? NaN : (v as number);
    }
    const column = NumberColumn.of(values);
    if (HELD_FIELDS.has(field))
      numbers[field] = column.codes === values ? NumberColumn.of(values.slice()) : column;
    else file.write(field, column);
  }
  return new Population(
    `${protocol}|${type}`,
    { constants: { protocol, type }, texts: { id: ids, account: accounts }, numbers },
    'id',
    file,
    budget,
  );
}

const indexes = new WeakMap<ServiceDb, StatisticsIndex>();

/** The statistics index of `db`, made (with its triggers) the first time it is asked for. */
export function statisticsIndexOf(db: ServiceDb): StatisticsIndex {
  let index = indexes.get(db);
  if (!index) indexes.set(db, (index = new StatisticsIndex(db)));
  return index;
}
