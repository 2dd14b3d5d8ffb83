// Copy positions in the store, and the `POST /copy-positions/page` query.
import type { Paged, PositionStatus } from '../../shared/api/common';
import type {
  CloseType,
  COPY_POSITION_SORT_FIELDS,
  CopyPosition,
  CopyPositionsPageBody,
  CopyPositionsPageQuery,
} from '../../shared/api/copy-positions';
import { prepareCached } from '../../node/sqlite';
import type { ServiceDb } from '../store/database';
import { isoOf } from './money';
import { orderBy, pageMeta, Where } from './paging';

/** Everything a new copy position row holds; times are epoch ms. */
export interface CopyPositionInsert {
  id: string;
  userId: string;
  copyTradeId: string;
  copyWalletId: string;
  copyAccount: string;
  sourcePositionId: string | null;
  positionIndex: number;
  copyPositionIndex: number;
  indexToken: string;
  identifyKey: string;
  pair: string;
  key: string;
  sourceOrderTxHashes: string[];
  sourceSizeDelta: string;
  sizeDelta: string;
  sourceInitialVol: string;
  totalSizeDelta: number;
  initialVol: number;
  /** Margin the position holds now (USD); it makes the wallet's available balance. */
  margin: number;
  /** Open size in tokens now; unrealised PnL is computed on it. */
  sizeTokens: number;
  isLong: boolean;
  isReverse: boolean;
  entryPrice: number;
  leverage: number;
  stopLossPrice: number | null;
  stopLossAmount: number | null;
  takeProfitPrice: number | null;
  takeProfitAmount: number | null;
  pnl: number;
  realisedPnl: number;
  funding: number;
  fee: number;
  closeType: CloseType | null;
  status: PositionStatus;
  protocol: string;
  exchange: string;
  lastOrderAtMs: number;
  closedAtMs: number | null;
  createdAtMs: number;
}

interface CopyPositionRow {
  id: string;
  user_id: string;
  copy_trade_id: string;
  copy_account: string;
  position_index: number;
  copy_position_index: number;
  index_token: string;
  identify_key: string;
  pair: string;
  key: string;
  source_order_tx_hashes: string;
  source_size_delta: string;
  size_delta: string;
  source_initial_vol: string;
  total_size_delta: number;
  initial_vol: number;
  is_long: number;
  is_reverse: number;
  entry_price: number;
  leverage: number;
  stop_loss_price: number | null;
  stop_loss_amount: number | null;
  take_profit_price: number | null;
  take_profit_amount: number | null;
  pnl: number;
  realised_pnl: number;
  funding: number;
  fee: number;
  close_type: CloseType | null;
  status: PositionStatus;
  protocol: string;
  exchange: string;
  last_order_at_ms: number;
  created_at_ms: number;
  copy_trade_title: string;
}

/** Column ← CopyPositionInsert field (plus updatedAtMs), so the INSERT names each pair once. */
const INSERT_COLUMNS = {
  id: 'id',
  user_id: 'userId',
  copy_trade_id: 'copyTradeId',
  copy_wallet_id: 'copyWalletId',
  copy_account: 'copyAccount',
  source_position_id: 'sourcePositionId',
  position_index: 'positionIndex',
  copy_position_index: 'copyPositionIndex',
  index_token: 'indexToken',
  identify_key: 'identifyKey',
  pair: 'pair',
  key: 'key',
  source_order_tx_hashes: 'sourceOrderTxHashes',
  source_size_delta: 'sourceSizeDelta',
  size_delta: 'sizeDelta',
  source_initial_vol: 'sourceInitialVol',
  total_size_delta: 'totalSizeDelta',
  initial_vol: 'initialVol',
  margin: 'margin',
  size_tokens: 'sizeTokens',
  is_long: 'isLong',
  is_reverse: 'isReverse',
  entry_price: 'entryPrice',
  leverage: 'leverage',
  stop_loss_price: 'stopLossPrice',
  stop_loss_amount: 'stopLossAmount',
  take_profit_price: 'takeProfitPrice',
  take_profit_amount: 'takeProfitAmount',
  pnl: 'pnl',
  realised_pnl: 'realisedPnl',
  funding: 'funding',
  fee: 'fee',
  close_type: 'closeType',
  status: 'status',
  protocol: 'protocol',
  exchange: 'exchange',
  last_order_at_ms: 'lastOrderAtMs',
  closed_at_ms: 'closedAtMs',
  created_at_ms: 'createdAtMs',
  updated_at_ms: 'updatedAtMs',
} as const satisfies Record<string, keyof CopyPositionInsert | 'updatedAtMs'>;

