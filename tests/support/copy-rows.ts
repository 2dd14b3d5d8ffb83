// Rows written straight into the store (through the service's own store functions) at times the
// test controls: copy positions, copy orders, activity logs, marks and balances.
import type { ServiceDb } from '../../src/service/store/database';
import { insertActivityLog, type ActivityLogInsert } from '../../src/service/copy-trading/activity-logs';
import { insertCopyOrder, type CopyOrderInsert } from '../../src/service/copy-trading/copy-orders';
import { insertCopyPosition, type CopyPositionInsert } from '../../src/service/copy-trading/copy-positions';
import { indexTokenAddress } from '../../src/service/market/catalogue';
import { DEFAULT_VENUE, exchangeOf } from '../../src/shared/profile';

/** The default venue's exchange value, as the rows of a default-configured service carry it. */
const EXCHANGE = exchangeOf(DEFAULT_VENUE);

/** The index token the tests' positions hold unless they say otherwise. */
export const BTC = indexTokenAddress('NOVA_ARB', 'BTC');
export const ETH = indexTokenAddress('NOVA_ARB', 'ETH');

let counter = 0;
const nextId = (prefix: string) => `${prefix}-${++counter}`;

/** Who a position belongs to. */
export interface PositionOwner {
  userId: string;
  copyTradeId: string;
  copyWalletId: string;
}

/** Writes a copy position with plain defaults (an OPEN 10× BTC long, margin 100) and returns its row. */
export function addPosition(
  db: ServiceDb,
  owner: PositionOwner,
  patch: Partial<CopyPositionInsert> = {},
): CopyPositionInsert {
  const createdAtMs = patch.createdAtMs ?? 0;
  const row: CopyPositionInsert = {
    id: nextId('position'),
    ...owner,
    copyAccount: '0x1111111111111111111111111111111111111111',
    sourcePositionId: null,
    positionIndex: 0,
    copyPositionIndex: 0,
    indexToken: BTC,
    identifyKey: 'identify',
    pair: 'BTC-USD',
    key: 'key',
    sourceOrderTxHashes: ['0xsource'],
    sourceSizeDelta: '10000',
    sizeDelta: '0.02',
    sourceInitialVol: '1000',
    totalSizeDelta: 0.02,
    initialVol: 100,
    margin: 100,
    sizeTokens: 0.02,
    isLong: true,
    isReverse: false,
    entryPrice: 50_000,
    leverage: 10,
    stopLossPrice: null,
    stopLossAmount: null,
    takeProfitPrice: null,
    takeProfitAmount: null,
    pnl: 0,
    realisedPnl: 0,
    funding: 0,
    fee: 0,
    closeType: null,
    status: 'OPEN',
    protocol: 'NOVA_ARB',
    exchange: EXCHANGE,
    lastOrderAtMs: createdAtMs,
    closedAtMs: null,
    createdAtMs,
    ...patch,
  };
  insertCopyPosition(db, row);
  return row;
}

/** A CLOSE position with this pnl, closed at `closedAtMs`. */
export function addClosedPosition(
  db: ServiceDb,
  owner: PositionOwner,
  pnl: number,
  closedAtMs: number,
  patch: Partial<CopyPositionInsert> = {},
): CopyPositionInsert {
  return addPosition(db, owner, {
    status: 'CLOSE',
    closeType: 'COPY_TRADE',
    margin: 0,
    sizeTokens: 0,
    pnl,
    realisedPnl: pnl,
    closedAtMs,
    createdAtMs: closedAtMs - 3_600_000,
    lastOrderAtMs: closedAtMs,
    ...patch,
  });
}

/** Writes a copy order of `positionId` at `createdAtMs`. */
export function addOrder(
  db: ServiceDb,
  positionId: string,
  userId: string,
  createdAtMs: number,
  patch: Partial<CopyOrderInsert> = {},
): CopyOrderInsert {
  const row: CopyOrderInsert = {
    id: nextId('order'),
    copyPositionId: positionId,
    userId,
    price: 50_000,
    size: 1000,
    pnl: 0,
    realisedPnl: 0,
    fee: 0,
    isLong: true,
    isIncrease: true,
    protocol: 'NOVA_ARB',
    txHash: `0x${'ab'.repeat(32)}`,
    createdAtMs,
    ...patch,
  };
  insertCopyOrder(db, row);
  return row;
}

/** Writes an activity log at `createdAtMs`. */
export function addLog(
  db: ServiceDb,
  owner: PositionOwner,
  createdAtMs: number,
  patch: Partial<ActivityLogInsert> = {},
): ActivityLogInsert {
  const row: ActivityLogInsert = {
    id: nextId('log'),
    ...owner,
    copyPositionId: null,
    copyOrderId: null,
    protocol: 'NOVA_ARB',
    sourceAccount: '0x1111111111111111111111111111111111111111',
    copyTradeTitle: 'Follow the whale',
    exchange: EXCHANGE,
    indexToken: BTC,
    pair: 'BTC-USD',
    sourceTxHash: '0xsource',
    copyWalletName: 'Embedded wallet',
    cexOrderId: null,
    price: 50_000,
    sourcePrice: 50_000,
    volume: 100,
    leverage: 10,
    isLong: true,
    isSuccess: true,
    isReverse: false,
    type: 'OPEN',
    reason: '',
    createdAtMs,
    ...patch,
  };
  insertActivityLog(db, row);
  return row;
}

/** Sets the mark price of `indexToken`. */
export function setMark(db: ServiceDb, indexToken: string, price: number): void {
  db.prepare(
    'INSERT INTO mark_prices (index_token, price, time_ms) VALUES (?, ?, 0) ON CONFLICT (index_token) DO UPDATE SET price = excluded.price',
  ).run(indexToken, price);
}

/** Sets a wallet's balance. */
export function setBalance(db: ServiceDb, walletId: string, balance: number): void {
  db.prepare('UPDATE copy_wallets SET balance = ? WHERE id = ?').run(balance, walletId);
}

/** A wallet's balance as stored. */
export function balanceOf(db: ServiceDb, walletId: string): number {
  return (db.prepare('SELECT balance FROM copy_wallets WHERE id = ?').get(walletId) as { balance: number })
    .balance;
}
