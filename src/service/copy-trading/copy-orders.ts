// Orders of copy positions (docs/api.md, Copy order).
import type { CopyOrder } from '../../shared/api/copy-positions';
import { prepareCached } from '../../node/sqlite';
import type { ServiceDb } from '../store/database';
import { isoOf } from './money';

/** Everything a new copy order row holds; `createdAtMs` is epoch ms. */
export interface CopyOrderInsert {
  id: string;
  copyPositionId: string;
  userId: string;
  price: number;
  size: number;
  pnl: number;
  realisedPnl: number;
  fee: number;
  isLong: boolean;
  isIncrease: boolean;
  protocol: string;
  txHash: string;
  createdAtMs: number;
}

interface CopyOrderRow {
  price: number;
  size: number;
  pnl: number;
  realised_pnl: number;
  fee: number;
  is_long: number;
  is_increase: number;
  protocol: string;
  tx_hash: string;
  created_at_ms: number;
}

/** Writes a copy order; `seq` orders the orders of one position that share a millisecond. */
export function insertCopyOrder(db: ServiceDb, o: CopyOrderInsert): void {
  prepareCached(
    db,
    `INSERT INTO copy_orders (id, copy_position_id, user_id, price, size, pnl, realised_pnl, fee, is_long,
       is_increase, protocol, tx_hash, created_at_ms, seq)
     VALUES (@id, @copyPositionId, @userId, @price, @size, @pnl, @realisedPnl, @fee, @isLong,
       @isIncrease, @protocol, @txHash, @createdAtMs,
       (SELECT COALESCE(MAX(seq), 0) + 1 FROM copy_orders WHERE copy_position_id = @copyPositionId))`,
  ).run({ ...o, isLong: o.isLong ? 1 : 0, isIncrease: o.isIncrease ? 1 : 0 });
}

/** The orders of a copy position, newest first (later writes first within a millisecond). */
export function listCopyOrders(db: ServiceDb, copyPositionId: string): CopyOrder[] {
  const rows = db
    .prepare(
      `SELECT * FROM copy_orders WHERE copy_position_id = ?
       ORDER BY created_at_ms DESC, seq DESC, id DESC`,
    )
    .all(copyPositionId) as CopyOrderRow[];
  return rows.map((row) => ({
    price: row.price,
    size: row.size,
    pnl: row.pnl,
    realisedPnl: row.realised_pnl,
    fee: row.fee,
    isLong: row.is_long === 1,
    isIncrease: row.is_increase === 1,
    protocol: row.protocol,
    txHash: row.tx_hash,
    createdAt: isoOf(row.created_at_ms),
  }));
}
