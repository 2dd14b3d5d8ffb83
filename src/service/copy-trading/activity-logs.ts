// Activity logs of copied actions (docs/api.md, Activity log) and `POST /activity-logs/page`.
import type {
  ACTIVITY_SORT_FIELDS,
  ActivityLog,
  ActivityLogsPageBody,
  ActivityType,
} from '../../shared/api/activity-logs';
import type { Paged, Pagination, RangeCondition } from '../../shared/api/common';
import { prepareCached } from '../../node/sqlite';
import { ServiceError } from '../http/errors';
import type { ServiceDb } from '../store/database';
import { isoOf } from './money';
import { addressMatch, inMatch, orderBy, pageMeta, Where } from './paging';

/** Everything a new activity log row holds; `reason` says why a failed action failed. */
export interface ActivityLogInsert {
  id: string;
  userId: string;
  copyTradeId: string;
  copyWalletId: string;
  copyPositionId: string | null;
  copyOrderId: string | null;
  protocol: string;
  sourceAccount: string;
  copyTradeTitle: string;
  exchange: string;
  indexToken: string;
  pair: string;
  sourceTxHash: string;
  copyWalletName: string;
  cexOrderId: string | null;
  price: number;
  sourcePrice: number;
  volume: number;
  leverage: number;
  isLong: boolean;
  isSuccess: boolean;
  isReverse: boolean;
  type: ActivityType;
  reason: string;
  createdAtMs: number;
}

interface ActivityLogRow {
  id: string;
  user_id: string;
  copy_trade_id: string;
  copy_wallet_id: string;
  copy_position_id: string | null;
  copy_order_id: string | null;
  protocol: string;
  source_account: string;
  copy_trade_title: string;
  exchange: string;
  index_token: string;
  pair: string;
  source_tx_hash: string;
  copy_wallet_name: string;
  cex_order_id: string | null;
  price: number;
  source_price: number;
  volume: number;
  leverage: number;
  is_long: number;
  is_success: number;
  is_reverse: number;
  type: ActivityType;
  reason: string;
  created_at_ms: number;
}

/** Writes an activity log; `seq` orders the user's logs that share a millisecond. */
export function insertActivityLog(db: ServiceDb, a: ActivityLogInsert): void {
  prepareCached(
    db,
    `INSERT INTO activity_logs (id, user_id, copy_trade_id, copy_wallet_id, copy_position_id, copy_order_id,
       protocol, source_account, copy_trade_title, exchange, index_token, pair, source_tx_hash,
       copy_wallet_name, cex_order_id, price, source_price, volume, leverage, is_long, is_success,
       is_reverse, type, reason, created_at_ms, seq)
     VALUES (@id, @userId, @copyTradeId, @copyWalletId, @copyPositionId, @copyOrderId, @protocol,
       @sourceAccount, @copyTradeTitle, @exchange, @indexToken, @pair, @sourceTxHash, @copyWalletName,
       @cexOrderId, @price, @sourcePrice, @volume, @leverage, @isLong, @isSuccess, @isReverse, @type,
       @reason, @createdAtMs, (SELECT COALESCE(MAX(seq), 0) + 1 FROM activity_logs WHERE user_id = @userId))`,
  ).run({ ...a, isLong: a.isLong ? 1 : 0, isSuccess: a.isSuccess ? 1 : 0, isReverse: a.isReverse ? 1 : 0 });
}

/**
 * Adds the wire's `reason` to a failed action that recorded why. Assigned after the literal, not
 * spread into it: the engine builds one of these per fill, and V8 (Node 20) builds a spread
 * object this wide ~100× slower (copy-engine/book.ts).
 */
function withReason(log: ActivityLog, reason: string): ActivityLog {
  if (!log.isSuccess && reason !== '') log.reason = reason;
  return log;
}

/** The wire shape of a log as it was written (what the read back would answer). */
export function activityLogOf(a: ActivityLogInsert): ActivityLog {
  const log: ActivityLog = {
    id: a.id,
    protocol: a.protocol,
    sourceAccount: a.sourceAccount,
    userId: a.userId,
    copyOrderId: a.copyOrderId,
    copyTradeTitle: a.copyTradeTitle,
    exchange: a.exchange,
    indexToken: a.indexToken,
    pair: a.pair,
    copyTradeId: a.copyTradeId,
    sourceTxHash: a.sourceTxHash,
    copyWalletId: a.copyWalletId,
    copyWalletName: a.copyWalletName,
    copyPositionId: a.copyPositionId,
    createdAt: isoOf(a.createdAtMs),
    cexOrderId: a.cexOrderId,
    price: a.price,
    sourcePrice: a.sourcePrice,
    volume: a.volume,
    leverage: a.leverage,
    isLong: a.isLong,
    isSuccess: a.isSuccess,
    isReverse: a.isReverse,
    type: a.type,
  };
  return withReason(log, a.reason);
}

