// Copy trades in the store: one copy_trades row per configuration (the resource's other fields in
// `config`), plus copy_trade_accounts so that the engine finds the followers of a source account.
import type { CopyTrade, CopyTradeListBody } from '../../shared/api/copy-trades';
import type { ServiceDb } from '../store/database';
import { isoOf } from './money';
import { addressMatch, Where } from './paging';

interface CopyTradeRow {
  id: string;
  user_id: string;
  copy_wallet_id: string;
  account: string;
  protocol: string;
  status: CopyTrade['status'];
  config: string;
  created_at_ms: number;
  updated_at_ms: number;
}

/** The fields kept in their own columns; every other field lives in `config`. */
type ColumnFields = 'id' | 'userId' | 'account' | 'copyWalletId' | 'protocol' | 'status' | 'createdAt';
type CopyTradeConfig = Omit<CopyTrade, ColumnFields>;

/** The optional amounts: absent from a create body, null once stored. */
type OptionalAmount =
  | 'stopLossAmount'
  | 'takeProfitAmount'
  | 'lookBackOrders'
  | 'maxVolMultiplier'
  | 'lowLeverage'
  | 'lowCollateral'
  | 'lowSize';
/** A copy trade whose optional amounts may still be undefined (a create body, a merge). */
export type CopyTradeDraft = Omit<CopyTrade, OptionalAmount> & Partial<Record<OptionalAmount, number | null>>;

/** The resource in the spec's field order, optional amounts null, extra accounts without repeats. */
export function shapeCopyTrade(d: CopyTradeDraft): CopyTrade {
  return {
    id: d.id,
    userId: d.userId,
    title: d.title,
    account: d.account,
    accounts: [...new Set(d.accounts)],
    copyWalletId: d.copyWalletId,
    protocol: d.protocol,
    exchange: d.exchange,
    type: d.type,
    side: d.side,
    volume: d.volume,
    leverage: d.leverage,
    tokenAddresses: d.tokenAddresses,
    excludingTokenAddresses: d.excludingTokenAddresses,
    copyAll: d.copyAll,
    hasExclude: d.hasExclude,
    multipleCopy: d.multipleCopy,
    reverseCopy: d.reverseCopy,
    enableStopLoss: d.enableStopLoss,
    stopLossType: d.stopLossType,
    stopLossAmount: d.stopLossAmount ?? null,
    enableTakeProfit: d.enableTakeProfit,
    takeProfitType: d.takeProfitType,
    takeProfitAmount: d.takeProfitAmount ?? null,
    volumeProtection: d.volumeProtection,
    lookBackOrders: d.lookBackOrders ?? null,
    maxVolMultiplier: d.maxVolMultiplier ?? null,
    skipLowLeverage: d.skipLowLeverage,
    lowLeverage: d.lowLeverage ?? null,
    skipLowCollateral: d.skipLowCollateral,
    lowCollateral: d.lowCollateral ?? null,
    skipLowSize: d.skipLowSize,
    lowSize: d.lowSize ?? null,
    status: d.status,
    createdAt: d.createdAt,
  };
}

function configOf(trade: CopyTrade): CopyTradeConfig {
  const {
    id: _i,
    userId: _u,
    account: _a,
    copyWalletId: _w,
    protocol: _p,
    status: _s,
    createdAt: _c,
    ...config
  } = trade;
  return config;
}

function toCopyTrade(row: CopyTradeRow): CopyTrade {
  const config = JSON.parse(row.config) as CopyTradeConfig;
  return shapeCopyTrade({
    ...config,
    id: row.id,
    userId: row.user_id,
    account: row.account,
    copyWalletId: row.copy_wallet_id,
    protocol: row.protocol,
    status: row.status,
    createdAt: isoOf(row.created_at_ms),
  });
}

const versions = new WeakMap<ServiceDb, number>();

/** Moves on every write of a copy trade, so that caches of them (the copy engine's) know when to reload. */
export function copyTradesVersion(db: ServiceDb): number {
  return versions.get(db) ?? 0;
}

function touch(db: ServiceDb): void {
  versions.set(db, copyTradesVersion(db) + 1);
}

