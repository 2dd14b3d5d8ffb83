import { venueFeeKeys, withdrawalStatusSchema, type Withdrawal } from '../../../shared/api/copy-wallets';
import type { WithdrawRequest } from '../../../shared/api/copy-wallets';
import {
  WITHDRAWAL_SUBMITTING,
  withdrawalRecordSchema,
  type WithdrawalRecord,
} from '../../../shared/ipc/schemas/wallets';
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
 * withdrawals, so this is the user's only history of them). `withdraw:submit` writes the record
 * as SUBMITTING before it sends, then settles it with the service's answer (or FAILED when the
 * service refused); the service's `withdrawalSettled` events update it after.
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

  /** The record sent with Idempotency-Key `id`, or null. */
  find(profileId: string, id: string): WithdrawalRecord | null {
    const row = prepareCached(
      this.db,
      'SELECT seq, user_id, json FROM withdrawals WHERE profile_id = ? AND id = ?',
    ).get(profileId, id) as Row | undefined;
    return row ? recordOfRow(row) : null;
  }

  /**
   * Writes a withdrawal as SUBMITTING before it is sent, so that a crash or a lost answer leaves
   * a record to settle (docs/security.md, Withdrawals). A record the key already has is kept,
   * unless the service refused it (a new try of a refused withdrawal is SUBMITTING again, in its
   * row). The fees are not known until the service answers: 0 until then.
   */
  begin(
    profileId: string,
    userId: string,
    id: string,
    request: WithdrawRequest,
    now: Date,
  ): WithdrawalRecord {
    const found = this.find(profileId, id);
    if (found && found.problem === undefined) return found;
    const record: WithdrawalRecord = {
      id,
      status: WITHDRAWAL_SUBMITTING,
      createdAt: now.toISOString(),
      sourceAddress: request.sourceAddress,
      data: {
        destinationAddress: request.destinationAddress,
        chargeFeeTime: null,
        chargeFeeTxHash: null,
        withdrawTime: null,
        txHash: null,
        amount: request.amount,
        feeAmount: 0,
        withdrawAmount: request.amount,
        receiveAmount: request.amount,
      },
      transferFee: 0,
      withdrawFee: 0,
    };
    if (found)
      prepareCached(this.db, 'UPDATE withdrawals SET json = ? WHERE profile_id = ? AND id = ?').run(
        JSON.stringify(record),
        profileId,
        id,
      );
    else
      prepareCached(
        this.db,
        'INSERT INTO withdrawals (profile_id, id, user_id, created_at, json) VALUES (?, ?, ?, ?, ?)',
      ).run(profileId, id, userId, record.createdAt, JSON.stringify(record));
    return record;
  }

  /**
   * Settles the record of key `id` with the service's answer, in its place (its row, so its order,
   * stays); records it anew when there is none.
   */
  complete(profileId: string, id: string, withdrawal: Withdrawal, venue: string): WithdrawalRecord {
    const record = recordOf(id, withdrawal, venue);
    const changed = prepareCached(
      this.db,
      'UPDATE withdrawals SET json = ?, created_at = ?, user_id = ? WHERE profile_id = ? AND id = ?',
    ).run(JSON.stringify(record), record.createdAt, withdrawal.userId, profileId, id).changes;
    return changed > 0 ? record : this.add(profileId, id, withdrawal, venue);
  }

  /** The service refused the withdrawal of key `id` (nothing was paid): FAILED with its reason. */
  refuse(profileId: string, id: string, problem: string): WithdrawalRecord | null {
    const found = this.find(profileId, id);
    if (!found) return null;
    const record: WithdrawalRecord = { ...found, status: 'FAILED', problem };
    prepareCached(this.db, 'UPDATE withdrawals SET json = ? WHERE profile_id = ? AND id = ?').run(
      JSON.stringify(record),
      profileId,
      id,
    );
    return record;
  }

  /** Removes the record of key `id` while it is SUBMITTING (it never left: the service was unreachable). */
  forget(profileId: string, id: string): void {
    prepareCached(
      this.db,
      "DELETE FROM withdrawals WHERE profile_id = ? AND id = ? AND json_extract(json, '$.status') = ?",
    ).run(profileId, id, WITHDRAWAL_SUBMITTING);
  }

  /** The user's records still SUBMITTING on the profile (sent, answer not known), oldest first. */
  submitting(profileId: string, userId: string): WithdrawalRecord[] {
    return this.list(profileId, userId)
      .filter((r) => r.status === WITHDRAWAL_SUBMITTING)
      .reverse();
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
    // A record still SUBMITTING (its answer was lost) has the terminal's time, not the service's:
    // it is matched by wallet, destination and amount, oldest first.
    const submitting = prepareCached(
      this.db,
      "SELECT seq, user_id, json FROM withdrawals WHERE profile_id = ? AND json_extract(json, '$.status') = ? ORDER BY seq",
    ).all(profileId, WITHDRAWAL_SUBMITTING) as Row[];
    for (const row of [...rows, ...submitting]) {
      const found = recordOfRow(row);
      if (
        !found ||
        found.sourceAddress.toLowerCase() !== w.embeddedWallet.toLowerCase() ||
        found.data.amount !== w.data.amount ||
        found.data.destinationAddress.toLowerCase() !== String(w.data.destinationAddress).toLowerCase()
      )
        continue;
      const updated = recordOf(found.id, { ...(w as Withdrawal), userId: row.user_id }, venue);
      prepareCached(this.db, 'UPDATE withdrawals SET json = ?, created_at = ? WHERE seq = ?').run(
        JSON.stringify(updated),
        updated.createdAt,
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
