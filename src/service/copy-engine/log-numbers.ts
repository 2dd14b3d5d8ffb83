// The `seq` of each user's activity logs (it orders a user's logs that share a millisecond),
// numbered in memory: the store's MAX(seq) is read once per user, then advanced here. Each number
// is written in the same transaction as its log, so a crash loses none that committed; a rollback,
// or a log written by someone else (external-writes.ts), makes the engine read MAX(seq) again.
// This spares activity_logs a (user, seq) index, whose leaves each copy of an order dirtied at
// every commit (docs/copy-engine.md, "Schema decisions for the write path").
import type { Statement } from 'better-sqlite3';
import type { ServiceDb } from '../store/database';

/** The last `seq` given to each user's activity log. */
export class LogNumbers {
  private readonly last = new Map<string, number>();
  private readonly stored: Statement;

  constructor(db: ServiceDb) {
    // Through activity_logs_user (user_id, created_at_ms, seq), covering: once per user.
    this.stored = db.prepare('SELECT MAX(seq) FROM activity_logs WHERE user_id = ?').pluck();
  }

  /** The `seq` the user's next activity log gets. */
  next(userId: string): number {
    const n = (this.last.get(userId) ?? (this.stored.get(userId) as number | null) ?? 0) + 1;
    this.last.set(userId, n);
    return n;
  }

  /** Forgets every number: they are read from the store again when next needed. */
  forget(): void {
    this.last.clear();
  }
}
