// One simulated position and the orders that move it, kept to docs/semantics.md, Positions: every
// fill updates the running state and yields its order row; `toRow()` gives the position row whose
// numbers are the sums and extremes of those orders. Pure: no store, no clock.
import { derivePosition } from '../../statistics/formulas/position-facts';
import type { OrderRow, PositionRow } from '../../store/positions';
import { hashString, hex32 } from './draws';
import { BLOCK_MS, MAINTENANCE } from './parameters';

/** What names a position: who, where, what and which side. */
export interface PositionIdentity {
  id: string;
  account: string;
  protocol: string;
  symbol: string;
  indexToken: string;
  pair: string;
  key: string;
  isLong: boolean;
}

/** The id, transaction hash and log index of the position's `seq`-th order (0-based). */
export type OrderStamper = (
  position: PositionIdentity,
  seq: number,
) => {
  id: string;
  txHash: string;
  logId: number;
};

/** The cumulative funding rate of the position's symbol at a time (differences are what count). */
export type FundingIndex = (timeMs: number) => number;

/** USD amounts are kept in cents, so that orders sum exactly to their position. */
export const cents = (x: number): number => Math.round(x * 100) / 100 + 0;

type OrderType = OrderRow['type'];

/** What one fill changes: the order type, tokens traded (signed), collateral moved (a magnitude), realised PnL. */
interface Fill {
  type: OrderType;
  timeMs: number;
  price: number;
  tokenDelta: number;
  /** The notional the fill adds (increases) or removes at the average entry (decreases). */
  sizeDelta: number;
  collateralDelta: number;
  realised: number;
}

/** A position being simulated: apply fills in time order, then read its row. */
export class SimPosition {
  tokens = 0;
  averagePrice = 0;
  collateral = 0;
  peakSize = 0;
  realisedPnl = 0;
  fee = 0;
  funding = 0;
  increases = 0;
  decreases = 0;
  isLiquidate = false;
  openTimeMs = 0;
  lastTimeMs = 0;
  closeTimeMs: number | null = null;
  orderSeq = 0;
  logId = 0;
  txHashes: string[] = [];

  constructor(
    readonly identity: PositionIdentity,
    private readonly feeRate: number,
    private readonly fundingIndex: FundingIndex,
    private readonly stamp: OrderStamper,
  ) {}

  /** Rebuilds the running state of an open position from its stored row (the live market). */
  static fromRow(
    row: PositionRow,
    feeRate: number,
    fundingIndex: FundingIndex,
    stamp: OrderStamper,
  ): SimPosition {
    const identity: PositionIdentity = {
      id: row.id,
      account: row.account,
      protocol: row.protocol,
      symbol: row.pair.split('/')[0] ?? row.pair,
      indexToken: row.index_token,
      pair: row.pair,
      key: row.key,
      isLong: row.is_long === 1,
    };
    const p = new SimPosition(identity, feeRate, fundingIndex, stamp);
    Object.assign(p, {
      tokens: row.size_in_token,
      notional: row.size_in_token * row.average_price,
      averagePrice: row.average_price,
      collateral: row.collateral,
      peakSize: row.size,
      realisedPnl: row.realised_pnl,
      fee: row.fee,
      funding: row.funding,
      increases: row.order_increase_count,
      decreases: row.order_decrease_count,
      openTimeMs: row.open_time_ms,
      lastTimeMs: row.updated_at_ms,
      logId: row.log_id,
      txHashes: JSON.parse(row.tx_hashes) as string[],
    });
    p.orderSeq = p.txHashes.length;
    return p;
  }

  /** +1 for a long, −1 for a short. */
  get sign(): number {
    return this.identity.isLong ? 1 : -1;
  }

  /**
   * Current notional at the average entry (tokens × average price), kept as its own sum like a
   * venue's "size in USD", so that 10,000 + 5,000 is 15,000 and not 14,999.999999999998.
   */
  notional = 0;

  /** Current leverage: notional / collateral. */
  get currentLeverage(): number {
    return this.collateral > 0 ? this.notional / this.collateral : 0;
  }

  get isOpen(): boolean {
    return this.closeTimeMs === null && this.tokens > 0;
  }

  /** Long: entry × (1 − 1/leverage + maintenance); short: entry × (1 + 1/leverage − maintenance). */
  liquidationPrice(): number {
    const cushion = this.collateral / this.notional - MAINTENANCE;
    return this.averagePrice * (1 - this.sign * cushion);
  }

  /** The price at which the unrealised ROI on collateral reaches `roi` (0.5 = +50 %). */
  priceAtRoi(roi: number): number {
    return this.averagePrice * (1 + (this.sign * roi) / this.currentLeverage);
  }