function toActivityLog(row: ActivityLogRow): ActivityLog {
  const log: ActivityLog = {
    id: row.id,
    protocol: row.protocol,
    sourceAccount: row.source_account,
    userId: row.user_id,
    copyOrderId: row.copy_order_id,
    copyTradeTitle: row.copy_trade_title,
    exchange: row.exchange,
    indexToken: row.index_token,
    pair: row.pair,
    copyTradeId: row.copy_trade_id,
    sourceTxHash: row.source_tx_hash,
    copyWalletId: row.copy_wallet_id,
    copyWalletName: row.copy_wallet_name,
    copyPositionId: row.copy_position_id,
    createdAt: isoOf(row.created_at_ms),
    cexOrderId: row.cex_order_id,
    price: row.price,
    sourcePrice: row.source_price,
    volume: row.volume,
    leverage: row.leverage,
    isLong: row.is_long === 1,
    isSuccess: row.is_success === 1,
    isReverse: row.is_reverse === 1,
    type: row.type,
  };
  return withReason(log, row.reason);
}

type SortField = (typeof ACTIVITY_SORT_FIELDS)[number];
/** The column of each `sortBy` value the contract allows. */
const SORT_COLUMNS: Record<SortField, string> = {
  createdAt: 'created_at_ms',
  price: 'price',
  volume: 'volume',
  leverage: 'leverage',
};

const ID_COLUMNS = { copyTradeId: 'copy_trade_id', copyWalletId: 'copy_wallet_id' } as const;
const SET_OPS = ['in', 'nin'] as const;
const BOUND_OPS = { gte: '>=', lte: '<=', gt: '>', lt: '<' } as const;

const invalid = (message: string) => new ServiceError('VALIDATION_FAILED', message);

function textValues(values: readonly unknown[], at: string): string[] {
  return values.map((v, i) => {
    if (typeof v !== 'string') throw invalid(`${at}[${i}] must be a string`);
    return v;
  });
}

/** An ISO timestamp, epoch ms, or epoch ms as text → epoch ms. */
function timeBound(value: unknown, at: string): number {
  const ms =
    typeof value === 'number'
      ? value
      : /^\d+$/.test(String(value))
        ? Number(value)
        : Date.parse(String(value));
  if (!Number.isFinite(ms)) throw invalid(`${at} must be an ISO 8601 timestamp or epoch milliseconds`);
  return ms;
}

/** `in`/`nin` on sourceAccount, copyTradeId, copyWalletId; `gte`/`lte`/`gt`/`lt` on createdAt. */
function addRange(where: Where, range: RangeCondition, at: string): void {
  const field = range.fieldName;
  if (field === 'createdAt') {
    for (const op of SET_OPS) {
      if (range[op] !== undefined)
        throw invalid(`${at}.${op} is not supported on createdAt; use gte, lte, gt or lt`);
    }
    for (const [op, sqlOp] of Object.entries(BOUND_OPS) as [keyof typeof BOUND_OPS, string][]) {
      if (range[op] !== undefined) where.add(`created_at_ms ${sqlOp} ?`, timeBound(range[op], `${at}.${op}`));
    }
    return;
  }
  for (const op of Object.keys(BOUND_OPS) as (keyof typeof BOUND_OPS)[]) {
    if (range[op] !== undefined) throw invalid(`${at}.${op} is not supported on ${field}; use in or nin`);
  }
  for (const op of SET_OPS) {
    const list = range[op];
    if (list === undefined) continue;
    const values = textValues(list, `${at}.${op}`);
    const match =
      field === 'sourceAccount'
        ? addressMatch('source_account', values)
        : inMatch(ID_COLUMNS[field as keyof typeof ID_COLUMNS], values);
    where.add(op === 'in' ? match.sql : `NOT (${match.sql})`, ...match.params);
  }
}

/** One page of the user's activity logs; newest first unless `sortBy`/`sortType` say otherwise. */
export function pageActivityLogs(
  db: ServiceDb,
  userId: string,
  body: ActivityLogsPageBody,
  page: Pagination,
): Paged<ActivityLog> {
  const where = new Where().add('user_id = ?', userId);
  body.ranges.forEach((range, i) => addRange(where, range, `ranges[${i}]`));
  const order = orderBy(SORT_COLUMNS[(body.sortBy ?? 'createdAt') as SortField], body.sortType, 'seq', 'id');
  const rows = db
    .prepare(`SELECT * FROM activity_logs ${where.toSql()} ${order} LIMIT ? OFFSET ?`)
    .all(...where.params, page.limit, page.offset) as ActivityLogRow[];
  const { n } = db
    .prepare(`SELECT COUNT(*) AS n FROM activity_logs ${where.toSql()}`)
    .get(...where.params) as {
    n: number;
  };
  return { data: rows.map(toActivityLog), meta: pageMeta(page.limit, page.offset, n) };
}
