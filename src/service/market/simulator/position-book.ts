// One simulated position on the one position engine (src/service/positions/, docs/simulator.md,
// Position and orders): `SimPosition` turns a simulated trader's actions (USD-sized opens and
// increases, decreases by a share, top-ups, closes, liquidations) into the engine's transitions,
// with the market's fee rate, funding index and maintenance margin, and names the rows with the
// world's stamps. The rules themselves (sizes, entry, realised PnL, money in cents, the key) are
// the engine's. Pure: no store, no clock.
import type { OrderRow, PositionRow } from '../../store/positions';
import {
  PositionLedger,
  type LedgerSettings,
  type OpenPositionView,
  type TypedFill,
} from '../../positions/ledger';
import { BLOCK_MS, MAINTENANCE } from './parameters';

/** What names a position: who, where, what and which side. */
export interface PositionIdentity {
  id: string;
  account: string;
  protocol: string;
  symbol: string;
  indexToken: string;
  pair: string;
  isLong: boolean;
  /**
   * The key the series' stored positions carry, when a database seeded before the one positionKey
   * holds some (docs/simulator.md, Keys); else the engine's positionKey.
   */
  storedKey?: string;
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

/** The amount of a fill whose size the transition decides (a CLOSE, a margin transfer). */
const NO_AMOUNT = { units: 0n };

/** USD amounts are kept in cents, so that orders sum exactly to their position. */
export const cents = (x: number): number => Math.round(x * 100) / 100 + 0;

/** The engine's settings for a simulated market: USD sizes kept, money in cents, its chain's blocks. */
function simulatedMarket(
  identity: PositionIdentity,
  feeRate: number,
  fundingIndex: FundingIndex,
): LedgerSettings {
  const key = identity.storedKey;
  return {
    pair: identity.pair,
    keys: key === undefined ? undefined : identity.isLong ? { long: key } : { short: key },
    feeRate,
    fundingIndex,
    moneyDecimals: 2,
    keepsUsdSize: true,
    maintenanceMargin: MAINTENANCE,
    blockMs: BLOCK_MS,
  };
}

/** A position being simulated: apply fills in time order, then read its row. */
export class SimPosition {
  closeTimeMs: number | null = null;
  isLiquidate = false;
  /** Orders booked (margin transfers included): the next order's stamp. */
  private seq = 0;
  /**
   * The liquidation price, worked out once per order: the live market checks every open position
   * against every tick's price, and a trader's triggers ask for it at every event.
   */
  private liquidation: number | null = null;
  private readonly ledger: PositionLedger;

  /** A new position on its own ledger, or, given `ledger`, one resumed from its row (fromRow). */
  constructor(
    readonly identity: PositionIdentity,
    feeRate: number,
    fundingIndex: FundingIndex,
    private readonly stamp: OrderStamper,
    ledger?: PositionLedger,
  ) {
    this.ledger = ledger ?? new PositionLedger(identity, simulatedMarket(identity, feeRate, fundingIndex));
  }

