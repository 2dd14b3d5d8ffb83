import { getAddress } from 'viem';
import { derivePosition, type PositionFacts } from '../statistics/formulas/position-facts';
import { ServiceError } from '../http/errors';
import type { ServiceDb } from '../store/database';
import { positionWriters, type OrderRow, type PositionRow } from '../store/positions';
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
 * Applies a USD-notional trader order to that trader's positions (docs/semantics.md): OPEN starts a
 * position at the fill price; INCREASE adds tokens at the size-weighted mean entry; DECREASE closes
 * sizeDelta / entry tokens and realises (price − entry) × tokens (negated for shorts); CLOSE (or a
 * liquidation) closes the rest; MARGIN_TRANSFERRED adds collateral only. Size is the peak notional.
 */
export function applySandboxOrder(db: ServiceDb, order: SandboxOrder, at: string): AppliedOrder {
  const account = getAddress(order.account);
  const open = prepareCached(db, OPEN_SOURCE_POSITION_SQL).get(order.protocol, account, order.indexToken) as
    PositionRow | undefined;
  check(order, open, at);
  const before = open
    ? { size: open.size_in_token * open.average_price, collateral: open.collateral }
    : { size: 0, collateral: 0 };
  const next = nextPosition(order, account, open);
  next.row.pair = pairOf(db, order);
  const row = withOrder(next, order);
  const write = positionWriters(db);
  write.position(row);
  write.order(orderRow(order, row, account, row.realised_pnl - (open?.realised_pnl ?? 0)));
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
}

interface Working {
  row: PositionRow;
  tokens: number;
}

function nextPosition(order: SandboxOrder, account: string, open: PositionRow | undefined): Working {
  if (!open) {
    const tokens = order.sizeDeltaNumber / order.priceNumber;
    return { row: newRow(order, account), tokens };
  }
  const row = { ...open };
  let tokens = open.size_in_token;
  const sign = open.is_long === 1 ? 1 : -1;
  if (order.type === 'INCREASE') {
    const added = order.sizeDeltaNumber / order.priceNumber;
    row.average_price = (open.average_price * tokens + order.priceNumber * added) / (tokens + added);
    tokens += added;
    row.collateral += order.collateralDeltaNumber;
    row.order_increase_count += 1;
  } else if (order.type === 'MARGIN_TRANSFERRED') {
    row.collateral += order.collateralDeltaNumber;
  } else {
    const closing = order.type === 'CLOSE' || order.isLiquidate === true;
    // A decrease's USD size is valued at the entry; anything at or past the rest closes it.
    const closed = closing ? tokens : Math.min(tokens, order.sizeDeltaNumber / open.average_price);
    row.realised_pnl += sign * (order.priceNumber - open.average_price) * closed;
    tokens = closing || closed >= tokens * (1 - 1e-12) ? 0 : tokens - closed;
    row.order_decrease_count += 1;
  }
  row.size = Math.max(row.size, tokens * row.average_price);
  return { row, tokens };
}

function newRow(order: SandboxOrder, account: string): PositionRow {
  return {
    id: `sandbox-${order.id}`,
    account,
    protocol: order.protocol,
    key: `sandbox:${account}:${order.indexToken}:${order.isLong ? 'long' : 'short'}`,
    log_id: 0,
    open_block_number: 0,
    close_block_number: null,
    open_time_ms: order.blockTime,
    close_time_ms: null,
    index_token: order.indexToken,
    collateral_token: null,
    pair: order.indexToken,
    size: order.sizeDeltaNumber,
    size_in_token: 0,
    collateral: order.collateralDeltaNumber,
    average_price: order.priceNumber,
    fee: 0,
    funding: 0,
    realised_pnl: 0,
    pnl: 0,
    roi: 0,
    realised_roi: 0,
    leverage: 0,
    is_long: order.isLong ? 1 : 0,
    is_win: null,
    is_liquidate: 0,
    order_count: 0,
    order_increase_count: 1,
    order_decrease_count: 0,
    duration_s: null,
    status: 'OPEN',
    tx_hashes: '[]',
    created_at_ms: order.blockTime,
    updated_at_ms: order.blockTime,
  };
}

/** The position after the order, with its derived fields recomputed by docs/semantics.md. */
function withOrder(w: Working, order: SandboxOrder): PositionRow {
  const row = w.row;
  row.size_in_token = w.tokens;
  if (order.type !== 'MARGIN_TRANSFERRED') row.order_count += 1;
  row.tx_hashes = JSON.stringify([...(JSON.parse(row.tx_hashes) as string[]), order.txHash]);
  row.updated_at_ms = order.blockTime;
  if (w.tokens === 0) {
    row.status = 'CLOSE';
    row.close_time_ms = order.blockTime;
    row.is_liquidate = order.isLiquidate ? 1 : 0;
  }
  const facts: PositionFacts = {
    id: row.id,
    account: row.account,
    protocol: row.protocol,
    indexToken: row.index_token,
    pair: row.pair,
    isLong: row.is_long === 1,
    size: row.size,
    collateral: row.collateral,
    averagePrice: row.average_price,
    realisedPnl: row.realised_pnl,
    fee: row.fee,
    funding: row.funding,
    isLiquidate: row.is_liquidate === 1,
    orderCount: row.order_count,
    openTimeMs: row.open_time_ms,
    closeTimeMs: row.close_time_ms,
  };
  const d = derivePosition(facts);
  return {
    ...row,
    pnl: d.pnl,
    roi: d.roi,
    realised_roi: d.realisedRoi,
    leverage: d.leverage,
    is_win: d.isWin === null ? null : d.isWin ? 1 : 0,
    duration_s: d.durationInSecond,
  };
}

function orderRow(order: SandboxOrder, row: PositionRow, account: string, realised: number): OrderRow {
  return {
    id: order.id,
    position_id: row.id,
    account,
    protocol: order.protocol,
    key: row.key,
    tx_hash: order.txHash,
    index_token: order.indexToken,
    collateral_token: null,
    pair: row.pair,
    type: order.type,
    is_long: row.is_long,
    size_delta: order.sizeDeltaNumber,
    size: row.size_in_token * row.average_price,
    size_delta_in_token: order.sizeDeltaNumber / order.priceNumber,
    size_in_token: row.size_in_token,
    collateral_delta: order.collateralDeltaNumber,
    collateral: row.collateral,
    price: order.priceNumber,
    average_price: row.average_price,
    realised_pnl: realised,
    fee: 0,
    funding: 0,
    leverage: row.leverage,
    log_id: 0,
    block_number: 0,
    block_time_ms: order.blockTime,
    created_at_ms: order.blockTime,
  };
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
