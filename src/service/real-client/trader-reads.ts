// One trader's reads that the real web client makes beside the spec's (docs/real-clients.md):
// where the trader trades, the daily PnL, per-token results, open positions and the last order.
// Each is a query over the service's own positions, orders and statistic records.
import type { Order, Position } from '../../shared/api/positions';
import type {
  OpeningPositionsQuery,
  TokenStatistic,
  TokenStatisticQuery,
  TraderExchanges,
  TraderPnlDay,
  TraderPnlQuery,
} from '../../shared/api/real-client';
import type { Paged } from '../../shared/api/common';
import { prepareCached } from '../../node/sqlite';
import { DAY_MS, dayStartMs } from '../statistics/formulas/windows';
import { unrealisedPnlOf } from '../statistics/formulas/position-facts';
import { compileSort } from '../store/conditions';
import { positionFields } from '../store/fields';
import { orderToWire, positionToWire, type OrderRow, type PositionRow } from '../store/positions';
import { CURRENT_ROWS } from '../statistics/store/statistic-rows';
import type { ServiceDb } from '../store/database';
import { markPrices, traderFacts } from '../statistics/compute/facts';

/**
 * The protocols a trader has statistics on, keyed by protocol, from the FULL records: volume over
 * all time, the last trade and whether a position is open now.
 */
export function traderExchanges(db: ServiceDb, account: string): TraderExchanges {
  const rows = prepareCached(
    db,
    `SELECT id, protocol, is_open_position, last_trade_at_ms, "totalVolume" AS total_volume
     FROM statistics WHERE account = ? AND type = 'FULL' AND ${CURRENT_ROWS} ORDER BY protocol`,
  ).all(account) as {
    id: string;
    protocol: string;
    is_open_position: number;
    last_trade_at_ms: number;
    total_volume: number | null;
  }[];
  return Object.fromEntries(
    rows.map((r) => [
      r.protocol,
      {
        id: r.id,
        protocol: r.protocol,
        isOpenPosition: r.is_open_position === 1,
        lastTradeAt: new Date(r.last_trade_at_ms).toISOString(),
        lastTradeAtTs: r.last_trade_at_ms,
        totalVolume: r.total_volume ?? 0,
      },
    ]),
  );
}

/**
 * The trader's PnL by UTC day over the days that start in [from, to] (docs/real-clients.md): for
 * each day the positions closed that day (realised PnL, fee, funding, and pnl = realisedPnl − fee +
 * funding as docs/semantics.md defines it per position), the open positions' unrealised PnL on today's
 * entry, and the running sum of pnl + unrealisedPnl from the first day. Without `isFill`, days
 * with nothing are left out.
 */
export function traderPnlDays(
  db: ServiceDb,
  protocol: string,
  account: string,
  query: TraderPnlQuery,
  nowMs: number,
): TraderPnlDay[] {
  const firstDay = dayStartMs(query.from);
  const lastDay = dayStartMs(query.to);
  const todayMs = dayStartMs(nowMs);
  const days = new Map<number, Omit<TraderPnlDay, 'date' | 'cumulativePnl'>>();
  const dayOf = (ms: number) => {
    let day = days.get(ms);
    if (!day) days.set(ms, (day = { realisedPnl: 0, fee: 0, funding: 0, pnl: 0, unrealisedPnl: 0 }));
    return day;
  };
  const mark = markPrices(db);
  for (const p of traderFacts(db, account, protocol)) {
    if (p.closeTimeMs === null) {
      const price = mark(p.indexToken);
      if (price !== undefined && todayMs >= firstDay && todayMs <= lastDay)
        dayOf(todayMs).unrealisedPnl += unrealisedPnlOf(p, price);
      continue;
    }
    const closedDay = dayStartMs(p.closeTimeMs);
    if (closedDay < firstDay || closedDay > lastDay) continue;
    const day = dayOf(closedDay);
    day.realisedPnl += p.realisedPnl;
    day.fee += p.fee;
    day.funding += p.funding;
    day.pnl += p.realisedPnl - p.fee + p.funding;
  }
  if (query.isFill) for (let ms = firstDay; ms <= lastDay; ms += DAY_MS) dayOf(ms);
  let cumulative = 0;
  return [...days.entries()]
    .sort(([a], [b]) => a - b)
    .map(([ms, day]) => {
      cumulative += day.pnl + day.unrealisedPnl;
      return { date: new Date(ms).toISOString(), ...day, cumulativePnl: cumulative };
    });
}

type TokenRow = Omit<TokenStatistic, 'indexTokens' | 'winRate'> & { minDuration: number | null };

