// The copy engine's store: reads come from its state in memory (state.ts); writes are journaled
// during a transaction and flushed at its end with statements prepared once and bound by
// position. A position filled twice in one transaction is written once, a wallet once per
// transaction. docs/copy-engine.md, Speed.
import type { ActivityLogInsert } from '../copy-trading/activity-logs';
import type { CopyOrderInsert } from '../copy-trading/copy-orders';
import { roundUsd } from '../copy-trading/money';
import type { ServiceDb } from '../store/database';
import { exitAt } from './exits';
import { ExternalWrites } from './external-writes';
import {
  FILL_COLUMNS_SQL,
  fillValues,
  INSERT_POSITION_SQL,
  POSITION_COLUMNS_SQL,
  positionOfRow,
  positionValues,
  type EnginePosition,
} from './position-rows';
import { EngineState } from './state';
import type { PriceTick, SourceOrder } from './types';

/**
 * volumeProtection's look-back: the account's last OPEN/INCREASE margins on the protocol. It must
 * go through the (account, time) index; a protocol-wide one would read every trader's orders for
 * each copied OPEN (pinned by tests/unit/service/copy-engine/engine-query-plans.test.ts).
 */
export const LOOK_BACK_SQL = `SELECT collateral_delta FROM orders
  WHERE account = ? AND protocol = ? AND type IN ('OPEN', 'INCREASE') AND block_time_ms < ?
  ORDER BY block_time_ms DESC LIMIT ?`;

