import { prepareCached } from '../../../node/sqlite';
import type { MarkPriceOf, PositionFacts } from '../formulas/position-facts';
import type { ServiceDb } from '../../store/database';

/** The columns the analytics read, named as PositionFacts. */
export const FACTS_SELECT = `id, account, protocol, index_token AS indexToken, pair, is_long AS isLong, size, collateral,
  average_price AS averagePrice, realised_pnl AS realisedPnl, fee, funding, is_liquidate AS isLiquidate,
  order_count AS orderCount, open_time_ms AS openTimeMs, close_time_ms AS closeTimeMs`;

type FactsRow = Omit<PositionFacts, 'isLong' | 'isLiquidate'> & { isLong: number; isLiquidate: number };

/** SQLite answers 0/1 for booleans; the analytics want booleans. */
export const factsOfRow = (row: FactsRow): PositionFacts => ({
  ...row,
  isLong: row.isLong === 1,
  isLiquidate: row.isLiquidate === 1,
});

/**
 * One trader's positions, through the (protocol, account) index by name: left to itself, SQLite
 * (with no table statistics) serves the ORDER BY from the protocol-wide close-time index and scans
 * every trader's positions on the protocol.
 */
export const TRADER_FACTS_SQL = `SELECT ${FACTS_SELECT} FROM positions INDEXED BY positions_account
  WHERE protocol = ? AND account = ? ORDER BY close_time_ms, id`;

/**
 * Every position of one trader on one protocol, as facts, in the order a full recompute reads them
 * (load-columns.ts): by close time, then id, open positions first. Streaks are counted in that
 * order, and the sums then add up in the same order as the full recompute's.
 */
export function traderFacts(db: ServiceDb, account: string, protocol: string): PositionFacts[] {
  return (prepareCached(db, TRADER_FACTS_SQL).all(protocol, account) as FactsRow[]).map(factsOfRow);
}

/** The latest mark price of every token the market has priced. */
export function markPrices(db: ServiceDb): MarkPriceOf {
  const rows = db.prepare('SELECT index_token, price FROM mark_prices').all() as {
    index_token: string;
    price: number;
  }[];
  const prices = new Map(rows.map((r) => [r.index_token, r.price]));
  return (token) => prices.get(token);
}