  /** Whether `price` is at or beyond the liquidation price. */
  isLiquidatableAt(price: number): boolean {
    const liquidation = this.liquidationPrice();
    return this.identity.isLong ? price <= liquidation : price >= liquidation;
  }

  /** Mark-to-market PnL of the open tokens at `price`. */
  unrealisedAt(price: number): number {
    return this.sign * (price - this.averagePrice) * this.tokens;
  }

  /** OPEN: `sizeUsd` of notional on `collateral` at `price`. */
  open(timeMs: number, price: number, sizeUsd: number, collateral: number): OrderRow {
    this.openTimeMs = timeMs;
    this.lastTimeMs = timeMs;
    return this.add('OPEN', timeMs, price, sizeUsd, collateral);
  }

  /** INCREASE: more notional at `price`, with `collateral` added (may be 0: leverage rises). */
  increase(timeMs: number, price: number, sizeUsd: number, collateral: number): OrderRow {
    return this.add('INCREASE', timeMs, price, sizeUsd, collateral);
  }

  private add(type: 'OPEN' | 'INCREASE', timeMs: number, price: number, sizeUsd: number, collateral: number) {
    return this.apply({
      type,
      timeMs,
      price,
      tokenDelta: sizeUsd / price,
      sizeDelta: sizeUsd,
      collateralDelta: collateral,
      realised: 0,
    });
  }

  /** DECREASE: close `fraction` (0..1) of the tokens at `price`; the collateral stays. */
  decrease(timeMs: number, price: number, fraction: number): OrderRow {
    const closed = this.tokens * fraction;
    const realised = cents(this.sign * (price - this.averagePrice) * closed);
    return this.apply({
      type: 'DECREASE',
      timeMs,
      price,
      tokenDelta: -closed,
      sizeDelta: this.notional * fraction,
      collateralDelta: 0,
      realised,
    });
  }

  /** CLOSE: every remaining token at `price`; the collateral is withdrawn. */
  close(timeMs: number, price: number): OrderRow {
    const realised = cents(this.sign * (price - this.averagePrice) * this.tokens);
    return this.finish(timeMs, price, realised);
  }

  /**
   * Liquidation: a CLOSE at the liquidation price that loses the whole collateral, so the
   * position's realisedPnl is exactly −collateral (the maintenance part goes to the venue).
   */
  liquidate(timeMs: number): OrderRow {
    this.isLiquidate = true;
    return this.finish(timeMs, this.liquidationPrice(), cents(-this.collateral - this.realisedPnl));
  }

  /** MARGIN_TRANSFERRED: collateral added without trading (no fee, counted in no order count). */
  addMargin(timeMs: number, price: number, amount: number): OrderRow {
    return this.apply({
      type: 'MARGIN_TRANSFERRED',
      timeMs,
      price,
      tokenDelta: 0,
      sizeDelta: 0,
      collateralDelta: amount,
      realised: 0,
    });
  }

  /** The position row as of its last order. */
  toRow(): PositionRow {
    const id = this.identity;
    const d = derivePosition({
      ...id,
      size: this.peakSize,
      collateral: this.collateral,
      averagePrice: this.averagePrice,
      realisedPnl: this.realisedPnl,
      fee: this.fee,
      funding: this.funding,
      isLiquidate: this.isLiquidate,
      orderCount: this.increases + this.decreases,
      openTimeMs: this.openTimeMs,
      closeTimeMs: this.closeTimeMs,
    });
    return {
      id: id.id,
      account: id.account,
      protocol: id.protocol,
      key: id.key,
      log_id: this.logId,
      open_block_number: blockOf(this.openTimeMs),
      close_block_number: this.closeTimeMs === null ? null : blockOf(this.closeTimeMs),
      open_time_ms: this.openTimeMs,
      close_time_ms: this.closeTimeMs,
      index_token: id.indexToken,
      collateral_token: null,
      pair: id.pair,
      size: this.peakSize,
      size_in_token: this.tokens,
      collateral: this.collateral,
      average_price: this.averagePrice,
      fee: this.fee,
      funding: this.funding,
      realised_pnl: this.realisedPnl,
      pnl: d.pnl,
      roi: d.roi,
      realised_roi: d.realisedRoi,
      leverage: d.leverage,
      is_long: id.isLong ? 1 : 0,
      is_win: d.isWin === null ? null : d.isWin ? 1 : 0,
      is_liquidate: this.isLiquidate ? 1 : 0,
      order_count: this.increases + this.decreases,
      order_increase_count: this.increases,
      order_decrease_count: this.decreases,
      duration_s: d.durationInSecond,
      status: d.status,
      // Built by hand: JSON.stringify per row is measurable over a demo world of hash lists.
      tx_hashes: `["${this.txHashes.join('","')}"]`,
      created_at_ms: this.openTimeMs,
      updated_at_ms: this.lastTimeMs,
    };
  }

