import { venueFeeKeys, withdrawalStatusSchema, type Withdrawal } from '../../../shared/api/copy-wallets';
import { withdrawalRecordSchema, type WithdrawalRecord } from '../../../shared/ipc/schemas/wallets';
import type { KeyValueTable } from './key-value';

/** Records kept per profile; older ones are dropped past this. */
const MAX_RECORDS = 1000;

/** A withdrawal as stored: the record the terminal lists, and whose it is. */
interface Stored extends WithdrawalRecord {
  userId: string;
}

const keyOf = (profileId: string) => `withdrawals.${profileId}`;

/**
 * The withdrawals made from this terminal, per profile and user, newest first. The API has no
 * endpoint that lists withdrawals, so the core records each answer of `withdraw:submit` and
 * updates it from the service's `withdrawalSettled` events.
 */
export class WithdrawalLog {
  constructor(private readonly table: KeyValueTable) {}

  /** The user's withdrawals on the profile, newest first. */
  list(profileId: string, userId: string): WithdrawalRecord[] {
    return this.stored(profileId)
      .filter((r) => r.userId === userId)
      .map(({ userId: _userId, ...record }) => record);
  }

  /** Records a withdrawal the service answered; `id` is the Idempotency-Key it was sent with. */
  add(profileId: string, id: string, withdrawal: Withdrawal, venue: string): WithdrawalRecord {
    const record = recordOf(id, withdrawal, venue);
    const others = this.stored(profileId).filter((r) => r.id !== id);
    this.table.set(
      keyOf(profileId),
      [{ ...record, userId: withdrawal.userId }, ...others].slice(0, MAX_RECORDS),
    );
    return record;
  }

  /**
   * Applies a `withdrawalSettled` event: the record with the same wallet, destination, amount and
   * creation time takes the event's status and data. Returns whether one matched.
   */
  settle(profileId: string, event: unknown, venue: string): boolean {
    const w = event as Partial<Withdrawal>;
    const status = withdrawalStatusSchema.safeParse(w?.status);
    if (!status.success || typeof w.embeddedWallet !== 'string' || !w.data) return false;
    const records = this.stored(profileId);
    const index = records.findIndex(
      (r) =>
        r.sourceAddress.toLowerCase() === w.embeddedWallet!.toLowerCase() &&
        r.createdAt === w.createdAt &&
        r.data.amount === w.data!.amount &&
        r.data.destinationAddress.toLowerCase() === String(w.data!.destinationAddress).toLowerCase(),
    );
    const found = records[index];
    if (!found) return false;
    const updated = recordOf(found.id, { ...(w as Withdrawal), userId: found.userId }, venue);
    records[index] = { ...updated, userId: found.userId };
    this.table.set(keyOf(profileId), records);
    return true;
  }

  /** Forgets a profile's records (the profile was deleted). */
  clear(profileId: string): void {
    this.table.delete(keyOf(profileId));
  }

  private stored(profileId: string): Stored[] {
    const value = this.table.get(keyOf(profileId));
    if (!Array.isArray(value)) return [];
    return value.filter(
      (r): r is Stored =>
        withdrawalRecordSchema.safeParse(r).success && typeof (r as { userId?: unknown }).userId === 'string',
    );
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
