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
