// Tells the engine when its in-memory state (state.ts) may be stale. SQLite is the engine's
// durable record, but other code writes the same tables on the same connection: deposits and
// withdrawals move balances, the market and the fixtures write marks, fixtures and tests insert
// copy positions and activity logs. Temporary triggers (on this connection only: nothing is added to the file's
// schema) count those writes; the engine's own writes are not counted because it raises `writing`
// around them. Inserts into copy_positions are told by its highest rowid instead: any trigger on
// INSERT, even one whose WHEN is false, doubles the cost of the engine's own inserts there; so are
// inserts into activity_logs, whose `seq` the engine numbers in memory (log-numbers.ts).
// A generation that each engine transaction moves on tells when a rollback undid one (the guard
// row lives in the temp database, so it rolls back with the engine's writes), and PRAGMA
// data_version when another connection committed. docs/copy-engine.md, Speed.
import type { Statement } from 'better-sqlite3';
import type { ServiceDb } from '../store/database';

/** A part of the engine's state, reloaded on its own when written from outside. */
export type StateDomain = 'positions' | 'wallets' | 'marks' | 'logs';

/** The tables of each domain, with the writes that triggers count. */
const WATCHED: readonly { domain: StateDomain; table: string; ops: readonly string[] }[] = [
  { domain: 'positions', table: 'copy_positions', ops: ['UPDATE', 'DELETE'] },
  { domain: 'positions', table: 'copy_skipped_sources', ops: ['INSERT', 'UPDATE', 'DELETE'] },
  { domain: 'wallets', table: 'copy_wallets', ops: ['INSERT', 'UPDATE', 'DELETE'] },
  { domain: 'marks', table: 'mark_prices', ops: ['INSERT', 'UPDATE', 'DELETE'] },
  { domain: 'logs', table: 'activity_logs', ops: ['UPDATE', 'DELETE'] },
];
const DOMAINS: readonly StateDomain[] = ['positions', 'wallets', 'marks', 'logs'];

/** Where the store stood when the engine last wrote it. */
interface Mark {
  generation: number;
  positions: number;
  wallets: number;
  marks: number;
  logs: number;
  /** The highest rowid of copy_positions. */
  lastPosition: number;
  /** The highest rowid of activity_logs. */
  lastLog: number;
  dataVersion: number;
}

const GUARD = 'temp.copy_engine_guard';

function installGuard(db: ServiceDb): void {
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS copy_engine_guard (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      writing INTEGER NOT NULL,
      generation INTEGER NOT NULL,
      positions INTEGER NOT NULL,
      wallets INTEGER NOT NULL,
      marks INTEGER NOT NULL,
      logs INTEGER NOT NULL);
    INSERT OR IGNORE INTO ${GUARD} VALUES (1, 0, 0, 0, 0, 0, 0);`);
  for (const { domain, table, ops } of WATCHED) {
    for (const op of ops) {
      db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS copy_engine_${table}_${op.toLowerCase()}
        AFTER ${op} ON main.${table} WHEN (SELECT writing FROM ${GUARD}) = 0
        BEGIN UPDATE ${GUARD} SET ${domain} = ${domain} + 1; END`);
    }
  }
}

/** The writes of others to the tables the engine keeps in memory, per domain. */
export class ExternalWrites {
  private seen: Mark | null = null;
  private pending: Mark | null = null;
  private readonly enterStatement: Statement;
  private readonly leaveStatement: Statement;
  private readonly lastPosition: Statement;
  private readonly lastLog: Statement;
  private readonly dataVersion: Statement;

  constructor(db: ServiceDb) {
    installGuard(db);
    this.enterStatement = db.prepare(
      `UPDATE ${GUARD} SET writing = 1, generation = generation + 1
       RETURNING generation, positions, wallets, marks, logs`,
    );
    this.leaveStatement = db.prepare(`UPDATE ${GUARD} SET writing = 0`);
    this.lastPosition = db.prepare('SELECT COALESCE(MAX(rowid), 0) FROM copy_positions').pluck();
    this.lastLog = db.prepare('SELECT COALESCE(MAX(rowid), 0) FROM activity_logs').pluck();
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  /**
   * Starts an engine write (inside its transaction): from now on the engine's writes are not
   * counted. Returns the domains written by others since the engine's last committed write, or
   * 'all' when it cannot tell (first call, a rollback, another engine or connection).
   */
  enter(): ReadonlySet<StateDomain> | 'all' {
    const row = this.enterStatement.get() as Omit<Mark, 'lastPosition' | 'lastLog' | 'dataVersion'>;
    const now: Mark = {
      generation: row.generation,
      positions: row.positions,
      wallets: row.wallets,
      marks: row.marks,
      logs: row.logs,
      lastPosition: this.lastPosition.get() as number,
      lastLog: this.lastLog.get() as number,
      dataVersion: this.dataVersion.get() as number,
    };
    const seen = this.seen;
    this.pending = now;
    if (!seen || seen.generation !== now.generation - 1 || seen.dataVersion !== now.dataVersion) return 'all';
    const stale = new Set<StateDomain>();
    for (const domain of DOMAINS) if (seen[domain] !== now[domain]) stale.add(domain);
    if (seen.lastPosition !== now.lastPosition) stale.add('positions');
    if (seen.lastLog !== now.lastLog) stale.add('logs');
    return stale;
  }

  /** Ends the engine's write, still inside its transaction: writes from here on are others'. */
  leave(): void {
    this.leaveStatement.run();
    if (this.pending) {
      this.pending.lastPosition = this.lastPosition.get() as number;
      this.pending.lastLog = this.lastLog.get() as number;
    }
  }

  /** The engine's transaction succeeded: its state matches the store as the guard now stands. */
  committed(): void {
    this.seen = this.pending;
    this.pending = null;
  }

  /** The engine's transaction failed: nothing it holds can be trusted. */
  forget(): void {
    this.seen = null;
    this.pending = null;
  }
}
