// bench:copy's floor (issue #18: "SQLite alone, the same rows"): the write statements the copy
// engine runs, captured in an untimed run of the workload, then replayed by SQLite alone on a copy
// of the same starting database — each distinct SQL prepared once, its parameters bound as
// captured, the engine's transactions kept — and the two databases compared table by table, so
// that the floor provably writes the engine's rows. bench:feed builds its floor the same way (the
// rows the feed wrote, written again by SQLite alone). docs/copy-engine.md#the-floor-the-same-rows.
import Database from 'better-sqlite3';
import { createLocalService } from '../../src/service/app';
import { CopyEngine } from '../../src/service/copy-engine/engine';
import type { SourceOrder } from '../../src/service/copy-engine/types';
import { copyBenchConfig } from './copy-world';

/** The writes of one captured run: statement `statements[i]` bound with `args[i]`, in order. */
export interface CapturedWrites {
  /** Each distinct SQL that wrote, once. */
  sql: string[];
  /** For each write, its index in `sql`. */
  statements: number[];
  /** For each write, its parameters as bound (positional values, or one object of named ones). */
  args: unknown[][];
  /** Where each committed transaction ends: writes [ends[t - 1] ?? 0, ends[t]) are transaction t. */
  ends: number[];
}

type Method = 'run' | 'get' | 'all' | 'iterate';
const METHODS: readonly Method[] = ['run', 'get', 'all', 'iterate'];

/**
 * The engine's guard row (copy-engine/external-writes.ts) lives in the connection's temp schema:
 * its bookkeeping of others' writes, not a row of the file. It is the engine's work, not replayed.
 */
const writesTemp = (sql: string): boolean => /\btemp\./i.test(sql);

/** A copy of what was bound, so that a caller reusing an array or object cannot change it later. */
const copied = (value: unknown): unknown =>
  Array.isArray(value)
    ? [...(value as unknown[])]
    : value !== null && typeof value === 'object' && !Buffer.isBuffer(value)
      ? { ...value }
      : value;

/**
 * Records the writes made through `db` while recording: every statement prepared on it from now
 * on that writes the main database, each run with its parameters, grouped by the transactions of
 * `db.transaction` (a transaction or savepoint that throws rolls back, and so do its writes here).
 * Install it before the engine prepares its statements (in its constructor). Reads are not kept.
 */
export class WriteCapture {
  readonly writes: CapturedWrites = { sql: [], statements: [], args: [], ends: [] };
  private recording = false;
  private depth = 0;
  private readonly indexOf = new Map<string, number>();

  constructor(private readonly db: Database.Database) {
    const prepare = db.prepare.bind(db);
    db.prepare = ((sql: string) => this.watch(prepare(sql), sql)) as typeof db.prepare;
    const transaction = db.transaction.bind(db);
    db.transaction = ((fn: (...args: unknown[]) => unknown) =>
      transaction((...args: unknown[]) => this.within(() => fn(...args)))) as typeof db.transaction;
    const exec = db.exec.bind(db);
    db.exec = ((sql: string) => {
      if (this.recording) throw new Error(`WriteCapture: db.exec while recording cannot be replayed: ${sql}`);
      return exec(sql);
    }) as typeof db.exec;
  }

  start(): void {
    this.recording = true;
  }

  stop(): void {
    this.recording = false;
  }

  /** Runs a transaction's (or savepoint's) body; its writes are dropped if it throws. */
  private within(body: () => unknown): unknown {
    const mark = this.writes.statements.length;
    this.depth += 1;
    try {
      const result = body();
      this.depth -= 1;
      if (this.depth === 0 && this.recording) this.writes.ends.push(this.writes.statements.length);
      return result;
    } catch (error) {
      this.depth -= 1;
      this.writes.statements.length = mark;
      this.writes.args.length = mark;
      throw error;
    }
  }

  private watch(statement: Database.Statement, sql: string): Database.Statement {
    if (statement.readonly || writesTemp(sql)) return statement;
    const target = statement as unknown as Record<string, unknown>;
    for (const method of METHODS) {
      const original = statement[method].bind(statement) as (...args: unknown[]) => unknown;
      target[method] = (...args: unknown[]) => {
        const result = original(...args);
        if (this.recording) this.record(sql, args);
        return result;
      };
    }
    target.bind = () => {
      throw new Error('WriteCapture: Statement#bind is not captured; bind at each call instead');
    };
    return statement;
  }

