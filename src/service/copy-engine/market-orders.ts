import type { CopyEvent, SourceOrder } from './types';
import type { CopyEnginePort } from '../sandbox/engine-port';
import type { ServiceDb } from '../store/database';
import type { OrderRow, PositionRow } from '../store/positions';

/**
 * The copy engine's view of an order the market wrote (the live simulator): the position's size
 * and collateral before the order come from the order's own after-values and deltas.
 */
export function sourceOrderOf(order: OrderRow, position: PositionRow): SourceOrder {
  const grows = order.type === 'OPEN' || order.type === 'INCREASE';
  const sizeBefore =
    order.type === 'OPEN'
      ? 0
      : order.type === 'MARGIN_TRANSFERRED'
        ? order.size
        : grows
          ? order.size - order.size_delta
          : order.size + order.size_delta;
  const collateralBefore =
    order.type === 'OPEN'
      ? 0
      : grows || order.type === 'MARGIN_TRANSFERRED'
        ? order.collateral - order.collateral_delta
        : order.collateral + order.collateral_delta;
  return {
    id: order.id,
    account: order.account,
    protocol: order.protocol,
    indexToken: order.index_token,
    isLong: order.is_long === 1,
    type: order.type,
    sizeDeltaUsd: order.size_delta,
    collateralDeltaUsd: order.collateral_delta,
    sizeBeforeUsd: Math.max(0, sizeBefore),
    collateralBeforeUsd: Math.max(0, collateralBefore),
    price: order.price,
    blockTimeMs: order.block_time_ms,
    txHash: order.tx_hash,
    isLiquidate: order.type === 'CLOSE' && position.is_liquidate === 1,
  };
}

/**
 * Copies the source orders the market committed but the engine never processed — the live
 * market commits an order before the engine copies it, so a crash in between leaves such orders.
 * Only orders after the last processed one count: history from before copying began is not copied.
 */
export function catchUpSourceOrders(
  db: ServiceDb,
  engine: CopyEnginePort,
  log: (message: string) => void = (message) => console.error(`copydesk service: ${message}`),
): CopyEvent[] {
  const last = db
    .prepare('SELECT MAX(o.block_time_ms) FROM orders o JOIN copy_source_orders c ON c.id = o.id')
    .pluck()
    .get() as number | null;
  if (last === null) return [];
  const missed = db
    .prepare(
      `SELECT o.*, p.is_liquidate AS position_is_liquidate FROM orders o JOIN positions p ON p.id = o.position_id
       WHERE o.block_time_ms >= ? AND NOT EXISTS (SELECT 1 FROM copy_source_orders c WHERE c.id = o.id)
       ORDER BY o.block_time_ms, o.id`,
    )
    .all(last) as (OrderRow & { position_is_liquidate: number })[];
  // An order the engine cannot copy is skipped with a log line: it must not keep the service
  // from starting (it stays unmarked; the copies of the others commit).
  return missed.flatMap((row) => {
    try {
      return engine.processSourceOrder(
        sourceOrderOf(row, { is_liquidate: row.position_is_liquidate } as PositionRow),
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log(`catch-up skipped source order ${row.id}: ${message.slice(0, 300)}`);
      return [];
    }
  });
}
