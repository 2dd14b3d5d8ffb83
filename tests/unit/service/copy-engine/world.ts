// A copy-trading world in memory for the engine's tests: one user with an embedded wallet,
// copy trades written through the service's own store, source positions that emit SourceOrder
// values, and readers of what the engine wrote.
import { randomBytes } from 'node:crypto';
import { COPY_TRADE_DEFAULTS, type CopyTrade } from '../../../../src/shared/api/copy-trades';
import type { CopyPosition } from '../../../../src/shared/api/copy-positions';
import { defaultConfig, type ServiceConfig } from '../../../../src/service/config';
import { CopyEngine, type CopyEngineOptions } from '../../../../src/service/copy-engine/engine';
import type { PriceTick, SourceOrder } from '../../../../src/service/copy-engine/types';
import { listCopyOrders } from '../../../../src/service/copy-trading/copy-orders';
import { findCopyPosition } from '../../../../src/service/copy-trading/copy-positions';
import { insertCopyTrade, shapeCopyTrade } from '../../../../src/service/copy-trading/copy-trades';
import { availableBalance } from '../../../../src/service/copy-trading/copy-wallets';
import { indexTokenAddress } from '../../../../src/service/market/catalogue';
import { seedTokenCatalogue } from '../../../../src/service/market/token-listing';
import { openServiceDatabase, type ServiceDb } from '../../../../src/service/store/database';
import { createUser } from '../../../../src/service/users/users';

/** The instant the worlds' clocks stand at. */
export const NOW = Date.parse('2026-03-02T12:00:00.000Z');
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export const TRADER_A = '0xAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAaAa';
export const TRADER_B = '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB';
export const TRADER_C = '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC';

export const BTC = indexTokenAddress('NOVA_ARB', 'BTC');
export const ETH = indexTokenAddress('NOVA_ARB', 'ETH');
/** The venue caps SOL at 20×. */
export const SOL = indexTokenAddress('NOVA_ARB', 'SOL');

/** What the activity log table holds, with the failure reason the wire leaves out. */
export interface LogRow {
  type: string;
  isSuccess: number;
  reason: string;
  price: number;
  sourcePrice: number;
  volume: number;
  leverage: number;
  isLong: number;
  isReverse: number;
  sourceTxHash: string;
  copyPositionId: string | null;
  copyOrderId: string | null;
  sourceAccount: string;
  copyTradeId: string;
}

/** A source position of one trader: each call emits the SourceOrder of one change, with its before-values. */
export class SourcePosition {
  size = 0;
  collateral = 0;

  constructor(
    private readonly world: CopyWorld,
    readonly account: string,
    readonly indexToken: string,
    readonly isLong: boolean,
    readonly protocol = 'NOVA_ARB',
  ) {}

  open(size: number, collateral: number, price: number, atMs?: number): SourceOrder {
    return this.emit('OPEN', size, collateral, price, atMs);
  }
  increase(size: number, collateral: number, price: number, atMs?: number): SourceOrder {
    return this.emit('INCREASE', size, collateral, price, atMs);
  }
  decrease(size: number, collateral: number, price: number, atMs?: number): SourceOrder {
    return this.emit('DECREASE', size, collateral, price, atMs);
  }
  close(price: number, atMs?: number, isLiquidate = false): SourceOrder {
    return this.emit('CLOSE', this.size, this.collateral, price, atMs, isLiquidate);
  }

  private emit(
    type: SourceOrder['type'],
    sizeDelta: number,
    collateralDelta: number,
    price: number,
    atMs: number | undefined,
    isLiquidate = false,
  ): SourceOrder {
    const n = this.world.nextOrder();
    const order: SourceOrder = {
      id: `source-${n}`,
      account: this.account,
      protocol: this.protocol,
      indexToken: this.indexToken,
      isLong: this.isLong,
      type,
      sizeDeltaUsd: sizeDelta,
      collateralDeltaUsd: collateralDelta,
      sizeBeforeUsd: this.size,
      collateralBeforeUsd: this.collateral,
      price,
      blockTimeMs: atMs ?? this.world.clock,
      txHash: `0x${n.toString(16).padStart(64, '0')}`,
      isLiquidate,
    };
    const grows = type === 'OPEN' || type === 'INCREASE';
    this.size = grows ? this.size + sizeDelta : Math.max(0, this.size - sizeDelta);
    this.collateral = grows
      ? this.collateral + collateralDelta
      : Math.max(0, this.collateral - collateralDelta);
    return order;
  }
}

/** One user, their embedded wallet (10,000 USD), the token catalogue and an engine. */
export class CopyWorld {
  readonly db: ServiceDb;
  readonly config: ServiceConfig;
  readonly engine: CopyEngine;
  readonly userId: string;
  readonly walletId: string;
  /** The time source orders carry unless told otherwise; each order moves it a minute on. */
  clock = NOW - DAY;
  private orderCount = 0;
  private trades = 0;

  constructor(options: CopyEngineOptions = {}) {
    this.db = openServiceDatabase(':memory:');
    this.config = defaultConfig({ dbPath: ':memory:', now: () => new Date(NOW) });
    seedTokenCatalogue(this.db);
    this.userId = this.addUser();
    this.walletId = this.walletOf(this.userId);
    this.engine = new CopyEngine(this.db, this.config, options);
  }