  private record(sql: string, args: unknown[]): void {
    let index = this.indexOf.get(sql);
    if (index === undefined) {
      index = this.writes.sql.length;
      this.writes.sql.push(sql);
      this.indexOf.set(sql, index);
    }
    this.writes.statements.push(index);
    this.writes.args.push(args.map(copied));
    // A write outside any transaction function commits by itself.
    if (this.depth === 0) this.writes.ends.push(this.writes.statements.length);
  }
}

/**
 * The engine copying `orders`, `batch` to a transaction, on the service's database at `dbPath`
 * (a copy of the starting database), untimed: its writes, and the rows of each table after them.
 */
export async function captureEngineWrites(dbPath: string, batch: number, orders: SourceOrder[]) {
  const config = copyBenchConfig(dbPath);
  const service = createLocalService(config);
  try {
    const capture = new WriteCapture(service.db);
    const engine = new CopyEngine(service.db, config);
    capture.start();
    for (let from = 0; from < orders.length; from += batch)
      engine.processSourceOrders(orders.slice(from, from + batch));
    capture.stop();
    return { writes: capture.writes, counts: tableCounts(service.db) };
  } finally {
    await service.close();
  }
}

/**
 * Prepares the captured writes on `db` (each distinct SQL once) and returns a function that
 * replays transaction `t` of them as one transaction of `db`.
 */
export function replayer(db: Database.Database, writes: CapturedWrites): (t: number) => void {
  const statements = writes.sql.map((sql) => db.prepare(sql));
  const { statements: which, args, ends } = writes;
  const transaction = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i += 1)
      (statements[which[i] as number] as Database.Statement).run(...(args[i] as unknown[]));
  });
  return (t) => transaction(t === 0 ? 0 : (ends[t - 1] as number), ends[t] as number);
}

/** How one table differs between two databases (empty when they hold the same rows). */
export interface TableDifference {
  table: string;
  rows: [number, number];
  /** Rows of the first without an identical row (same key, every column equal and of the same type) in the second. */
  unmatched: number;
}

const quoted = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/**
 * Compares every table of two database files, row by row on their keys (the rowid, or the primary
 * key of a table without one): the tables that differ, or [] when both hold exactly the same rows
 * under the same rowids. Throws when their lists of tables differ.
 */
export function differingTables(pathA: string, pathB: string): TableDifference[] {
  const db = new Database(pathA, { readonly: true });
  try {
    db.prepare('ATTACH DATABASE ? AS other').run(pathB);
    const tablesOf = (schema: string) =>
      db
        .prepare(
          `SELECT name FROM ${schema}.sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_stat%' ORDER BY name`,
        )
        .pluck()
        .all() as string[];
    const tables = tablesOf('main');
    const others = tablesOf('other');
    if (tables.join() !== others.join())
      throw new Error(`the two databases have different tables: ${tables.join()} / ${others.join()}`);
    return tables.flatMap((table) => {
      const difference = compareTable(db, table);
      return difference.unmatched === 0 && difference.rows[0] === difference.rows[1] ? [] : [difference];
    });
  } finally {
    db.close();
  }
}

function compareTable(db: Database.Database, table: string): TableDifference {
  const t = quoted(table);
  const info = db.prepare(`SELECT name, pk FROM pragma_table_info(?)`).all(table) as {
    name: string;
    pk: number;
  }[];
  const list = db.prepare(`SELECT wr FROM pragma_table_list(?) WHERE schema = 'main'`).pluck().get(table);
  const keys = list === 1 ? info.filter((c) => c.pk > 0).map((c) => quoted(c.name)) : ['rowid'];
  const on = keys.map((k) => `b.${k} = a.${k}`).join(' AND ');
  const differs = info
    .map((c) => quoted(c.name))
    .map((c) => `a.${c} IS NOT b.${c} OR typeof(a.${c}) IS NOT typeof(b.${c})`)
    .join(' OR ');
  const count = (schema: string) => db.prepare(`SELECT COUNT(*) FROM ${schema}.${t}`).pluck().get() as number;
  const unmatched = db
    .prepare(
      `SELECT COUNT(*) FROM main.${t} a LEFT JOIN other.${t} b ON ${on}
       WHERE b.${keys[0]} IS NULL OR ${differs}`,
    )
    .pluck()
    .get() as number;
  return { table, rows: [count('main'), count('other')], unmatched };
}

/** The rows of every table of `db`'s main schema, by table. */
export function tableCounts(db: Database.Database): Record<string, number> {
  const tables = db
    .prepare(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_stat%' ORDER BY name",
    )
    .pluck()
    .all() as string[];
  return Object.fromEntries(
    tables.map((t) => [
      t,
      db
        .prepare(`SELECT COUNT(*) FROM ${quoted(t)}`)
        .pluck()
        .get() as number,
    ]),
  );
}