const INSERT_SQL = `INSERT INTO copy_positions (${Object.keys(INSERT_COLUMNS).join(', ')})
  VALUES (${Object.values(INSERT_COLUMNS)
    .map((field) => `@${field}`)
    .join(', ')})`;

/** Writes a copy position. */
export function insertCopyPosition(db: ServiceDb, p: CopyPositionInsert): void {
  prepareCached(db, INSERT_SQL).run({
    ...p,
    // SQLite binds no booleans or arrays.
    sourceOrderTxHashes: JSON.stringify(p.sourceOrderTxHashes),
    isLong: p.isLong ? 1 : 0,
    isReverse: p.isReverse ? 1 : 0,
    updatedAtMs: Math.max(p.lastOrderAtMs, p.closedAtMs ?? 0, p.createdAtMs),
  });
}

/** Every column but updated_at_ms as its CopyPositionInsert field, for SELECT lists over `p`. */
export const COPY_POSITION_FIELDS_SQL = Object.entries(INSERT_COLUMNS)
  .filter(([column]) => column !== 'updated_at_ms')
  .map(([column, field]) => `p.${column} AS "${field}"`)
  .join(', ');

/** A row selected with COPY_POSITION_FIELDS_SQL, back in the shape it was written from. */
export function copyPositionInsertOf(row: Record<string, unknown>): CopyPositionInsert {
  const stored = row as unknown as Omit<
    CopyPositionInsert,
    'sourceOrderTxHashes' | 'isLong' | 'isReverse'
  > & {
    sourceOrderTxHashes: string;
    isLong: number;
    isReverse: number;
  };
  return {
    ...stored,
    sourceOrderTxHashes: JSON.parse(stored.sourceOrderTxHashes) as string[],
    isLong: stored.isLong === 1,
    isReverse: stored.isReverse === 1,
  };
}

/** The wire shape of a position held in memory (what reading it back would answer). */
export function copyPositionOf(p: CopyPositionInsert, copyTradeTitle: string): CopyPosition {
  return {
    id: p.id,
    userId: p.userId,
    copyTradeId: p.copyTradeId,
    copyAccount: p.copyAccount,
    positionIndex: p.positionIndex,
    copyPositionIndex: p.copyPositionIndex,
    indexToken: p.indexToken,
    identifyKey: p.identifyKey,
    pair: p.pair,
    key: p.key,
    sourceOrderTxHashes: [...p.sourceOrderTxHashes],
    sourceSizeDelta: p.sourceSizeDelta,
    sizeDelta: p.sizeDelta,
    sourceInitialVol: p.sourceInitialVol,
    totalSizeDelta: p.totalSizeDelta,
    initialVol: p.initialVol,
    isLong: p.isLong,
    isReverse: p.isReverse,
    entryPrice: p.entryPrice,
    leverage: p.leverage,
    stopLossPrice: p.stopLossPrice,
    stopLossAmount: p.stopLossAmount,
    takeProfitPrice: p.takeProfitPrice,
    takeProfitAmount: p.takeProfitAmount,
    pnl: p.pnl,
    realisedPnl: p.realisedPnl,
    funding: p.funding,
    fee: p.fee,
    closeType: p.closeType,
    status: p.status,
    protocol: p.protocol,
    exchange: p.exchange,
    lastOrderAt: isoOf(p.lastOrderAtMs),
    createdAt: isoOf(p.createdAtMs),
    copyTradeTitle,
  };
}