// One row per token of the trader's CLOSED positions; the rules are docs/semantics.md's statistic
// record's, applied to the positions of one token over all time (docs/real-clients.md).
const TOKEN_COLUMNS = `index_token AS indexToken, MIN(pair) AS pair,
  COUNT(*) AS totalTrade, SUM(order_count) AS totalOrder,
  SUM(is_win = 1) AS totalWin, SUM(is_win IS NOT 1) AS totalLose,
  SUM(is_long = 1) AS totalLong, SUM(is_long = 0) AS totalShort,
  SUM(realised_pnl) AS realisedPnl, SUM(pnl) AS pnl, SUM(fee) AS totalFee,
  SUM(CASE WHEN realised_pnl > 0 THEN realised_pnl ELSE 0 END) AS realisedTotalGain,
  SUM(CASE WHEN realised_pnl > 0 THEN 0 ELSE realised_pnl END) AS realisedTotalLoss,
  SUM(CASE WHEN realised_pnl > 0 THEN pnl ELSE 0 END) AS totalGainFee,
  SUM(CASE WHEN realised_pnl > 0 THEN 0 ELSE pnl END) AS totalLossFee,
  SUM(is_liquidate = 1 AND is_win IS NOT 1) AS totalLiquidation,
  SUM(CASE WHEN is_liquidate = 1 AND is_win IS NOT 1 THEN realised_pnl ELSE 0 END) AS totalLiquidationAmount,
  SUM(size) AS totalVolume, SUM(roi) AS totalRoi, SUM(realised_roi) AS realisedTotalRoi,
  AVG(realised_roi) AS realisedAvgRoi, MAX(roi) AS maxRoi, MAX(realised_roi) AS realisedMaxRoi,
  MAX(pnl) AS maxPnl, MAX(realised_pnl) AS realisedMaxPnl,
  MIN(0, MIN(roi)) AS maxDrawDown, MIN(0, MIN(realised_roi)) AS realisedMaxDrawdown,
  MIN(0, MIN(pnl)) AS maxDrawDownPnl, MIN(0, MIN(realised_pnl)) AS realisedMaxDrawdownPnl,
  COALESCE(SUM(duration_s), 0) AS totalDuration, MIN(duration_s) AS minDuration,
  COALESCE(MAX(duration_s), 0) AS maxDuration,
  SUM(leverage) AS totalLeverage, MIN(leverage) AS minLeverage, MAX(leverage) AS maxLeverage`;

/** The trader's results per token, busiest token first (ties by token), one page. */
export function tokenStatistics(
  db: ServiceDb,
  protocol: string,
  account: string,
  page: TokenStatisticQuery,
): Paged<TokenStatistic> {
  const where = `FROM positions WHERE protocol = ? AND account = ? AND status = 'CLOSE'`;
  const total = prepareCached(db, `SELECT COUNT(DISTINCT index_token) ${where}`, 'pluck').get(
    protocol,
    account,
  ) as number;
  const rows = prepareCached(
    db,
    `SELECT ${TOKEN_COLUMNS} ${where} GROUP BY index_token ORDER BY totalTrade DESC, index_token LIMIT ? OFFSET ?`,
  ).all(protocol, account, page.limit, page.offset) as TokenRow[];
  return {
    data: rows.map((r) => ({
      ...r,
      indexTokens: [r.indexToken],
      minDuration: r.minDuration ?? 0,
      winRate: (r.totalWin / r.totalTrade) * 100,
    })),
    meta: {
      limit: page.limit,
      offset: page.offset,
      total,
      totalPages: Math.ceil(total / page.limit),
    },
  };
}

/** The trader's OPEN positions on the protocol, sorted and paged as asked. */
export function openingPositions(
  db: ServiceDb,
  protocol: string,
  account: string,
  query: OpeningPositionsQuery,
): Position[] {
  const order = compileSort(positionFields, [{ field: query.sortBy, direction: query.sortType }], 'sortBy');
  const rows = prepareCached(
    db,
    `SELECT * FROM positions WHERE protocol = ? AND account = ? AND status = 'OPEN'
     ORDER BY ${order} LIMIT ? OFFSET ?`,
  ).all(protocol, account, query.limit, query.offset) as PositionRow[];
  return rows.map(positionToWire);
}

/** The trader's latest order on the protocol (by block time, then log id), or null. */
export function lastOrder(db: ServiceDb, protocol: string, account: string): Order | null {
  const row = prepareCached(
    db,
    `SELECT * FROM orders WHERE account = ? AND protocol = ? ORDER BY block_time_ms DESC, log_id DESC LIMIT 1`,
  ).get(account, protocol) as OrderRow | undefined;
  return row ? orderToWire(row) : null;
}