function writeAccounts(db: ServiceDb, trade: CopyTrade): void {
  db.prepare('DELETE FROM copy_trade_accounts WHERE copy_trade_id = ?').run(trade.id);
  const insert = db.prepare(
    'INSERT OR IGNORE INTO copy_trade_accounts (copy_trade_id, account) VALUES (?, ?)',
  );
  for (const account of trade.accounts) insert.run(trade.id, account);
}

/** Writes a new copy trade (created at `trade.createdAt`) with its extra accounts. Call inside a transaction. */
export function insertCopyTrade(db: ServiceDb, trade: CopyTrade): void {
  const createdMs = Date.parse(trade.createdAt);
  db.prepare(
    `INSERT INTO copy_trades (id, user_id, copy_wallet_id, account, protocol, status, config, created_at_ms, updated_at_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    trade.id,
    trade.userId,
    trade.copyWalletId,
    trade.account,
    trade.protocol,
    trade.status,
    JSON.stringify(configOf(trade)),
    createdMs,
    createdMs,
  );
  writeAccounts(db, trade);
  touch(db);
}

/** Replaces a stored copy trade with `trade`, at `nowMs`. Call inside a transaction. */
export function saveCopyTrade(db: ServiceDb, trade: CopyTrade, nowMs: number): void {
  db.prepare(
    `UPDATE copy_trades SET copy_wallet_id = ?, account = ?, protocol = ?, status = ?, config = ?, updated_at_ms = ?
     WHERE id = ? AND user_id = ?`,
  ).run(
    trade.copyWalletId,
    trade.account,
    trade.protocol,
    trade.status,
    JSON.stringify(configOf(trade)),
    nowMs,
    trade.id,
    trade.userId,
  );
  writeAccounts(db, trade);
  touch(db);
}

/** The user's copy trade with this id, or null (also for another user's). */
export function findCopyTrade(db: ServiceDb, userId: string, id: string): CopyTrade | null {
  const row = db.prepare('SELECT * FROM copy_trades WHERE id = ? AND user_id = ?').get(id, userId);
  return row ? toCopyTrade(row as CopyTradeRow) : null;
}

/** Every stored copy trade, of every user and status (the copy engine's followers). */
export function listAllCopyTrades(db: ServiceDb): CopyTrade[] {
  const rows = db.prepare('SELECT * FROM copy_trades ORDER BY created_at_ms, id').all() as CopyTradeRow[];
  return rows.map(toCopyTrade);
}

/** How many copy trades the user runs now. */
export function countRunningCopyTrades(db: ServiceDb, userId: string): number {
  const row = db
    .prepare("SELECT COUNT(*) AS n FROM copy_trades WHERE user_id = ? AND status = 'RUNNING'")
    .get(userId) as { n: number };
  return row.n;
}

function listWhere(userId: string, filter: CopyTradeListBody): Where {
  const where = new Where().add('t.user_id = ?', userId);
  if (filter.ids) where.addIn('t.id', filter.ids);
  if (filter.copyWalletId !== undefined) where.add('t.copy_wallet_id = ?', filter.copyWalletId);
  if (filter.status !== undefined) where.add('t.status = ?', filter.status);
  if (filter.protocols) where.addIn('t.protocol', filter.protocols);
  if (filter.accounts) {
    // A trade matches when it copies one of the accounts as its main or as an extra account.
    const main = addressMatch('t.account', filter.accounts);
    const extra = addressMatch('a.account', filter.accounts);
    where.add(
      `(${main.sql}) OR t.id IN (SELECT a.copy_trade_id FROM copy_trade_accounts a WHERE ${extra.sql})`,
      ...main.params,
      ...extra.params,
    );
  }
  return where;
}

/** The user's copy trades matching `filter`, newest first. */
export function listCopyTrades(db: ServiceDb, userId: string, filter: CopyTradeListBody): CopyTrade[] {
  const where = listWhere(userId, filter);
  const rows = db
    .prepare(`SELECT t.* FROM copy_trades t ${where.toSql()} ORDER BY t.created_at_ms DESC, t.id DESC`)
    .all(...where.params) as CopyTradeRow[];
  return rows.map(toCopyTrade);
}
