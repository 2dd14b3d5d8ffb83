// The copy engine's reads and writes of its own bookkeeping and of copy positions, as statements
// prepared once per engine.
import {
  COPY_POSITION_FIELDS_SQL,
  copyPositionInsertOf,
  type CopyPositionInsert,
} from '../copy-trading/copy-positions';
import type { ServiceDb } from '../store/database';
import type { PriceTick, SourceOrder } from './types';

/** A copy position as the engine works on it: every stored field; fills change it, then it is saved. */
export type EnginePosition = CopyPositionInsert;

const SELECT_POSITIONS = `SELECT ${COPY_POSITION_FIELDS_SQL} FROM copy_positions p`;

// Candidates for an exit at @price; the engine decides exactly (exits.ts). The liquidation bound
// is widened by 1e-9 so that float rounding can never hide a position the exact check would close.
const EXIT_CANDIDATES = `${SELECT_POSITIONS}
  WHERE p.index_token = @token AND p.status = 'OPEN' AND CASE WHEN p.is_long = 1
    THEN @price <= p.entry_price * (1.0 - 1.0 / p.leverage) * (1 + 1e-9)
      OR @price <= p.stop_loss_price OR @price >= p.take_profit_price
    ELSE @price >= p.entry_price * (1.0 + 1.0 / p.leverage) * (1 - 1e-9)
      OR @price >= p.stop_loss_price OR @price <= p.take_profit_price END
  ORDER BY p.created_at_ms, p.id`;

/** What every fill may change. */
const FILL_COLUMNS = `entry_price = @entryPrice, margin = @margin, size_tokens = @sizeTokens,
  total_size_delta = @totalSizeDelta, stop_loss_price = @stopLossPrice, stop_loss_amount = @stopLossAmount,
  take_profit_price = @takeProfitPrice, take_profit_amount = @takeProfitAmount,
  realised_pnl = @realisedPnl, fee = @fee, funding = @funding, pnl = @pnl,
  last_order_at_ms = @lastOrderAtMs, updated_at_ms = @lastOrderAtMs,
  source_order_tx_hashes = @sourceOrderTxHashes`;

/** The statements, compiled once per engine. */
function statements(db: ServiceDb) {
  const p = (sql: string) => db.prepare(sql);
  return {
    markSource: p(`INSERT OR IGNORE INTO copy_source_orders (id, account, protocol, processed_at_ms)
      VALUES (?, ?, ?, ?)`),
    mark: p('SELECT price FROM mark_prices WHERE index_token = ?').pluck(),
    writeMark: p(`INSERT INTO mark_prices (index_token, price, time_ms) VALUES (@indexToken, @price, @timeMs)
      ON CONFLICT (index_token) DO UPDATE SET price = excluded.price, time_ms = excluded.time_ms
      WHERE excluded.time_ms >= mark_prices.time_ms`),
    skip: p(
      'INSERT OR REPLACE INTO copy_skipped_sources (copy_trade_id, source_key, reason) VALUES (?, ?, ?)',
    ),
    unskip: p('DELETE FROM copy_skipped_sources WHERE copy_trade_id = ? AND source_key = ?'),
    copiesOfSource: p(`${SELECT_POSITIONS}
      WHERE p.source_position_id = ? AND p.status = 'OPEN' AND NOT EXISTS (
        SELECT 1 FROM copy_skipped_sources s
        WHERE s.copy_trade_id = p.copy_trade_id AND s.source_key = p.source_position_id)
      ORDER BY p.created_at_ms, p.id`),
    openCopy: p(`${SELECT_POSITIONS}
      WHERE p.copy_trade_id = ? AND p.copy_account = ? AND p.index_token = ? AND p.status = 'OPEN'
        AND p.is_long = ?`),
    exitCandidates: p(EXIT_CANDIDATES),
    position: p(`${SELECT_POSITIONS} WHERE p.id = ?`),
    positionCount: p('SELECT COUNT(*) FROM copy_positions WHERE copy_trade_id = ?').pluck(),
    // A fill that leaves the position open changes no indexed column: its indexes stay untouched.
    saveOpen: p(`UPDATE copy_positions SET ${FILL_COLUMNS} WHERE id = @id`),
    saveClosed: p(`UPDATE copy_positions SET ${FILL_COLUMNS}, status = @status, close_type = @closeType,
      closed_at_ms = @closedAtMs WHERE id = @id`),
    lookBack: p(`SELECT collateral_delta FROM orders
      WHERE account = ? AND protocol = ? AND type IN ('OPEN', 'INCREASE') AND block_time_ms < ?
      ORDER BY block_time_ms DESC LIMIT ?`).pluck(),
    walletName: p('SELECT name FROM copy_wallets WHERE id = ?').pluck(),
  };
}

