// The accounts a venue feed follows, in SQLite (feed_accounts): why each is tracked, and how far its
// backfill has got (docs/venue-feed.md, Backfill).
import { getAddress } from 'viem';
import { prepareCached } from '../../../node/sqlite';
import type { ServiceDb } from '../../store/database';

export type Phase = 'recent' | 'history' | 'done';

export interface FeedAccountRow {
  venue: string;
  account: string;
  by_user: number;
  by_leaderboard: number;
  removed: number;
  added_at_ms: number;
  live_since_ms: number;
  phase: Phase;
  recent_from_ms: number;
  cursor_ms: number;
  fills: number;
  first_fill_ms: number | null;
  last_fill_ms: number | null;
  error: string | null;
}

/** The recent window backfilled first, so the 7- and 30-day statistics are right first. */
export const RECENT_WINDOW_MS = 30 * 24 * 3600_000;

export const checksummed = (account: string): string => getAddress(account.toLowerCase());

/**
 * The rows, read through a copy in memory: the work loop looks at every account before each
 * request, and SQLite need not be asked each time. Every write goes to SQLite first and then
 * re-reads its row; after a rollback `forget()` drops the copy.
 */
export class FeedAccounts {
  private cache: Map<string, FeedAccountRow> | null = null;

  constructor(
    private readonly db: ServiceDb,
    private readonly venue: string,
  ) {}

  /** Every account the feed has a row for (tracked or not), in the order they were added. */
  all(): FeedAccountRow[] {
    return [...this.rows().values()];
  }

  get(account: string): FeedAccountRow | undefined {
    return this.rows().get(account);
  }

  /** Drops the copy in memory (a transaction that wrote rows rolled back). */
  forget(): void {
    this.cache = null;
  }

  private rows(): Map<string, FeedAccountRow> {
    if (!this.cache) {
      const rows = prepareCached(
        this.db,
        'SELECT * FROM feed_accounts WHERE venue = ? ORDER BY added_at_ms, account',
      ).all(this.venue) as FeedAccountRow[];
      this.cache = new Map(rows.map((row) => [row.account, row]));
    }
    return this.cache;
  }

  /** Re-reads one row after a write. */
  private reload(account: string): void {
    const row = prepareCached(this.db, 'SELECT * FROM feed_accounts WHERE venue = ? AND account = ?').get(
      this.venue,
      account,
    ) as FeedAccountRow | undefined;
    if (row) this.rows().set(account, row);
  }

  /**
   * Makes sure `account` has a row; a new one starts its backfill with the recent window ending
   * at `nowMs`. `reason` user: tracked by the user (and no longer removed); leaderboard: found by
   * discovery (unless the user removed it); copy: only the row (the copy trade is the reason).
   */
  ensure(account: string, reason: 'user' | 'leaderboard' | 'copy', nowMs: number): void {
    const recentFrom = Math.max(0, nowMs - RECENT_WINDOW_MS);
    prepareCached(
      this.db,
      `INSERT OR IGNORE INTO feed_accounts (venue, account, added_at_ms, live_since_ms, phase, recent_from_ms, cursor_ms)
       VALUES (?, ?, ?, ?, 'recent', ?, ?)`,
    ).run(this.venue, account, nowMs, nowMs, recentFrom, recentFrom);
    if (reason === 'user')
      prepareCached(
        this.db,
        'UPDATE feed_accounts SET by_user = 1, removed = 0 WHERE venue = ? AND account = ?',
      ).run(this.venue, account);
    else if (reason === 'leaderboard')
      prepareCached(
        this.db,
        'UPDATE feed_accounts SET by_leaderboard = 1 WHERE venue = ? AND account = ?',
      ).run(this.venue, account);
    this.reload(account);
  }

  /** The user stops tracking `account`: polling stops, its data stays, discovery leaves it out. */
  remove(account: string): void {
    prepareCached(
      this.db,
      'UPDATE feed_accounts SET by_user = 0, removed = 1 WHERE venue = ? AND account = ?',
    ).run(this.venue, account);
    this.reload(account);
  }

  /** A page was stored: the cursor, phase and counts move in the page's own transaction. */
  advance(
    account: string,
    change: { phase: Phase; cursorMs: number; added: number; firstMs: number | null; lastMs: number | null },
  ): void {
    prepareCached(
      this.db,
      `UPDATE feed_accounts SET phase = ?, cursor_ms = ?, fills = fills + ?,
         first_fill_ms = CASE WHEN ? IS NULL THEN first_fill_ms ELSE MIN(COALESCE(first_fill_ms, ?), ?) END,
         last_fill_ms = CASE WHEN ? IS NULL THEN last_fill_ms ELSE MAX(COALESCE(last_fill_ms, ?), ?) END,
         error = NULL
       WHERE venue = ? AND account = ?`,
    ).run(
      change.phase,
      change.cursorMs,
      change.added,
      change.firstMs,
      change.firstMs,
      change.firstMs,
      change.lastMs,
      change.lastMs,
      change.lastMs,
      this.venue,
      account,
    );
    this.reload(account);
  }

  setError(account: string, error: string | null): void {
    prepareCached(this.db, 'UPDATE feed_accounts SET error = ? WHERE venue = ? AND account = ?').run(
      error,
      this.venue,
      account,
    );
    this.reload(account);
  }
}
