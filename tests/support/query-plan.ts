// The plan SQLite picks for a statement on a fresh service database (every migration applied, no
// table statistics: the plan a new user's store gets), one detail line per step.
import { openServiceDatabase } from '../../src/service/store/database';

export function planOf(sql: string): string {
  const db = openServiceDatabase(':memory:');
  try {
    const args = sql
      .split('?')
      .slice(1)
      .map(() => 'x');
    const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[];
    return rows.map((r) => r.detail).join('\n');
  } finally {
    db.close();
  }
}

/**
 * The plans of every statement `run` prepares on a fresh service database, with the SQL of each:
 * the statements a function really builds (a page's filters, sorts and count), not copies of
 * them. Named parameters are planned as positional ones.
 */
export function plansOfCalls(run: (db: ReturnType<typeof openServiceDatabase>) => void): PlannedStatement[] {
  const db = openServiceDatabase(':memory:');
  const seen: string[] = [];
  const prepare = db.prepare.bind(db);
  try {
    db.prepare = ((sql: string) => {
      seen.push(sql);
      return prepare(sql);
    }) as typeof db.prepare;
    run(db);
    return seen.map((sql) => {
      const positional = sql.replace(/@\w+/g, '?');
      const args = positional
        .split('?')
        .slice(1)
        .map(() => 'x');
      const rows = prepare(`EXPLAIN QUERY PLAN ${positional}`).all(...args) as { detail: string }[];
      return { sql, plan: rows.map((r) => r.detail).join('\n') };
    });
  } finally {
    db.close();
  }
}

export interface PlannedStatement {
  sql: string;
  plan: string;
}