function toCopyPosition(row: CopyPositionRow): CopyPosition {
  return {
    id: row.id,
    userId: row.user_id,
    copyTradeId: row.copy_trade_id,
    copyAccount: row.copy_account,
    positionIndex: row.position_index,
    copyPositionIndex: row.copy_position_index,
    indexToken: row.index_token,
    identifyKey: row.identify_key,
    pair: row.pair,
    key: row.key,
    sourceOrderTxHashes: JSON.parse(row.source_order_tx_hashes) as string[],
    sourceSizeDelta: row.source_size_delta,
    sizeDelta: row.size_delta,
    sourceInitialVol: row.source_initial_vol,
    totalSizeDelta: row.total_size_delta,
    initialVol: row.initial_vol,
    isLong: row.is_long === 1,
    isReverse: row.is_reverse === 1,
    entryPrice: row.entry_price,
    leverage: row.leverage,
    stopLossPrice: row.stop_loss_price,
    stopLossAmount: row.stop_loss_amount,
    takeProfitPrice: row.take_profit_price,
    takeProfitAmount: row.take_profit_amount,
    pnl: row.pnl,
    realisedPnl: row.realised_pnl,
    funding: row.funding,
    fee: row.fee,
    closeType: row.close_type,
    status: row.status,
    protocol: row.protocol,
    exchange: row.exchange,
    lastOrderAt: isoOf(row.last_order_at_ms),
    createdAt: isoOf(row.created_at_ms),
    copyTradeTitle: row.copy_trade_title,
  };
}

type SortField = (typeof COPY_POSITION_SORT_FIELDS)[number];
/** The column of each `sort_by` value the contract allows. */
const SORT_COLUMNS: Record<SortField, string> = {
  createdAt: 'p.created_at_ms',
  lastOrderAt: 'p.last_order_at_ms',
  pnl: 'p.pnl',
  realisedPnl: 'p.realised_pnl',
  fee: 'p.fee',
  entryPrice: 'p.entry_price',
  leverage: 'p.leverage',
  initialVol: 'p.initial_vol',
  totalSizeDelta: 'p.total_size_delta',
};

// The title lives in the copy trade's config; the join is on the trade, which the user owns too.
const FROM_SQL = `FROM copy_positions p JOIN copy_trades t ON t.id = p.copy_trade_id`;
const SELECT_SQL = `SELECT p.*, json_extract(t.config, '$.title') AS copy_trade_title ${FROM_SQL}`;

function pageWhere(userId: string, query: CopyPositionsPageQuery, body: CopyPositionsPageBody): Where {
  const where = new Where().add('p.user_id = ?', userId);
  if (query.status) where.addIn('p.status', query.status);
  if (query.isLong !== undefined) where.add('p.is_long = ?', query.isLong ? 1 : 0);
  if (body.copyTradeIds) where.addIn('p.copy_trade_id', body.copyTradeIds);
  if (body.traders) where.addAddresses('p.copy_account', body.traders);
  if (body.copyWalletId !== undefined) where.add('p.copy_wallet_id = ?', body.copyWalletId);
  if (body.copyWalletIds) where.addIn('p.copy_wallet_id', body.copyWalletIds);
  return where;
}

/** One page of the user's copy positions; newest first unless `sort_by`/`sort_type` say otherwise. */
export function pageCopyPositions(
  db: ServiceDb,
  userId: string,
  query: CopyPositionsPageQuery,
  body: CopyPositionsPageBody,
): Paged<CopyPosition> {
  const where = pageWhere(userId, query, body);
  const order = orderBy(SORT_COLUMNS[(query.sort_by ?? 'createdAt') as SortField], query.sort_type, 'p.id');
  const rows = db
    .prepare(`${SELECT_SQL} ${where.toSql()} ${order} LIMIT ? OFFSET ?`)
    .all(...where.params, query.limit, query.offset) as CopyPositionRow[];
  const { n } = db.prepare(`SELECT COUNT(*) AS n ${FROM_SQL} ${where.toSql()}`).get(...where.params) as {
    n: number;
  };
  return { data: rows.map(toCopyPosition), meta: pageMeta(query.limit, query.offset, n) };
}

/** The copy position with this id as the wire shows it, or null. */
export function findCopyPosition(db: ServiceDb, id: string): CopyPosition | null {
  const row = prepareCached(db, `${SELECT_SQL} WHERE p.id = ?`).get(id) as CopyPositionRow | undefined;
  return row ? toCopyPosition(row) : null;
}

/** Whether the user owns the copy position with this id. */
export function ownsCopyPosition(db: ServiceDb, userId: string, id: string): boolean {
  return (
    db.prepare('SELECT 1 FROM copy_positions WHERE id = ? AND user_id = ?').get(id, userId) !== undefined
  );
}
