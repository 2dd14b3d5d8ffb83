import { prepareCached } from '../../node/sqlite';
import { randomBytes, randomUUID } from 'node:crypto';
import { getAddress } from 'viem';
import type { ServiceDb } from '../store/database';
import { exchangeOf } from '../../shared/profile';
import type { ServiceConfig } from '../config';

interface UserRow {
  id: string;
  address: string;
  role: string;
  is_blocked: number;
  is_activated: number;
  block_note: string;
  referral_code: string;
  referred_by: string | null;
  is_skipped_referral: number;
  broker_id: string | null;
  copy_trade_quota: number;
  plan: number;
  created_at: string;
}

/** The User resource of the spec, without the token. */
export interface UserRecord {
  id: string;
  username: string;
  role: string;
  isBlocked: boolean;
  isActivated: boolean;
  blockNote: string;
  referralCode: string;
  isSkippedReferral: boolean;
  isAddedReferral: boolean;
  copyTradeQuota: number;
  plan: number;
  createdAt: string;
}

const toUser = (row: UserRow): UserRecord => ({
  id: row.id,
  username: row.address,
  role: row.role,
  isBlocked: row.is_blocked === 1,
  isActivated: row.is_activated === 1,
  blockNote: row.block_note,
  referralCode: row.referral_code,
  isSkippedReferral: row.is_skipped_referral === 1,
  isAddedReferral: row.referred_by !== null,
  copyTradeQuota: row.copy_trade_quota,
  plan: row.plan,
  createdAt: row.created_at,
});

/** The user with this id, or null. */
export function findUserById(db: ServiceDb, id: string): UserRecord | null {
  const row = prepareCached(db, 'SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
  return row ? toUser(row) : null;
}

/** The user of this wallet address (any letter case), or null. */
export function findUserByAddress(db: ServiceDb, address: string): UserRecord | null {
  const row = prepareCached(db, 'SELECT * FROM users WHERE address = ?').get(address) as UserRow | undefined;
  return row ? toUser(row) : null;
}

export interface NewUserOptions {
  referralCode?: string | undefined;
  brokerId?: string | undefined;
}

/**
 * Creates the user of a first login with their embedded wallet on the venue, in one transaction
 * (docs/api.md: role user, plan 0, a fresh referral code, the configured quota and balance).
 */
export function createUser(
  db: ServiceDb,
  config: ServiceConfig,
  address: string,
  options: NewUserOptions,
): UserRecord {
  const now = config.now().toISOString();
  const id = randomUUID();
  const referrer = options.referralCode
    ? (prepareCached(db, 'SELECT id FROM users WHERE referral_code = ?').get(options.referralCode) as
        { id: string } | undefined)
    : undefined;
  db.transaction(() => {
    prepareCached(
      db,
      `INSERT INTO users (id, address, referral_code, referred_by, broker_id, copy_trade_quota, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      getAddress(address),
      newReferralCode(),
      referrer?.id ?? null,
      options.brokerId ?? null,
      config.copyTradeQuota,
      now,
    );
    prepareCached(
      db,
      `INSERT INTO copy_wallets (id, user_id, name, exchange, embedded_wallet, is_embedded, verified, balance, created_at)
       VALUES (?, ?, ?, ?, ?, 1, 1, ?, ?)`,
    ).run(
      randomUUID(),
      id,
      'Embedded wallet',
      exchangeOf(config.venue),
      newEmbeddedAddress(),
      config.startingBalance,
      now,
    );
  })();
  const user = findUserById(db, id);
  if (!user) throw new Error('user vanished after insert');
  return user;
}

const newReferralCode = (): string => randomBytes(5).toString('hex').toUpperCase();
/** The sandbox's embedded wallet: an address of its own, never the login wallet. */
const newEmbeddedAddress = (): string => getAddress(`0x${randomBytes(20).toString('hex')}`);