  /** Another user with their own embedded wallet; returns the id. */
  addUser(): string {
    const address = `0x${randomBytes(20).toString('hex')}`;
    return createUser(this.db, this.config, address, {}).id;
  }

  walletOf(userId: string): string {
    return (
      this.db.prepare('SELECT id FROM copy_wallets WHERE user_id = ?').get(userId) as {
        id: string;
      }
    ).id;
  }

  nextOrder(): number {
    this.clock += MINUTE;
    return ++this.orderCount;
  }

  /** A RUNNING copy trade of TRADER_A on NOVA_ARB, volume 100 at 10×, no volume protection unless `patch` says so. */
  trade(patch: Partial<CopyTrade> = {}, userId = this.userId): CopyTrade {
    const trade = shapeCopyTrade({
      ...COPY_TRADE_DEFAULTS,
      id: `trade-${++this.trades}`,
      userId,
      title: `Trade ${this.trades}`,
      account: TRADER_A,
      accounts: [],
      copyWalletId: this.walletOf(userId),
      protocol: 'NOVA_ARB',
      exchange: 'PERPX',
      type: 'COPY_TRADER',
      volume: 100,
      leverage: 10,
      tokenAddresses: [],
      excludingTokenAddresses: [],
      volumeProtection: false,
      status: 'RUNNING',
      createdAt: new Date(NOW - 30 * DAY).toISOString(),
      ...patch,
    });
    insertCopyTrade(this.db, trade);
    return trade;
  }

  source(indexToken = BTC, isLong = true, account = TRADER_A): SourcePosition {
    return new SourcePosition(this, account, indexToken, isLong);
  }

  /** Sets marks through the engine (which also runs the exits); returns its events. */
  tick(indexToken: string, price: number, timeMs = this.clock): ReturnType<CopyEngine['processPrices']> {
    const tick: PriceTick = { indexToken, price, timeMs };
    return this.engine.processPrices([tick]);
  }

  /** Every copy position in the order they were opened, as the wire shows them. */
  positions(): CopyPosition[] {
    const ids = this.db
      .prepare('SELECT id FROM copy_positions ORDER BY created_at_ms, rowid')
      .pluck()
      .all() as string[];
    return ids.map((id) => findCopyPosition(this.db, id) as CopyPosition);
  }

  /** Orders of a position, newest first (the wire's order). */
  orders(positionId: string) {
    return listCopyOrders(this.db, positionId);
  }

  /** Every activity log in the order written. */
  logs(): LogRow[] {
    return this.db
      .prepare(
        `SELECT type, is_success AS isSuccess, reason, price, source_price AS sourcePrice, volume, leverage,
           is_long AS isLong, is_reverse AS isReverse, source_tx_hash AS sourceTxHash,
           copy_position_id AS copyPositionId, copy_order_id AS copyOrderId,
           source_account AS sourceAccount, copy_trade_id AS copyTradeId
         FROM activity_logs ORDER BY seq`,
      )
      .all() as LogRow[];
  }

  balance(walletId = this.walletId): number {
    return this.db.prepare('SELECT balance FROM copy_wallets WHERE id = ?').pluck().get(walletId) as number;
  }

  available(walletId = this.walletId): number {
    return availableBalance(this.db, walletId);
  }

  setBalance(balance: number, walletId = this.walletId): void {
    this.db.prepare('UPDATE copy_wallets SET balance = ? WHERE id = ?').run(balance, walletId);
  }

  /** Source rows in `orders` (with the position row they need) for volume protection's look-back. */
  addHistory(account: string, rows: { type: string; collateral: number; atMs: number; protocol?: string }[]) {
    const positionId = `history-${account}-${++this.orderCount}`;
    this.db
      .prepare(
        `INSERT INTO positions (id, account, protocol, key, log_id, open_block_number, open_time_ms, index_token,
           pair, size, collateral, average_price, fee, funding, realised_pnl, pnl, roi, realised_roi, leverage,
           is_long, order_count, order_increase_count, order_decrease_count, status, created_at_ms, updated_at_ms)
         VALUES (?, ?, 'NOVA_ARB', 'k', 0, 0, 0, ?, 'BTC/USD', 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 'OPEN', 0, 0)`,
      )
      .run(positionId, account, BTC);
    const insert = this.db.prepare(
      `INSERT INTO orders (id, position_id, account, protocol, tx_hash, index_token, pair, type, is_long, size_delta,
         size, collateral_delta, collateral, price, average_price, log_id, block_number, block_time_ms, created_at_ms)
       VALUES (?, ?, ?, ?, '0x', ?, 'BTC/USD', ?, 1, 0, 0, ?, 0, 1, 1, 0, 0, ?, 0)`,
    );
    rows.forEach((r, i) =>
      insert.run(
        `${positionId}-${i}`,
        positionId,
        account,
        r.protocol ?? 'NOVA_ARB',
        BTC,
        r.type,
        r.collateral,
        r.atMs,
      ),
    );
  }

  close(): void {
    this.db.close();
  }
}
