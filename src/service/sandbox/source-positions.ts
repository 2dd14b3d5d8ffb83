import { getAddress } from 'viem';
import { ServiceError } from '../http/errors';
import type { ServiceDb } from '../store/database';
import { positionWriters, type PositionRow } from '../store/positions';
import type { SeriesKey } from '../positions/keys';
import { LedgerError, PositionLedger, type TypedFill } from '../positions/ledger';
import { usdToUnits } from '../positions/units';
import { prepareCached } from '../../node/sqlite';
import type { SourceOrder } from '../copy-engine/types';
import type { SandboxOrder } from './schemas';

/** What applying one order did: the source order for the copy engine, and whether a position closed. */
export interface AppliedOrder {
  source: SourceOrder;
  closed: boolean;
}

/**
 * The trader's open position in a token, through the (protocol, account) index by name: SQLite
 * would otherwise pick an index on (protocol, status) and read every open position on the protocol.
 */
export const OPEN_SOURCE_POSITION_SQL = `SELECT * FROM positions INDEXED BY positions_account
  WHERE protocol = ? AND account = ? AND index_token = ? AND status = 'OPEN'`;

/**
 * Applies a USD-notional trader order to that trader's positions through the position engine
 * (src/service/positions/, docs/semantics.md): OPEN starts a position at the fill price; INCREASE
 * adds sizeDelta / price tokens at the size-weighted mean entry; DECREASE closes sizeDelta / entry
 * tokens (a decrease's USD size is valued at the entry) and realises (price − entry) × tokens,
 * negated for shorts; CLOSE (or a liquidation) closes the rest; MARGIN_TRANSFERRED adds collateral
 * only. The collateral is the sum of the orders' collateral deltas; size is the peak notional.
 */
export function applySandboxOrder(db: ServiceDb, order: SandboxOrder, at: string): AppliedOrder {
  const account = getAddress(order.account);
  const open = prepareCached(db, OPEN_SOURCE_POSITION_SQL).get(order.protocol, account, order.indexToken) as
    PositionRow | undefined;
  check(order, open, at);
  const before = open
    ? { size: open.size_in_token * open.average_price, collateral: open.collateral }
    : { size: 0, collateral: 0 };
  const pair = pairOf(db, order);
  const series: SeriesKey = { account, protocol: order.protocol, symbol: pair, indexToken: order.indexToken };
  const ledger = open ? PositionLedger.resume(series, open, { pair }) : new PositionLedger(series, { pair });
  try {
    book(ledger, order, open);
  } catch (error) {
    if (error instanceof LedgerError) throw invalid(`${at}: ${error.message}`);
    throw error;
  }
  const { positions, orders } = ledger.drain();
  const write = positionWriters(db);
  for (const p of positions) write.position(p);
  for (const o of orders) write.order(o);
  const row = positions.at(-1) as PositionRow;
  const source: SourceOrder = {
    id: order.id,
    account,
    protocol: order.protocol,
    indexToken: order.indexToken,
    isLong: row.is_long === 1,
    type: order.type,
    sizeDeltaUsd: order.sizeDeltaNumber,
    collateralDeltaUsd: order.collateralDeltaNumber,
    sizeBeforeUsd: before.size,
    collateralBeforeUsd: before.collateral,
    price: order.priceNumber,
    blockTimeMs: order.blockTime,
    txHash: order.txHash,
    isLiquidate: order.isLiquidate === true,
  };
  return { source, closed: row.status === 'CLOSE' };
}

function check(order: SandboxOrder, open: PositionRow | undefined, at: string): void {
  if (order.type === 'OPEN' && open)
    throw invalid(
      `${at}.type is OPEN but ${order.account} has an open position on ${order.indexToken}; send INCREASE`,
    );
  if (order.type !== 'OPEN' && !open)
    throw invalid(
      `${at}.type is ${order.type} but ${order.account} has no open position on ${order.indexToken} (${order.protocol})`,
    );
  if (open && (open.is_long === 1) !== order.isLong)
    throw invalid(`${at}.isLong does not match the open position's side`);
  if (open && order.blockTime < open.updated_at_ms)
    throw invalid(`${at}.blockTime is before the position's last order`);
  if (order.type === 'OPEN' && order.sizeDeltaNumber === 0)
    throw invalid(`${at}.sizeDeltaNumber must be more than 0 for an OPEN`);
}

/**
 * The order as the engine's transition: the sandbox names its orders and positions itself (the
 * order's id; the position by the order that opened it) and has no log index or fee.
 */
function book(ledger: PositionLedger, order: SandboxOrder, open: PositionRow | undefined): void {
  const fill: TypedFill = {
    id: order.id,
    ids: { order: order.id, position: `sandbox-${order.id}` },
    timeMs: order.blockTime,
    isLong: order.isLong,
    price: order.priceNumber,
    amount: { usd: order.sizeDeltaNumber },
    isLiquidation: order.isLiquidate === true,
    txHash: order.txHash,
    logId: 0,
  };
  const collateral = (open?.collateral ?? 0) + order.collateralDeltaNumber;
  // The order's own collateral delta is booked where it adds collateral; a close withdraws it all.
  const adds = { ...fill, collateral, collateralDelta: order.collateralDeltaNumber };
  if (order.type === 'MARGIN_TRANSFERRED') ledger.transferMargin(adds, collateral);
  else if (order.type === 'OPEN' || order.type === 'INCREASE') ledger.applyTyped(order.type, adds);
  else ledger.applyTyped(order.type, fill, closedUnits(order, open as PositionRow, ledger));
}

/**
 * The tokens a DECREASE closes: its USD size at the entry, capped at what is held; within 1e-12 of
 * all of it, all of it (the USD size of the whole position, sent back, comes to the held tokens
 * only to floating-point rounding). A CLOSE or a liquidation closes everything.
 */
function closedUnits(order: SandboxOrder, open: PositionRow, ledger: PositionLedger): bigint {
  const held = ledger.netUnits < 0n ? -ledger.netUnits : ledger.netUnits;
  if (order.type === 'CLOSE' || order.isLiquidate === true) return held;
  const units = usdToUnits(order.sizeDeltaNumber, open.average_price);
  return units >= held - held / 1_000_000_000_000n ? held : units;
}

/** `SYMBOL/USD` when the token is listed for the protocol, else the token itself. */
function pairOf(db: ServiceDb, order: SandboxOrder): string {
  const symbol = prepareCached(
    db,
    'SELECT symbol FROM tokens WHERE protocol = ? AND index_token = ?',
    'pluck',
  ).get(order.protocol, order.indexToken) as string | undefined;
  return symbol ? `${symbol}/USD` : order.indexToken;
}

const invalid = (message: string) => new ServiceError('VALIDATION_FAILED', message);
