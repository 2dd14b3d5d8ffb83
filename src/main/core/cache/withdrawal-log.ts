import { venueFeeKeys, withdrawalStatusSchema, type Withdrawal } from '../../../shared/api/copy-wallets';
import { withdrawalRecordSchema, type WithdrawalRecord } from '../../../shared/ipc/schemas/wallets';
import type Database from 'better-sqlite3';
import { prepareCached } from '../../../node/sqlite';

interface Row {
  seq: number;
  user_id: string;
  json: string;
}

/**
 * The withdrawals made from this terminal, per profile and user, newest first, one row each in the
 * cache database's `withdrawals` table (none is ever dropped: the API has no endpoint that lists
 * withdrawals, so this is the user's only history of them). The core records each answer of
 * `withdraw:submit` and updates it from the service's `withdrawalSettled` events.
 */
export class WithdrawalLog {
  constructor(private readonly db: Database.Database) {}

  /** The user's withdrawals on the profile, newest first. */
  list(profileId: string, userId: string): WithdrawalRecord[] {
    const rows = prepareCached(
      this.db,
      'SELECT seq, user_id, json FROM withdrawals WHERE profile_id = ? AND user_id = ? ORDER BY seq DESC',
    ).all(profileId, userId) as Row[];
    return rows.map(recordOfRow).filter((r): r is WithdrawalRecord => r !== null);
  }

  /**
   * Records a withdrawal the service answered; `id` is the Idempotency-Key it was sent with. A
   * second answer for the same key replaces the first and counts as the newest.
   */
  add(profileId: string, id: string, withdrawal: Withdrawal, venue: string): WithdrawalRecord {
    const record = recordOf(id, withdrawal, venue);
    this.db.transaction(() => {
      prepareCached(this.db, 'DELETE FROM withdrawals WHERE profile_id = ? AND id = ?').run(profileId, id);
      prepareCached(
        this.db,
        'INSERT INTO withdrawals (profile_id, id, user_id, created_at, json) VALUES (?, ?, ?, ?, ?)',
      ).run(profileId, id, withdrawal.userId, record.createdAt, JSON.stringify(record));
    })();
    return record;
  }

  /**
   * Applies a `withdrawalSettled` event: the newest record with the same wallet, destination,
   * amount and creation time takes the event's status and data. Returns whether one matched.
   */
  settle(profileId: string, event: unknown, venue: string): boolean {
    const w = event as Partial<Withdrawal>;
    const status = withdrawalStatusSchema.safeParse(w?.status);
    if (!status.success || typeof w.embeddedWallet !== 'string' || !w.data) return false;
    if (typeof w.createdAt !== 'string') return false;
    // Only the records made at the event's moment are candidates (an index lookup, not a scan
    // of every withdrawal the profile ever made).
    const rows = prepareCached(
      this.db,
      'SELECT seq, user_id, json FROM withdrawals WHERE profile_id = ? AND created_at = ? ORDER BY seq DESC',
    ).all(profileId, w.createdAt) as Row[];
    for (const row of rows) {
      const found = recordOfRow(row);
      if (
        !found ||
        found.sourceAddress.toLowerCase() !== w.embeddedWallet.toLowerCase() ||
        found.data.amount !== w.data.amount ||
        found.data.destinationAddress.toLowerCase() !== String(w.data.destinationAddress).toLowerCase()
      )
        continue;
      const updated = recordOf(found.id, { ...(w as Withdrawal), userId: row.user_id }, venue);
      prepareCached(this.db, 'UPDATE withdrawals SET json = ? WHERE seq = ?').run(
        JSON.stringify(updated),
        row.seq,
      );
      return true;
    }
    return false;
  }

  /** Forgets a profile's records (the profile was deleted). */
  clear(profileId: string): void {
    prepareCached(this.db, 'DELETE FROM withdrawals WHERE profile_id = ?').run(profileId);
  }
}

/** A stored record, or null when its text no longer passes the contract's schema. */
function recordOfRow(row: Row): WithdrawalRecord | null {
  try {
    const parsed = withdrawalRecordSchema.safeParse(JSON.parse(row.json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The terminal's view of a withdrawal: the venue's fee fields under generic names. */
function recordOf(id: string, withdrawal: Withdrawal, venue: string): WithdrawalRecord {
  const fees = venueFeeKeys(venue);
  const fee = (key: string) =>
    typeof withdrawal.data[key] === 'number' ? (withdrawal.data[key] as number) : 0;
  return {
    id,
    status: withdrawal.status,
    createdAt: withdrawal.createdAt,
    sourceAddress: withdrawal.embeddedWallet,
    data: withdrawal.data,
    transferFee: fee(fees.transferFee),
    withdrawFee: fee(fees.withdrawFee),
  };
}