  private finish(timeMs: number, price: number, realised: number): OrderRow {
    // The collateral is withdrawn by the order, but the position keeps it: leverage and ROI are
    // measured on it.
    const order = this.apply({
      type: 'CLOSE',
      timeMs,
      price,
      tokenDelta: -this.tokens,
      sizeDelta: this.notional,
      collateralDelta: this.collateral,
      realised,
    });
    this.closeTimeMs = timeMs;
    return order;
  }

  /** Moves the state by one fill and returns its order (deltas are magnitudes, as on-chain). */
  private apply(fill: Fill): OrderRow {
    const funding = this.accrueFunding(fill.timeMs);
    const fee = cents(this.feeRate * Math.abs(fill.tokenDelta) * fill.price);
    const leverageBefore = this.currentLeverage;
    this.moveTokens(fill);
    if (fill.type !== 'CLOSE') this.collateral = cents(this.collateral + fill.collateralDelta);
    this.realisedPnl = cents(this.realisedPnl + fill.realised);
    this.fee = cents(this.fee + fee);
    this.count(fill.type);
    this.lastTimeMs = fill.timeMs;
    const stamp = this.stamp(this.identity, this.orderSeq);
    this.orderSeq += 1;
    this.txHashes.push(stamp.txHash);
    if (this.logId === 0) this.logId = stamp.logId;
    return this.orderRow(fill, stamp, {
      fee,
      funding,
      sizeDelta: fill.sizeDelta,
      collateralDelta: fill.collateralDelta,
      leverage: fill.type === 'CLOSE' ? leverageBefore : this.currentLeverage,
    });
  }

  /** Tokens and the size-weighted average entry; decreases leave the average unchanged. */
  private moveTokens(fill: Fill): void {
    if (fill.tokenDelta > 0) {
      this.tokens += fill.tokenDelta;
      this.notional += fill.sizeDelta;
      this.averagePrice = this.notional / this.tokens;
      this.peakSize = Math.max(this.peakSize, this.notional);
    } else if (fill.type === 'CLOSE') {
      // A close sets exactly 0: subtracting could leave a float crumb.
      this.tokens = 0;
      this.notional = 0;
    } else if (fill.tokenDelta < 0) {
      this.tokens += fill.tokenDelta;
      this.notional -= fill.sizeDelta;
    }
  }

  /** Funding since the previous order, on the notional held: longs pay a positive rate. */
  private accrueFunding(timeMs: number): number {
    if (this.tokens === 0) return 0;
    const rate = this.fundingIndex(timeMs) - this.fundingIndex(this.lastTimeMs);
    const funding = cents(-this.sign * this.notional * rate);
    this.funding = cents(this.funding + funding);
    return funding;
  }

  private count(type: OrderType): void {
    if (type === 'OPEN' || type === 'INCREASE') this.increases += 1;
    if (type === 'DECREASE' || type === 'CLOSE') this.decreases += 1;
  }

  private orderRow(
    fill: Fill,
    stamp: ReturnType<OrderStamper>,
    amounts: { fee: number; funding: number; sizeDelta: number; collateralDelta: number; leverage: number },
  ): OrderRow {
    const id = this.identity;
    return {
      id: stamp.id,
      position_id: id.id,
      account: id.account,
      protocol: id.protocol,
      key: id.key,
      tx_hash: stamp.txHash,
      index_token: id.indexToken,
      collateral_token: null,
      pair: id.pair,
      type: fill.type,
      is_long: id.isLong ? 1 : 0,
      size_delta: amounts.sizeDelta,
      size: this.notional,
      size_delta_in_token: Math.abs(fill.tokenDelta),
      size_in_token: this.tokens,
      collateral_delta: amounts.collateralDelta,
      collateral: fill.type === 'CLOSE' ? 0 : this.collateral,
      price: fill.price,
      average_price: this.averagePrice,
      realised_pnl: fill.realised,
      fee: amounts.fee,
      funding: amounts.funding,
      leverage: amounts.leverage,
      log_id: stamp.logId,
      block_number: blockOf(fill.timeMs),
      block_time_ms: fill.timeMs,
      created_at_ms: fill.timeMs,
    };
  }
}

/** A position key, like an on-chain one: the same for (account, index token, side) on a protocol. */
export const positionKey = (account: string, indexToken: string, isLong: boolean): string =>
  hex32(hashString(account), hashString(indexToken), isLong ? 1 : 2);

/** The simulated chain's block at a time. */
export const blockOf = (timeMs: number): number => Math.floor(timeMs / BLOCK_MS);
