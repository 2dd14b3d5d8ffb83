// Fast inserts of simulated rows: plain INSERTs with positional parameters (binding by name costs
// a lookup per column), and a bulk mode that rebuilds the tables' indexes once at the end instead
// of updating them on every row.
import type { ServiceDb } from '../../store/database';
import { ORDER_COLUMNS, POSITION_COLUMNS } from '../../store/positions';
import type { OrderRow, PositionRow } from '../../store/positions';

const insertSql = (table: string, columns: readonly string[]): string =>
  `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;

/** Prepared plain inserts of positions and orders (ids must be new). */
export function rowInserters(db: ServiceDb) {
  const position = db.prepare(insertSql('positions', POSITION_COLUMNS));
  const order = db.prepare(insertSql('orders', ORDER_COLUMNS));
  return {
    position: (row: PositionRow) => position.run(POSITION_COLUMNS.map((c) => row[c])),
    order: (row: OrderRow) => order.run(ORDER_COLUMNS.map((c) => row[c])),
  };
}

/**
 * Drops the indexes of `tables` and returns a function that recreates them from their own saved
 * SQL (so the schema stays owned by the migrations). Call both inside one transaction: DDL is
 * transactional in SQLite, so a failure leaves the indexes as they were.
 */
export function suspendIndexes(
  db: ServiceDb,
  tables: readonly string[],
): (onIndex?: (done: number, total: number) => void) => void {
  const indexes = db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL
       AND tbl_name IN (${tables.map(() => '?').join(', ')}) ORDER BY name`,
    )
    .all(...tables) as { name: string; sql: string }[];
  for (const index of indexes) db.exec(`DROP INDEX "${index.name}"`);
  return (onIndex) => {
    indexes.forEach((index, i) => {
      db.exec(index.sql);
      onIndex?.(i + 1, indexes.length);
    });
  };
}