  /**
   * Resumes an open position from its stored row (the live market): the engine's resume, the key
   * as stored (a database seeded before the one positionKey keeps its keys), the order sequence
   * continued from the row's transactions.
   */
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
      isLong: row.is_long === 1,
    };
    const settings = simulatedMarket(identity, feeRate, fundingIndex);
    const p = new SimPosition(
      identity,
      feeRate,
      fundingIndex,
      stamp,
      PositionLedger.resume(identity, row, settings),
    );
    p.seq = (JSON.parse(row.tx_hashes) as string[]).length;
    return p;
  }

  private get state(): OpenPositionView {
    const state = this.ledger.openPosition;
    if (!state) throw new Error(`position ${this.identity.id} is closed`);
    return state;
  }

  /** +1 for a long, −1 for a short. */
  get sign(): number {
    return this.identity.isLong ? 1 : -1;
  }

  get averagePrice(): number {
    return this.state.averagePrice;
  }

  /** The collateral put in (OPEN, INCREASE, MARGIN_TRANSFERRED). */
  get collateral(): number {
    return this.state.collateral;
  }

  /** Current notional at the average entry: the position's size in USD, kept as its own sum. */
  get notional(): number {
    return this.state.size;
  }

  /** Current leverage: notional / collateral. */
  get currentLeverage(): number {
    const s = this.state;
    return s.collateral > 0 ? s.size / s.collateral : 0;
  }

  /** The engine's liquidation price (entry × (1 ∓ (1/leverage − maintenance))). */
  liquidationPrice(): number {
    return (this.liquidation ??= this.ledger.liquidationPrice() as number);
  }

  /** The price at which the unrealised ROI on collateral reaches `roi` (0.5 = +50 %). */
  priceAtRoi(roi: number): number {
    const s = this.state;
    const leverage = s.collateral > 0 ? s.size / s.collateral : 0;
    return s.averagePrice * (1 + (this.sign * roi) / leverage);
  }

  /** Whether `price` is at or beyond the liquidation price. */
  isLiquidatableAt(price: number): boolean {
    const liquidation = this.liquidationPrice();
    return this.identity.isLong ? price <= liquidation : price >= liquidation;
  }

  /** Mark-to-market PnL of the open tokens at `price`. */
  unrealisedAt(price: number): number {
    const s = this.state;
    return this.sign * (price - s.averagePrice) * s.tokens;
  }

  /** OPEN: `sizeUsd` of notional on `collateral` at `price`. */
  open(timeMs: number, price: number, sizeUsd: number, collateral: number): OrderRow {
    return this.grow('OPEN', timeMs, price, sizeUsd, collateral, 0);
  }

  /** INCREASE: more notional at `price`, with `collateral` added (may be 0: leverage rises). */
  increase(timeMs: number, price: number, sizeUsd: number, collateral: number): OrderRow {
    return this.grow('INCREASE', timeMs, price, sizeUsd, collateral, this.collateral);
  }

  private grow(
    type: 'OPEN' | 'INCREASE',
    timeMs: number,
    price: number,
    sizeUsd: number,
    added: number,
    before: number,
  ): OrderRow {
    const fill = this.fill(timeMs, price, { usd: sizeUsd });
    fill.collateral = cents(before + added);
    fill.collateralDelta = added;
    return this.ledger.applyTyped(type, fill);
  }

  /** DECREASE: close `fraction` (0..1) of the tokens at `price`; the collateral stays. */
  decrease(timeMs: number, price: number, fraction: number): OrderRow {
    return this.ledger.applyTyped('DECREASE', this.fill(timeMs, price, { share: fraction }));
  }

  /** CLOSE: every remaining token at `price`; the collateral is withdrawn. */
  close(timeMs: number, price: number): OrderRow {
    const order = this.ledger.applyTyped('CLOSE', this.fill(timeMs, price));
    this.closeTimeMs = timeMs;
    return order;
  }

  /** Liquidation: the engine's CLOSE at the liquidation price, realisedPnl then exactly −collateral. */
  liquidate(timeMs: number): OrderRow {
    const { price: _price, amount: _amount, isLong: _isLong, ...fill } = this.fill(timeMs, 0);
    const order = this.ledger.liquidate(fill);
    this.closeTimeMs = timeMs;
    this.isLiquidate = true;
    return order;
  }

  /** MARGIN_TRANSFERRED: collateral added without trading (no fee, counted in no order count). */
  addMargin(timeMs: number, price: number, amount: number): OrderRow {
    const collateral = cents(this.collateral + amount);
    const fill = this.fill(timeMs, price);
    fill.collateralDelta = amount;
    return this.ledger.transferMargin(fill, collateral);
  }

  /** The position row as of its last order. */
  toRow(): PositionRow {
    // Drained, so that a long-lived position (the live market) keeps no orders in memory.
    const drained = this.ledger.drain().positions.at(-1);
    return drained ?? (this.ledger.positions()[0] as PositionRow);
  }

  /** The next order's fill, named by the world's stamp: its order id, transaction and log index. */
  private fill(timeMs: number, price: number, amount: TypedFill['amount'] = NO_AMOUNT): TypedFill {
    const stamp = this.stamp(this.identity, this.seq);
    this.seq += 1;
    this.liquidation = null; // the order changes the position
    return {
      id: stamp.id,
      ids: { order: stamp.id, position: this.identity.id },
      timeMs,
      isLong: this.identity.isLong,
      price,
      amount,
      txHash: stamp.txHash,
      logId: stamp.logId,
    };
  }
}
