// Copy wallets (docs/api.md, Copy wallet; docs/api.md, Copy wallets and withdrawal).
import type { CopyWallet, EmbeddedCopyWallet, VenueAccount } from '../../shared/api/copy-wallets';
import { exchangeOf } from '../../shared/profile';
import { prepareCached } from '../../node/sqlite';
import type { ServiceDb } from '../store/database';
import { roundUsd } from './money';
import { NO_WALLET_PNL, walletPnl } from './pnl';

/** A copy_wallets row. */
export interface CopyWalletRow {
  id: string;
  user_id: string;
  name: string;
  exchange: string;
  api_key: string;
  embedded_wallet: string | null;
  is_embedded: number;
  verified: number;
  balance: number;
  created_at: string;
}

/** A wallet row with the margin its open copy positions hold. */
type WalletWithMargin = CopyWalletRow & { open_margin: number };

const WALLETS_SQL = `
  SELECT w.*, (SELECT TOTAL(p.margin) FROM copy_positions p
               WHERE p.user_id = w.user_id AND p.status = 'OPEN' AND p.copy_wallet_id = w.id) AS open_margin
  FROM copy_wallets w`;

/** The user's copy wallets, oldest first; with `embeddedOn`, only the embedded ones on that exchange. */
function walletRows(db: ServiceDb, userId: string, embeddedOn: string | null): WalletWithMargin[] {
  const order = 'ORDER BY w.created_at, w.id';
  if (embeddedOn === null) {
    return db.prepare(`${WALLETS_SQL} WHERE w.user_id = ? ${order}`).all(userId) as WalletWithMargin[];
  }
  return db
    .prepare(`${WALLETS_SQL} WHERE w.user_id = ? AND w.is_embedded = 1 AND w.exchange = ? ${order}`)
    .all(userId, embeddedOn) as WalletWithMargin[];
}

/** The user's wallet with this id, or null (also for another user's wallet). */
export function findUserWallet(db: ServiceDb, userId: string, walletId: string): CopyWalletRow | null {
  const row = db.prepare('SELECT * FROM copy_wallets WHERE id = ? AND user_id = ?').get(walletId, userId);
  return (row as CopyWalletRow | undefined) ?? null;
}

/** The user's embedded wallet on `exchange` at `address` (any letter case), or null. */
export function findEmbeddedWallet(
  db: ServiceDb,
  userId: string,
  exchange: string,
  address: string,
): CopyWalletRow | null {
  const row = db
    .prepare(
      `SELECT * FROM copy_wallets WHERE user_id = ? AND is_embedded = 1 AND exchange = ?
         AND lower(embedded_wallet) = lower(?)`,
    )
    .get(userId, exchange, address);
  return (row as CopyWalletRow | undefined) ?? null;
}

/** The user's first embedded wallet on `exchange` (created at first login), or null. */
export function firstEmbeddedWallet(db: ServiceDb, userId: string, exchange: string): CopyWalletRow | null {
  return walletRows(db, userId, exchange)[0] ?? null;
}

/** Balance minus the margin held by the wallet's open copy positions. */
export function availableBalance(db: ServiceDb, walletId: string): number {
  const row = prepareCached(db, `${WALLETS_SQL} WHERE w.id = ?`).get(walletId) as
    WalletWithMargin | undefined;
  return row ? roundUsd(row.balance - row.open_margin) : 0;
}

/** Moves the wallet's balance by `delta` USD (negative to debit). */
export function adjustBalance(db: ServiceDb, walletId: string, delta: number): void {
  const row = prepareCached(db, 'SELECT balance FROM copy_wallets WHERE id = ?').get(walletId) as
    { balance: number } | undefined;
  if (!row) throw new Error(`copy wallet ${walletId} does not exist`);
  prepareCached(db, 'UPDATE copy_wallets SET balance = ? WHERE id = ?').run(
    roundUsd(row.balance + delta),
    walletId,
  );
}

function venueAccount(row: CopyWalletRow): VenueAccount {
  return {
    // Embedded wallets have no venue API key; others show theirs only if one was stored.
    apiKey: row.api_key === '' ? null : row.api_key,
    embeddedWallet: row.embedded_wallet,
    isEmbedded: row.is_embedded === 1,
    verified: row.verified === 1,
  };
}

function toCopyWallet(row: WalletWithMargin, venue: string): CopyWallet {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    exchange: row.exchange,
    [venue]: venueAccount(row),
    balance: roundUsd(row.balance),
    availableBalance: roundUsd(row.balance - row.open_margin),
    createdAt: row.created_at,
  };
}

/** `GET /copy-wallets/list`: the user's wallets with their available balance. */
export function listCopyWallets(db: ServiceDb, userId: string, venue: string): CopyWallet[] {
  return walletRows(db, userId, null).map((row) => toCopyWallet(row, venue));
}

/** `GET /copy-wallets/<venue>-embedded/list`: the embedded wallets with pnl24h and totalPnl at `nowMs`. */
export function listEmbeddedWallets(
  db: ServiceDb,
  userId: string,
  venue: string,
  nowMs: number,
): EmbeddedCopyWallet[] {
  const pnl = walletPnl(db, userId, nowMs);
  return walletRows(db, userId, exchangeOf(venue)).map((row) => ({
    ...toCopyWallet(row, venue),
    ...(pnl.get(row.id) ?? NO_WALLET_PNL),
  }));
}
