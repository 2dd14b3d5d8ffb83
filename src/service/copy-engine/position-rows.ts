// Copy positions as the engine reads and writes them: every stored field, bound by position.
// The rows are those of copy-trading/copy-positions.ts; the engine builds and binds them without
// object spreads, which V8 (Node 20) runs ~100× slower than a literal for objects this wide.
import type { CopyPositionInsert } from '../copy-trading/copy-positions';

/** A copy position as the engine works on it: every stored field; fills change it, then it is saved. */
export type EnginePosition = CopyPositionInsert;

/** Column of each stored field (every field: a new one fails to compile until it is mapped). */
const POSITION_COLUMNS = {
  id: 'id',
  userId: 'user_id',
  copyTradeId: 'copy_trade_id',
  copyWalletId: 'copy_wallet_id',
  copyAccount: 'copy_account',
  sourcePositionId: 'source_position_id',
  positionIndex: 'position_index',
  copyPositionIndex: 'copy_position_index',
  indexToken: 'index_token',
  identifyKey: 'identify_key',
  pair: 'pair',
  key: 'key',
  sourceOrderTxHashes: 'source_order_tx_hashes',
  sourceSizeDelta: 'source_size_delta',
  sizeDelta: 'size_delta',
  sourceInitialVol: 'source_initial_vol',
  totalSizeDelta: 'total_size_delta',
  initialVol: 'initial_vol',
  margin: 'margin',
  sizeTokens: 'size_tokens',
  isLong: 'is_long',
  isReverse: 'is_reverse',
  entryPrice: 'entry_price',
  leverage: 'leverage',
  stopLossPrice: 'stop_loss_price',
  stopLossAmount: 'stop_loss_amount',
  takeProfitPrice: 'take_profit_price',
  takeProfitAmount: 'take_profit_amount',
  pnl: 'pnl',
  realisedPnl: 'realised_pnl',
  funding: 'funding',
  fee: 'fee',
  closeType: 'close_type',
  status: 'status',
  protocol: 'protocol',
  exchange: 'exchange',
  lastOrderAtMs: 'last_order_at_ms',
  closedAtMs: 'closed_at_ms',
  createdAtMs: 'created_at_ms',
} as const satisfies Record<keyof CopyPositionInsert, string>;

const FIELDS = Object.keys(POSITION_COLUMNS) as (keyof CopyPositionInsert)[];

/** The stored columns, in the order positionOfRow and positionValues use. */
export const POSITION_COLUMNS_SQL = FIELDS.map((field) => `p.${POSITION_COLUMNS[field]}`).join(', ');

/** INSERT of a position: its values (positionValues), then updated_at_ms. */
export const INSERT_POSITION_SQL = `INSERT INTO copy_positions (${Object.values(POSITION_COLUMNS).join(', ')},
  updated_at_ms) VALUES (${FIELDS.map(() => '?').join(', ')}, ?)`;

/** What every fill may change, bound by position: see fillValues. */
export const FILL_COLUMNS_SQL = `entry_price = ?, margin = ?, size_tokens = ?, total_size_delta = ?,
  stop_loss_price = ?, stop_loss_amount = ?, take_profit_price = ?, take_profit_amount = ?,
  realised_pnl = ?, fee = ?, funding = ?, pnl = ?, last_order_at_ms = ?, updated_at_ms = ?,
  source_order_tx_hashes = ?`;

/** The values of FILL_COLUMNS_SQL (updated_at is the fill's time, as for every fill). */
export const fillValues = (p: EnginePosition): unknown[] => [
  p.entryPrice,
  p.margin,
  p.sizeTokens,
  p.totalSizeDelta,
  p.stopLossPrice,
  p.stopLossAmount,
  p.takeProfitPrice,
  p.takeProfitAmount,
  p.realisedPnl,
  p.fee,
  p.funding,
  p.pnl,
  p.lastOrderAtMs,
  p.lastOrderAtMs,
  JSON.stringify(p.sourceOrderTxHashes),
];

/** The values of POSITION_COLUMNS_SQL for `p` (SQLite binds no booleans or arrays). */
export function positionValues(p: EnginePosition): unknown[] {
  return FIELDS.map((field) => {
    const value = p[field];
    if (typeof value === 'boolean') return value ? 1 : 0;
    return Array.isArray(value) ? JSON.stringify(value) : value;
  });
}

/** A row selected with POSITION_COLUMNS_SQL in raw mode, as the engine works on it. */
export function positionOfRow(r: unknown[]): EnginePosition {
  const at = <T>(i: number) => r[i] as T;
  return {
    id: at(0),
    userId: at(1),
    copyTradeId: at(2),
    copyWalletId: at(3),
    copyAccount: at(4),
    sourcePositionId: at(5),
    positionIndex: at(6),
    copyPositionIndex: at(7),
    indexToken: at(8),
    identifyKey: at(9),
    pair: at(10),
    key: at(11),
    sourceOrderTxHashes: JSON.parse(at(12)) as string[],
    sourceSizeDelta: at(13),
    sizeDelta: at(14),
    sourceInitialVol: at(15),
    totalSizeDelta: at(16),
    initialVol: at(17),
    margin: at(18),
    sizeTokens: at(19),
    isLong: at(20) === 1,
    isReverse: at(21) === 1,
    entryPrice: at(22),
    leverage: at(23),
    stopLossPrice: at(24),
    stopLossAmount: at(25),
    takeProfitPrice: at(26),
    takeProfitAmount: at(27),
    pnl: at(28),
    realisedPnl: at(29),
    funding: at(30),
    fee: at(31),
    closeType: at(32),
    status: at(33),
    protocol: at(34),
    exchange: at(35),
    lastOrderAtMs: at(36),
    closedAtMs: at(37),
    createdAtMs: at(38),
  };
}
