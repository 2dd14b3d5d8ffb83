// PnL of copy trades and copy wallets (docs/semantics.md, Copy engine; docs/api.md, Copy wallets and withdrawal).
// Everything is summed from copy_positions: a closed position counts with its `pnl`
// (realisedPnl − fee + funding) at its `closed_at_ms`; an open one only with its unrealised PnL.
import type { ServiceDb } from '../store/database';
import { DAY_MS, roundUsd } from './money';

/**
 * Unrealised PnL of an open copy position `p` at the mark `m` (a LEFT JOIN of mark_prices):
 * (mark − entry) × size in tokens for longs, negated for shorts, 0 while no mark is known.
 */
export const UNREALISED_SQL = `CASE WHEN m.price IS NULL THEN 0
  WHEN p.is_long = 1 THEN (m.price - p.entry_price) * p.size_tokens
  ELSE (p.entry_price - m.price) * p.size_tokens END`;

/** `pnl`, `pnl7D`, `pnl30D` of a copy trade list item. */
export interface CopyTradePnl {
  pnl: number;
  pnl7D: number;
  pnl30D: number;
}

/** `pnl24h`, `totalPnl` of an embedded wallet. */
export interface WalletPnl {
  pnl24h: number;
  totalPnl: number;
}

interface Sums {
  id: string;
  realised: number;
  recent: number;
  month: number;
  unrealised: number;
}

// One pass over the positions of a user, grouped by `groupColumn`; `recent`/`month` are the
// realised sums since the two window starts. Windows include their start: closed_at_ms >= start.
const sumsSql = (groupColumn: string) => `
  SELECT p.${groupColumn} AS id,
    TOTAL(CASE WHEN p.status = 'CLOSE' THEN p.pnl END) AS realised,
    TOTAL(CASE WHEN p.status = 'CLOSE' AND p.closed_at_ms >= @recentFrom THEN p.pnl END) AS recent,
    TOTAL(CASE WHEN p.status = 'CLOSE' AND p.closed_at_ms >= @monthFrom THEN p.pnl END) AS month,
    TOTAL(CASE WHEN p.status = 'OPEN' THEN ${UNREALISED_SQL} END) AS unrealised
  FROM copy_positions p LEFT JOIN mark_prices m ON m.index_token = p.index_token
  WHERE p.user_id = @userId
  GROUP BY p.${groupColumn}`;

function sums(db: ServiceDb, groupColumn: string, params: Record<string, unknown>): Map<string, Sums> {
  const rows = db.prepare(sumsSql(groupColumn)).all(params) as Sums[];
  return new Map(rows.map((row) => [row.id, row]));
}

/** PnL of each of the user's copy trades at `nowMs`; trades without positions are absent (all 0). */
export function copyTradePnl(db: ServiceDb, userId: string, nowMs: number): Map<string, CopyTradePnl> {
  const found = sums(db, 'copy_trade_id', {
    userId,
    recentFrom: nowMs - 7 * DAY_MS,
    monthFrom: nowMs - 30 * DAY_MS,
  });
  const result = new Map<string, CopyTradePnl>();
  for (const [id, s] of found) {
    result.set(id, {
      pnl: roundUsd(s.realised + s.unrealised),
      pnl7D: roundUsd(s.recent),
      pnl30D: roundUsd(s.month),
    });
  }
  return result;
}

/** PnL of each of the user's copy wallets at `nowMs`; wallets without positions are absent (all 0). */
export function walletPnl(db: ServiceDb, userId: string, nowMs: number): Map<string, WalletPnl> {
  const found = sums(db, 'copy_wallet_id', { userId, recentFrom: nowMs - DAY_MS, monthFrom: nowMs });
  const result = new Map<string, WalletPnl>();
  for (const [id, s] of found) {
    result.set(id, { pnl24h: roundUsd(s.recent), totalPnl: roundUsd(s.realised + s.unrealised) });
  }
  return result;
}

/** What a trade or wallet without copy positions shows. */
export const NO_TRADE_PNL: CopyTradePnl = { pnl: 0, pnl7D: 0, pnl30D: 0 };
export const NO_WALLET_PNL: WalletPnl = { pnl24h: 0, totalPnl: 0 };