/** The statements, compiled once per engine. */
function statements(db: ServiceDb) {
  const p = (sql: string) => db.prepare(sql);
  return {
    markSource: p(`INSERT OR IGNORE INTO copy_source_orders (id, account, protocol, processed_at_ms)
      VALUES (?, ?, ?, ?)`),
    writeMark: p(`INSERT INTO mark_prices (index_token, price, time_ms) VALUES (@indexToken, @price, @timeMs)
      ON CONFLICT (index_token) DO UPDATE SET price = excluded.price, time_ms = excluded.time_ms
      WHERE excluded.time_ms >= mark_prices.time_ms`),
    skip: p(
      'INSERT OR REPLACE INTO copy_skipped_sources (copy_trade_id, source_key, reason) VALUES (?, ?, ?)',
    ),
    unskip: p('DELETE FROM copy_skipped_sources WHERE copy_trade_id = ? AND source_key = ?'),
    position: p(`SELECT ${POSITION_COLUMNS_SQL} FROM copy_positions p WHERE p.id = ?`).raw(),
    insertPosition: p(INSERT_POSITION_SQL),
    // A fill that leaves the position open changes no indexed column: its indexes stay untouched.
    saveOpen: p(`UPDATE copy_positions SET ${FILL_COLUMNS_SQL} WHERE id = ?`),
    saveClosed: p(`UPDATE copy_positions SET ${FILL_COLUMNS_SQL}, status = ?, close_type = ?, closed_at_ms = ?
      WHERE id = ?`),
    balance: p('UPDATE copy_wallets SET balance = ? WHERE id = ?'),
    // The rows of copy-trading/copy-orders.ts insertCopyOrder and activity-logs.ts
    // insertActivityLog, bound by position (named binding costs ~3 µs a row more).
    insertOrder:
      p(`INSERT INTO copy_orders (id, copy_position_id, user_id, price, size, pnl, realised_pnl, fee,
       is_long, is_increase, protocol, tx_hash, created_at_ms, seq)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
       (SELECT COALESCE(MAX(seq), 0) + 1 FROM copy_orders WHERE copy_position_id = ?))`),
    insertLog: p(`INSERT INTO activity_logs (id, user_id, copy_trade_id, copy_wallet_id, copy_position_id,
       copy_order_id, protocol, source_account, copy_trade_title, exchange, index_token, pair, source_tx_hash,
       copy_wallet_name, cex_order_id, price, source_price, volume, leverage, is_long, is_success,
       is_reverse, type, reason, created_at_ms, seq)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    lookBack: p(LOOK_BACK_SQL).pluck(),
    walletName: p('SELECT name FROM copy_wallets WHERE id = ?').pluck(),
  };
}

/** How a journaled position reaches the store: inserted (as written at its open, or since filled), or updated. */
type PositionWrite = 'insert' | 'insertFilled' | 'update';

/** The engine's store over one database: state in memory, writes flushed per transaction. */
export class EngineStore {
  private readonly s: ReturnType<typeof statements>;
  private readonly state: EngineState;
  private readonly external: ExternalWrites;
  private readonly walletNames = new Map<string, string>();
  private readonly positions = new Map<EnginePosition, PositionWrite>();
  private readonly wallets = new Set<string>();
  private orders: unknown[][] = [];
  private logs: unknown[][] = [];

  constructor(db: ServiceDb) {
    this.s = statements(db);
    this.state = new EngineState(db);
    this.external = new ExternalWrites(db);
  }

  /** Starts the engine's transaction: forgets what others wrote since its last one. */
  begin(): void {
    this.state.forget(this.external.enter());
  }

  /** Ends the engine's transaction, still inside it: writes the journal. */
  finish(): void {
    this.flush();
    this.external.leave();
  }

  /** The transaction committed (or its savepoint was released). */
  committed(): void {
    this.external.committed();
  }

  /** The transaction rolled back: the journal is dropped and the state reloads when next read. */
  failed(): void {
    this.positions.clear();
    this.wallets.clear();
    this.orders = [];
    this.logs = [];
    this.state.forget('all');
    this.external.forget();
  }

  /** Records the source order as processed; false when it already was. */
  markSource(o: SourceOrder, nowMs: number): boolean {
    return this.s.markSource.run(o.id, o.account, o.protocol, nowMs).changes === 1;
  }

  /** The last mark price of a token, or null. */
  markPrice(indexToken: string): number | null {
    return this.state.markPrice(indexToken);
  }

  /** Writes a mark unless a later one is stored; true when written. */
  writeMark(tick: PriceTick): boolean {
    if (this.s.writeMark.run(tick).changes !== 1) return false;
    this.state.setMark(tick.indexToken, { price: tick.price, timeMs: tick.timeMs });
    return true;
  }

  /** Marks the source position skipped by the copy trade, with why. */
  skip(copyTradeId: string, key: string, reason: string): void {
    this.s.skip.run(copyTradeId, key, reason);
    this.state.setSkipped(copyTradeId, key, true);
  }

  /** Forgets a skip: a new source position on the same key was copied. */
  unskip(copyTradeId: string, key: string): void {
    if (!this.state.isSkipped(copyTradeId, key)) return;
    this.s.unskip.run(copyTradeId, key);
    this.state.setSkipped(copyTradeId, key, false);
  }

  /** The open copies of a source position, of every copy trade that did not skip it, oldest first. */
  copiesOfSource(key: string): EnginePosition[] {
    return this.state.copiesOfSource(key);
  }

  /** The copy trade's open positions from `account` on `indexToken` on one side (normally at most one). */
  openCopies(copyTradeId: string, account: string, indexToken: string, isLong: boolean): EnginePosition[] {
    return this.state.openCopies(copyTradeId, account, indexToken, isLong);
  }

  /** Open positions on the token that a mark at `price` closes, oldest first. */
  exitCandidates(indexToken: string, price: number): EnginePosition[] {
    return this.state
      .openOn(indexToken)
      .filter((p) => exitAt(p, price) !== null)
      .sort((a, b) => a.createdAtMs - b.createdAtMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** The copy position with this id (open or closed), or undefined. */
  position(id: string): EnginePosition | undefined {
    const open = this.state.openPosition(id);
    if (open) return open;
    const row = this.s.position.get(id) as unknown[] | undefined;
    return row ? positionOfRow(row) : undefined;
  }

  /** The index the copy trade's next position gets: how many it has had. */
  nextPositionIndex(copyTradeId: string): number {
    return this.state.positionCount(copyTradeId);
  }

  /** Balance minus the margin held by the wallet's open copy positions. */
  availableBalance(walletId: string): number {
    return this.state.availableBalance(walletId);
  }

  /** Moves the wallet's balance by `delta` USD (negative to debit). */
  adjustBalance(walletId: string, delta: number): void {
    const balance = this.state.balance(walletId);
    if (balance === null) throw new Error(`copy wallet ${walletId} does not exist`);
    this.state.setBalance(walletId, roundUsd(balance + delta));
    this.wallets.add(walletId);
  }

  /** Writes a new copy position. */
  insertPosition(p: EnginePosition): void {
    this.state.opened(p);
    this.positions.set(p, 'insert');
  }

  /** Saves a position's mutable fields after a fill (and its status, close type and time once closed). */
  save(p: EnginePosition): void {
    this.state.changed(p);
    const write = this.positions.get(p);
    this.positions.set(p, write === undefined || write === 'update' ? 'update' : 'insertFilled');
  }

  /** Writes a copy order (its `seq` numbers the position's orders). */
  insertOrder(o: CopyOrderInsert): void {
    this.orders.push([
      o.id,
      o.copyPositionId,
      o.userId,
      o.price,
      o.size,
      o.pnl,
      o.realisedPnl,
      o.fee,
      o.isLong ? 1 : 0,
      o.isIncrease ? 1 : 0,
      o.protocol,
      o.txHash,
      o.createdAtMs,
      o.copyPositionId,
    ]);
  }

  /** Writes an activity log (its `seq`, numbered in memory, orders the user's logs: log-numbers.ts). */
  insertLog(a: ActivityLogInsert): void {
    this.logs.push([
      a.id,
      a.userId,
      a.copyTradeId,
      a.copyWalletId,
      a.copyPositionId,
      a.copyOrderId,
      a.protocol,
      a.sourceAccount,
      a.copyTradeTitle,
      a.exchange,
      a.indexToken,
      a.pair,
      a.sourceTxHash,
      a.copyWalletName,
      a.cexOrderId,
      a.price,
      a.sourcePrice,
      a.volume,
      a.leverage,
      a.isLong ? 1 : 0,
      a.isSuccess ? 1 : 0,
      a.isReverse ? 1 : 0,
      a.type,
      a.reason,
      a.createdAtMs,
      this.state.nextLogSeq(a.userId),
    ]);
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

  /**
   * Writes the journal: positions first (copy orders reference them), in the order they were
   * first written, so that rowids and `seq` numbers come out as if each row were written at once.
   */
  private flush(): void {
    const s = this.s;
    for (const [p, write] of this.positions) {
      if (write === 'update') {
        if (p.status === 'OPEN') s.saveOpen.run(...fillValues(p), p.id);
        else s.saveClosed.run(...fillValues(p), p.status, p.closeType, p.closedAtMs, p.id);
        continue;
      }
      // An insert stamps updated_at as copy-trading/copy-positions.ts does; a fill since, as save does.
      const updatedAtMs =
        write === 'insert' ? Math.max(p.lastOrderAtMs, p.closedAtMs ?? 0, p.createdAtMs) : p.lastOrderAtMs;
      s.insertPosition.run(...positionValues(p), updatedAtMs);
    }
    this.positions.clear();
    for (const walletId of this.wallets) s.balance.run(this.state.balance(walletId), walletId);
    this.wallets.clear();
    for (const values of this.orders) s.insertOrder.run(...values);
    this.orders = [];
    for (const values of this.logs) s.insertLog.run(...values);
    this.logs = [];
  }
}