const positions = (rows: unknown[]): EnginePosition[] =>
  rows.map((row) => copyPositionInsertOf(row as Record<string, unknown>));

/** The engine's statements over one database. */
export class EngineStore {
  private readonly s: ReturnType<typeof statements>;
  private readonly walletNames = new Map<string, string>();

  constructor(db: ServiceDb) {
    this.s = statements(db);
  }

  /** Records the source order as processed; false when it already was. */
  markSource(o: SourceOrder, nowMs: number): boolean {
    return this.s.markSource.run(o.id, o.account, o.protocol, nowMs).changes === 1;
  }

  /** The last mark price of a token, or null. */
  markPrice(indexToken: string): number | null {
    return (this.s.mark.get(indexToken) as number | undefined) ?? null;
  }

  /** Writes a mark unless a later one is stored; true when written. */
  writeMark(tick: PriceTick): boolean {
    return this.s.writeMark.run(tick).changes === 1;
  }

  /** Marks the source position skipped by the copy trade, with why. */
  skip(copyTradeId: string, key: string, reason: string): void {
    this.s.skip.run(copyTradeId, key, reason);
  }

  /** Forgets a skip: a new source position on the same key was copied. */
  unskip(copyTradeId: string, key: string): void {
    this.s.unskip.run(copyTradeId, key);
  }

  /** The open copies of a source position, of every copy trade that did not skip it, oldest first. */
  copiesOfSource(key: string): EnginePosition[] {
    return positions(this.s.copiesOfSource.all(key));
  }

  /** The copy trade's open positions from `account` on `indexToken` on one side (normally at most one). */
  openCopies(copyTradeId: string, account: string, indexToken: string, isLong: boolean): EnginePosition[] {
    return positions(this.s.openCopy.all(copyTradeId, account, indexToken, isLong ? 1 : 0));
  }

  /** Open positions on the token that a mark at `price` may close. */
  exitCandidates(indexToken: string, price: number): EnginePosition[] {
    return positions(this.s.exitCandidates.all({ token: indexToken, price }));
  }

  /** The copy position with this id (open or closed), or undefined. */
  position(id: string): EnginePosition | undefined {
    return positions(this.s.position.all(id))[0];
  }

  /** The index the copy trade's next position gets: how many it has had. */
  nextPositionIndex(copyTradeId: string): number {
    return this.s.positionCount.get(copyTradeId) as number;
  }

  /** Saves a position's mutable fields after a fill (and its status, close type and time once closed). */
  save(p: EnginePosition): void {
    const fill = {
      id: p.id,
      entryPrice: p.entryPrice,
      margin: p.margin,
      sizeTokens: p.sizeTokens,
      totalSizeDelta: p.totalSizeDelta,
      stopLossPrice: p.stopLossPrice,
      stopLossAmount: p.stopLossAmount,
      takeProfitPrice: p.takeProfitPrice,
      takeProfitAmount: p.takeProfitAmount,
      realisedPnl: p.realisedPnl,
      fee: p.fee,
      funding: p.funding,
      pnl: p.pnl,
      lastOrderAtMs: p.lastOrderAtMs,
      sourceOrderTxHashes: JSON.stringify(p.sourceOrderTxHashes),
    };
    if (p.status === 'OPEN') this.s.saveOpen.run(fill);
    else
      this.s.saveClosed.run({ ...fill, status: p.status, closeType: p.closeType, closedAtMs: p.closedAtMs });
  }

  /** Margins of the account's last `n` OPEN/INCREASE orders on the protocol before `beforeMs`. */
  lookBack(account: string, protocol: string, beforeMs: number, n: number): number[] {
    return this.s.lookBack.all(account, protocol, beforeMs, n) as number[];
  }

  /** A wallet's name (names never change, so they are kept). */
  walletName(walletId: string): string {
    let name = this.walletNames.get(walletId);
    if (name === undefined) {
      name = (this.s.walletName.get(walletId) as string | undefined) ?? '';
      this.walletNames.set(walletId, name);
    }
    return name;
  }
}
