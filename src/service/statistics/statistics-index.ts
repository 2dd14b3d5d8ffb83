import { IndexGeneration, Population } from '../../shared/statistics-index';
import type { ServiceDb } from '../store/database';
import { statisticFields } from '../store/fields';
import { CURRENT_ROWS } from '../store/statistics';

/** Fields held per population rather than per record. */
const CONSTANT_FIELDS = ['protocol', 'type'] as const;
/** Per-record texts; `id` is the tie field (records are held in id order). */
const TEXT_FIELDS = ['id', 'account'] as const;
/** Every numeric, boolean and time field a filter or sort may name, plus the row's generation. */
const NUMBER_FIELDS = Object.entries(statisticFields)
  .filter(([, spec]) => spec.type === 'number' || spec.type === 'boolean' || spec.type === 'time')
  .map(([field, spec]) => ({ field, sql: spec.sql }));
/** The generation a record was written in: where its stored JSON is found (stored-json.ts). */
export const GEN_FROM_COLUMN = '$genFrom';

const SELECT_POPULATION = `SELECT id, account, gen_from, ${NUMBER_FIELDS.map((f) => f.sql).join(', ')}
  FROM statistics WHERE protocol = ? AND type = ? AND ${CURRENT_ROWS} ORDER BY id`;

/** The SQL function the triggers call with each changed row's population. */
const CHANGED_FUNCTION = 'copydesk_statistics_changed';

/**
 * The statistics index of one service database (docs/statistics.md, "The columnar index"): the
 * current records of every population as typed-array columns, built from SQLite when first read
 * and kept current without any writer having to remember it. Temporary triggers (this
 * connection's only, nothing stored) report each written row's population; the next read
 * reloads those populations and swaps in a new generation. A reader holding an older
 * generation (a point in time) keeps it unchanged.
 */
export class StatisticsIndex {
  private generation = new IndexGeneration();
  private readonly dirty = new Set<string>();
  private everything = true;
  /** Populations loaded since start (tests and the bench read it). */
  reloads = 0;

  constructor(private readonly db: ServiceDb) {
    db.function(CHANGED_FUNCTION, { deterministic: false }, (protocol: unknown, type: unknown) => {
      this.dirty.add(`${String(protocol)}|${String(type)}`);
      return null;
    });
    for (const [event, row] of [
      ['INSERT', 'NEW'],
      ['UPDATE', 'NEW'],
      ['DELETE', 'OLD'],
    ] as const) {
      db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS statistics_index_${event.toLowerCase()}
        AFTER ${event} ON main.statistics
        BEGIN SELECT ${CHANGED_FUNCTION}(${row}.protocol, ${row}.type); END`);
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

  /** The current generation, with every population written since the last read reloaded. */
  current(): IndexGeneration {
    if (this.everything) {
      this.everything = false;
      this.dirty.clear();
      const keys = this.db
        .prepare(`SELECT DISTINCT protocol, type FROM statistics WHERE ${CURRENT_ROWS}`)
        .all() as { protocol: string; type: string }[];
      this.generation = new IndexGeneration(
        new Map(keys.map((k) => [`${k.protocol}|${k.type}`, this.load(k.protocol, k.type)!])),
      );
    } else if (this.dirty.size > 0) {
      const replaced = new Map<string, Population | null>();
      for (const key of this.dirty) {
        const bar = key.indexOf('|');
        replaced.set(key, this.load(key.slice(0, bar), key.slice(bar + 1)));
      }
      this.dirty.clear();
      this.generation = this.generation.with(replaced);
    }
    return this.generation;
  }

  /** One population's current records as columns, or null when it has none. */
  private load(protocol: string, type: string): Population | null {
    const rows = this.db.prepare(SELECT_POPULATION).raw(true).all(protocol, type) as unknown[][];
    this.reloads += 1;
    if (rows.length === 0) return null;
    const numbers: Record<string, Float64Array> = {};
    const genFrom = new Float64Array(rows.length);
    const columns = NUMBER_FIELDS.map((f) => (numbers[f.field] = new Float64Array(rows.length)));
    const ids: string[] = new Array<string>(rows.length);
    const accounts: string[] = new Array<string>(rows.length);
    rows.forEach((row, i) => {
      ids[i] = row[0] as string;
      accounts[i] = row[1] as string;
      genFrom[i] = row[2] as number;
      for (let c = 0; c < columns.length; c += 1) {
        const v = row[c + 3];
        (columns[c] as Float64Array)[i] = v === null ? NaN : (v as number);
      }
    });
    numbers[GEN_FROM_COLUMN] = genFrom;
    return new Population(`${protocol}|${type}`, {
      constants: { [CONSTANT_FIELDS[0]]: protocol, [CONSTANT_FIELDS[1]]: type },
      texts: { [TEXT_FIELDS[0]]: ids, [TEXT_FIELDS[1]]: accounts },
      numbers,
    });
  }
}

const indexes = new WeakMap<ServiceDb, StatisticsIndex>();

/** The statistics index of `db`, made (with its triggers) the first time it is asked for. */
export function statisticsIndexOf(db: ServiceDb): StatisticsIndex {
  let index = indexes.get(db);
  if (!index) indexes.set(db, (index = new StatisticsIndex(db)));
  return index;
}
