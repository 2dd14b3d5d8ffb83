// The position engine of docs/semantics.md, Positions rebuilt from fills: fills in, positions and
// their orders out. Pure (no clock, no store): importers rebuild a series from all its stored fills,
// the venue feed (market/series-book.ts) drives one ledger per series a fill at a time and stores
// what it drains, the sandbox resumes a stored position for each order, and the simulator
// (market/simulator/position-book.ts) plays each position on one ledger with its market's settings.
import { derivePosition, type PositionFacts } from '../statistics/formulas/position-facts';
import type { OrderType } from '../../shared/api/positions';
import type { OrderRow, PositionRow } from '../store/positions';
import { sha, seriesText, withIndexToken, positionKey, type SeriesKey } from './keys';
import { numberToUnits, scaleUnits, toUnits, unitsToNumber, unitsToText, usdToUnits } from './units';

/** A fill the ledger cannot apply (out of time order, non-positive size or price). */
export class LedgerError extends Error {
  override name = 'LedgerError';
}

/**
 * How much a fill trades: tokens as decimal text, exact units, a USD notional at the fill price, or
 * a share (0 < share ≤ 1) of the open position (a venue that decreases by a fraction of the size).
 */
export type FillAmount =
  { tokens: string } | { units: bigint } | { usd: string | number } | { share: number };

/** One fill (trade) of a series. */
export interface LedgerFill {
  /** Unique in the series and stable: the ids of its orders and of a position it opens derive from it. */
  id: string;
  timeMs: number;
  isBuy: boolean;
  /** Fill price in USD per token, > 0. */
  price: number;
  amount: FillAmount;
  /** USD; when absent, the settings' fee rate on the fill's notional (else 0). Negative is a rebate. */
  fee?: number;
  /** USD, signed (negative means paid); when absent, accrued from the settings' funding index (else 0). */
  funding?: number;
  /** The position's collateral in USD after this fill, when the source reports it. */
  collateral?: number;
  /** The collateral the source says this fill moved (a magnitude); default the change it made. */
  collateralDelta?: number;
  /** The source marks this fill as a liquidation of the account. */
  isLiquidation?: boolean;
  txHash?: string;
  /** Stored as the orders' log_id; defaults to the fill's index in the series. */
  logId?: number;
  /**
   * The caller's own ids for the order this fill books and the position it opens, where its source
   * names them (the sandbox's orders); else both derive from `id`. A fill through zero books its
   * second part under derived ids.
   */
  ids?: { order: string; position: string };
}

/** Settings of a rebuild. */
export interface LedgerSettings {
  /** Leverage assumed when the source reports no collateral: collateral = size / leverage. Default 1. */
  assumedLeverage?: number;
  /** The rows' pair; default `${symbol}/USD` (the sandbox names an unlisted token's pair by the token). */
  pair?: string;
  /** A taker fee rate: a fill without its own fee pays rate × tokens × price (0 for a margin transfer). */
  feeRate?: number;
  /**
   * The cumulative funding rate at a time (differences are what count): a fill without its own
   * funding carries −side × size × (index(fill) − index(previous fill)), so longs pay a positive rate.
   */
  fundingIndex?: (timeMs: number) => number;
  /**
   * Money rounded to this many decimals (2: cents): each order's realised PnL, fee and funding, and
   * the position's sums of them, so that the orders add up exactly to their position.
   */
  moneyDecimals?: number;
  /**
   * The position keeps its size in USD as its own sum, as venues that trade in USD do (GMX's
   * sizeInUsd): a fill sized in USD adds exactly that, a decrease takes its share, the entry is
   * size / tokens. Without it the size is tokens × the running mean entry.
   */
  keepsUsdSize?: boolean;
  /** Maintenance margin as a fraction of the size: where `liquidationPrice()` and `liquidate()` put the price. */
  maintenanceMargin?: number;
  /** Block time of a chain: block number = floor(time / blockMs). Without it blocks are 0 (off-chain venues). */
  blockMs?: number;
  /**
   * The series' position keys where its stored positions already carry one (a store written
   * before the one positionKey): kept, so a series keeps one key. Else `positionKey`.
   */
  keys?: { long?: string; short?: string };
}

/** The open position as the engine holds it, for a caller that decides on it (a simulated trader). */
export interface OpenPositionView {
  isLong: boolean;
  /** |net size| in tokens. */
  tokens: number;
  averagePrice: number;
  /** The size in USD now (kept, or tokens × entry). */
  size: number;
  /** The collateral now: reported, else size / assumed leverage. */
  collateral: number;
  realisedPnl: number;
  lastTimeMs: number;
}

/** A fill that closes the whole position at its liquidation price (the engine works out price and size). */
export type LiquidationFill = Omit<LedgerFill, 'isBuy' | 'price' | 'amount' | 'isLiquidation'>;

/** A fill of a source that names its orders' types (the sandbox): the side of its position, not of the trade. */
export type TypedFill = Omit<LedgerFill, 'isBuy'> & { isLong: boolean };

/** The share of one fill that one order books (a fill through zero books two). */
interface FillPart {
  /** The fill; its side is the transition's business (openWith takes it apart). */
  fill: Omit<LedgerFill, 'isBuy'>;
  /** 0, or 1 for the opening half of a fill through zero. */
  index: 0 | 1;
  units: bigint;
  /** `units` as a number of tokens, converted once. */
  tokens: number;
  fee: number;
  funding: number;
  collateral: number | undefined;
  /** The fill's USD notional when the source sized it in USD: a growing order's size delta. */
  usd: number | undefined;
  /** The share of the open position the fill closes, when the source sized it so. */
  share: number | undefined;
  collateralDelta: number | undefined;
  logId: number;
}

interface OpenPosition {
  id: string;
  key: string;
  isLong: boolean;
  /** |net size| in units, > 0 while the position is open. */
  units: bigint;
  /** `units` as a number of tokens, kept with it (money arithmetic reads it on every fill). */
  tokens: number;
  averagePrice: number;
  /** The size in USD kept as its own sum (settings.keepsUsdSize); unused otherwise. */
  notional: number;
  peakSize: number;
  peakReportedCollateral: number | null;
  lastReportedCollateral: number | null;
  lastCollateral: number;
  lastLeverage: number | null;
  /** The leverage assumed for this position when the source reports no collateral. */
  assumedLeverage: number;
  realisedPnl: number;
  fee: number;
  funding: number;
  openTimeMs: number;
  lastTimeMs: number;
  logId: number;
  /** Orders booked, and how many of them grew (OPEN, INCREASE) the position. */
  orderCount: number;
  increases: number;
  /** The position's transactions, each once, in first-seen order (a Set: a position may have thousands). */
  txHashes: Set<string>;
  isLiquidate: boolean;
}

/** The tokens a fill's amount names, in units (≥ 0 when well formed); a share is of `held`. */
function amountUnits(fill: Pick<LedgerFill, 'amount' | 'price' | 'id'>, held: bigint | undefined): bigint {
  const a = fill.amount;
  if ('units' in a) return a.units;
  if ('tokens' in a) return toUnits(a.tokens);
  if ('usd' in a) return usdToUnits(a.usd, fill.price);
  if (held === undefined || !(a.share > 0 && a.share <= 1))
    throw new LedgerError(`fill ${fill.id}: a share must be in (0, 1] of an open position`);
  return scaleUnits(held, a.share);
}

/** The tokens a fill trades, in units (> 0); `held` is the open position's, for a share. */
export function fillUnits(fill: LedgerFill, held?: bigint): bigint {
  const units = amountUnits(fill, held);
  if (units <= 0n) throw new LedgerError(`fill ${fill.id}: size must be greater than 0`);
  return units;
}

/**
 * The ledger of one series (docs/semantics.md, Positions rebuilt from fills). Feed it fills in time
 * order with `apply`; `positions()` and `orders()` are the rows to store.
 */
export class PositionLedger {
  private readonly series: Required<SeriesKey>;
  private readonly leverage: number;
  private readonly settings: LedgerSettings;
  /** Rounds money to settings.moneyDecimals (the identity without it). */
  private readonly money: (x: number) => number;
  /** Worked out once: every order and position of the series carries them. */
  private readonly text: string;
  private readonly pair: string;
  /** The position keys of the long and short side, hashed when first used (a resumed ledger has its own). */
  private readonly keys: { long?: string; short?: string } = {};
  private readonly closed: PositionRow[] = [];
  private readonly booked: OrderRow[] = [];
  private open: OpenPosition | null = null;
  private lastTimeMs = Number.NEGATIVE_INFINITY;
  private count = 0;

  constructor(series: SeriesKey, settings: LedgerSettings = {}) {
    this.series = withIndexToken(series);
    this.text = seriesText(this.series);
    this.pair = settings.pair ?? `${this.series.symbol}/USD`;
    this.leverage = settings.assumedLeverage ?? 1;
    if (!(Number.isFinite(this.leverage) && this.leverage > 0))
      throw new LedgerError(`assumed leverage must be a number greater than 0, not ${this.leverage}`);
    this.settings = settings;
    this.money = moneyRounding(settings.moneyDecimals);
    Object.assign(this.keys, settings.keys);
  }

  /** orderId / positionId of this series, without working the series' text out again. */
  private hashId(kind: 'order' | 'position', fillId: string, index: 0 | 1): string {
    return sha(`${kind}|${this.text}|${fillId}|${index}`).slice(0, 32);
  }

  private keyOf(isLong: boolean): string {
    const side = isLong ? 'long' : 'short';
    return (this.keys[side] ??= positionKey(this.series, isLong));
  }

  /** The caller's id for part 0 of a fill that names its rows, else the derived one. */
  private idOf(kind: 'order' | 'position', fill: Omit<LedgerFill, 'isBuy'>, index: 0 | 1): string {
    const own = index === 0 ? fill.ids?.[kind] : undefined;
    return own ?? this.hashId(kind, fill.id, index);
  }

  /**
   * The ledger of a series whose open position is stored as `row` and whose collateral its source
   * reports (the sandbox reads its trader's open position back for each order). The position's
   * size in tokens comes back from the stored float, to the nearest unit.
   */
  static resume(series: SeriesKey, row: PositionRow, settings: LedgerSettings = {}): PositionLedger {
    const ledger = new PositionLedger(series, settings);
    const units = numberToUnits(row.size_in_token);
    ledger.open = {
      id: row.id,
      key: row.key,
      isLong: row.is_long === 1,
      units,
      tokens: unitsToNumber(units),
      averagePrice: row.average_price,
      notional: row.size_in_token * row.average_price,
      peakSize: row.size,
      peakReportedCollateral: row.collateral,
      lastReportedCollateral: row.collateral,
      lastCollateral: row.collateral,
      lastLeverage: null,
      assumedLeverage: ledger.leverage,
      realisedPnl: row.realised_pnl,
      fee: row.fee,
      funding: row.funding,
      openTimeMs: row.open_time_ms,
      lastTimeMs: row.updated_at_ms,
      logId: row.log_id,
      orderCount: row.order_count,
      increases: row.order_increase_count,
      txHashes: new Set(JSON.parse(row.tx_hashes) as string[]),
      isLiquidate: false,
    };
    // The last order's leverage: its size after / its collateral, as record() works it out.
    const p = ledger.open;
    p.lastLeverage = p.lastCollateral > 0 ? ledger.sizeOf(p) / p.lastCollateral : row.leverage;
    ledger.lastTimeMs = row.updated_at_ms;
    return ledger;
  }

  /** The signed net size in units: > 0 long, < 0 short, 0 flat. */
  get netUnits(): bigint {
    if (!this.open) return 0n;
    return this.open.isLong ? this.open.units : -this.open.units;
  }

  /** The open position, or null when the series is flat. */
  get openPosition(): OpenPositionView | null {
    const p = this.open;
    if (!p) return null;
    return {
      isLong: p.isLong,
      tokens: p.tokens,
      averagePrice: p.averagePrice,
      size: this.sizeOf(p),
      collateral: this.collateralNow(p),
      realisedPnl: p.realisedPnl,
      lastTimeMs: p.lastTimeMs,
    };
  }

  /**
   * Where the open position is liquidated, with maintenance margin m, size N and collateral C:
   * long entry × (1 − (C/N − m)), short entry × (1 + (C/N − m)); null when flat. It may be ≤ 0 (a
   * long with more collateral than size is never liquidated).
   */
  liquidationPrice(): number | null {
    const p = this.open;
    if (!p) return null;
    const cushion = this.collateralNow(p) / this.sizeOf(p) - this.maintenance();
    return p.averagePrice * (1 - (p.isLong ? 1 : -1) * cushion);
  }

  /**
   * Liquidation, for a source that has no liquidation fill of its own: a CLOSE of every token at
   * `liquidationPrice()`, marked a liquidation, that loses the whole collateral: it realises
   * −collateral minus what earlier decreases realised (the maintenance margin goes to the venue).
   */
  liquidate(fill: LiquidationFill): OrderRow {
    const p = this.open;
    const price = this.liquidationPrice();
    if (!p || price === null || !(price > 0))
      throw new LedgerError(`fill ${fill.id}: no open position to liquidate at a positive price`);
    const whole = { ...fill, isBuy: !p.isLong, price, amount: { units: p.units }, isLiquidation: true };
    this.check(whole);
    const part = this.part(whole, p.units, 0);
    return this.shrink(p, part, 'CLOSE', true, this.money(-this.collateralNow(p) - p.realisedPnl));
  }

  private maintenance(): number {
    const m = this.settings.maintenanceMargin;
    if (m === undefined) throw new LedgerError('the ledger has no maintenance margin setting');
    return m;
  }

  /** Applies the next fill; returns the orders it booked (two when it goes through zero). */
  apply(fill: LedgerFill): OrderRow[] {
    const units = fillUnits(fill, this.open?.units);
    this.check(fill); // last: a refused fill leaves the ledger as it was
    const whole = this.part(fill, units, 0);
    const p = this.open;
    if (!p) return [this.openWith(whole, fill.isBuy)];
    if (fill.isBuy === p.isLong) return [this.grow(p, whole, 'INCREASE')];
    if (units < p.units) return [this.shrink(p, whole, 'DECREASE')];
    if (units === p.units) return [this.shrink(p, whole, 'CLOSE')];
    return this.flip(p, whole);
  }

  /**
   * The transitions by name, for a source whose orders say what they do (the sandbox): OPEN on a
   * flat series, INCREASE on the open position's side, DECREASE / CLOSE of at most what is held
   * (CLOSE takes all of it when `units` is absent). The order keeps the type the source gave, and
   * the position closes when nothing is left. Unlike `apply`, an INCREASE or DECREASE may trade
   * nothing (a collateral-only increase). Throws LedgerError when the transition does not fit.
   */
  applyTyped(type: 'OPEN' | 'INCREASE' | 'DECREASE' | 'CLOSE', fill: TypedFill, units?: bigint): OrderRow {
    const p = this.open;
    if ((type === 'OPEN') !== !p || (p && p.isLong !== fill.isLong))
      throw new LedgerError(`fill ${fill.id}: ${type} does not fit the series' open position`);
    const amount = units ?? (type === 'CLOSE' && p ? p.units : amountUnits(fill, p?.units));
    if (amount < 0n || (type === 'OPEN' && amount === 0n) || (p && type !== 'INCREASE' && amount > p.units))
      throw new LedgerError(
        `fill ${fill.id}: ${type} of ${unitsToText(amount)} tokens does not fit the position`,
      );
    // The typed fill goes in as it is, not copied with a side: this runs once per simulated order.
    this.check(fill);
    const part = this.part(fill, amount, 0);
    if (!p || type === 'OPEN') return this.openWith(part, fill.isLong);
    if (type === 'INCREASE') return this.grow(p, part, 'INCREASE');
    return this.shrink(p, part, type, amount === p.units);
  }

  /**
   * MARGIN_TRANSFERRED: the source moves the open position's collateral to `collateral` without
   * trading; the order counts in no order count. Throws LedgerError when the series is flat.
   */
  transferMargin(fill: TypedFill, collateral: number): OrderRow {
    const p = this.open;
    if (!p) throw new LedgerError(`fill ${fill.id}: no open position to transfer margin to`);
    const whole = { ...fill, isBuy: p.isLong, collateral };
    this.check(whole);
    const part = this.part(whole, 0n, 0);
    this.book(p, part);
    return this.record(p, part, 'MARGIN_TRANSFERRED', 0, 0);
  }

  /**
   * The leverage of the open position, when the source reports it apart from the fills (a venue's
   * account state): its collateral is then its size / `leverage`. Returns the position's row as it
   * now stands, or null when the series is flat.
   */
  setOpenLeverage(leverage: number): PositionRow | null {
    if (!(Number.isFinite(leverage) && leverage > 0))
      throw new LedgerError(`leverage must be a number greater than 0, not ${leverage}`);
    const p = this.open;
    if (!p) return null;
    p.assumedLeverage = leverage;
    if (p.lastReportedCollateral === null) p.lastLeverage = leverage;
    return this.row(p, null);
  }

  /**
   * The rows booked since the last drain, then forgotten: the orders, and every position they
   * touched (closed ones final, the open one as it stands). A long-lived ledger (a live feed)
   * stores these and keeps only its open position in memory.
   */
  drain(): { positions: PositionRow[]; orders: OrderRow[] } {
    const orders = this.booked.splice(0);
    const positions = this.closed.splice(0);
    const open = this.open;
    if (open && orders.some((o) => o.position_id === open.id)) positions.push(this.row(open, null));
    return { positions, orders };
  }

  /** Every position so far, in opening order: the closed ones, then the open one if any. */
  positions(): PositionRow[] {
    return this.open ? [...this.closed, this.row(this.open, null)] : [...this.closed];
  }

  /** Every order booked so far, in fill order. */
  orders(): OrderRow[] {
    return [...this.booked];
  }

  private check(fill: Omit<LedgerFill, 'isBuy'>): void {
    if (!Number.isSafeInteger(fill.timeMs)) throw new LedgerError(`fill ${fill.id}: time must be epoch ms`);
    if (fill.timeMs < this.lastTimeMs)
      throw new LedgerError(`fill ${fill.id}: fills must come in time order`);
    if (!(Number.isFinite(fill.price) && fill.price > 0))
      throw new LedgerError(`fill ${fill.id}: price must be a number greater than 0`);
    this.lastTimeMs = fill.timeMs;
  }

  private part(fill: Omit<LedgerFill, 'isBuy'>, units: bigint, index: 0 | 1): FillPart {
    const logId = fill.logId ?? this.count;
    if (index === 0) this.count += 1;
    const tokens = unitsToNumber(units);
    const rate = this.settings.feeRate;
    const fee = fill.fee ?? (rate === undefined ? 0 : this.money(rate * tokens * fill.price));
    const funding = fill.funding ?? this.accruedFunding(fill.timeMs);
    return {
      fill,
      index,
      units,
      tokens,
      fee,
      funding,
      collateral: fill.collateral,
      usd: 'usd' in fill.amount ? Number(fill.amount.usd) : undefined,
      share: 'share' in fill.amount ? fill.amount.share : undefined,
      collateralDelta: fill.collateralDelta,
      logId,
    };
  }

  /** Funding on the open position's size since its last fill, from settings.fundingIndex (else 0). */
  private accruedFunding(timeMs: number): number {
    const index = this.settings.fundingIndex;
    const p = this.open;
    if (!index || !p) return 0;
    const rate = index(timeMs) - index(p.lastTimeMs);
    const sign = p.isLong ? 1 : -1;
    return this.money(-sign * this.sizeOf(p) * rate);
  }

  /**
   * A fill through zero: the part that reaches zero closes the position, the rest opens the next one
   * at the same price and time. The fee is split by tokens; funding and a reported collateral cannot
   * be split, so funding stays with the closed position and the collateral goes to the new one.
   */
  private flip(p: OpenPosition, whole: FillPart): OrderRow[] {
    const closeFee = (whole.fee * p.tokens) / whole.tokens;
    const closing = {
      ...whole,
      units: p.units,
      tokens: p.tokens,
      fee: closeFee,
      collateral: undefined,
      usd: undefined,
      share: undefined,
      collateralDelta: undefined,
    };
    const restUnits = whole.units - p.units;
    const rest = {
      ...whole,
      index: 1 as const,
      units: restUnits,
      tokens: unitsToNumber(restUnits),
      fee: whole.fee - closeFee,
      usd: undefined,
      share: undefined,
      collateralDelta: undefined,
    };
    return [this.shrink(p, closing, 'CLOSE'), this.openWith({ ...rest, funding: 0 }, !p.isLong)];
  }

  /** OPEN of a position on side `isLong`. */
  private openWith(part: FillPart, isLong: boolean): OrderRow {
    const { fill } = part;
    const p: OpenPosition = {
      id: this.idOf('position', fill, part.index),
      key: this.keyOf(isLong),
      isLong,
      units: 0n,
      tokens: 0,
      averagePrice: fill.price,
      notional: 0,
      peakSize: 0,
      peakReportedCollateral: null,
      lastReportedCollateral: null,
      lastCollateral: 0,
      lastLeverage: null,
      assumedLeverage: this.leverage,
      realisedPnl: 0,
      fee: 0,
      funding: 0,
      openTimeMs: fill.timeMs,
      lastTimeMs: fill.timeMs,
      logId: part.logId,
      orderCount: 0,
      increases: 0,
      txHashes: new Set(),
      isLiquidate: false,
    };
    this.open = p;
    return this.grow(p, part, 'OPEN');
  }

  /**
   * OPEN or INCREASE. The average entry is the running size-weighted mean: the tokens still held at
   * the old average plus the new ones at the fill price. That is what venues do (so realised PnL
   * agrees with their closedPnl), and decreases leave it unchanged.
   */
  private grow(p: OpenPosition, part: FillPart, type: 'OPEN' | 'INCREASE'): OrderRow {
    const held = p.tokens;
    const tokens = part.tokens;
    p.units += part.units;
    p.tokens = unitsToNumber(p.units);
    if (this.settings.keepsUsdSize) {
      p.notional += part.usd ?? tokens * part.fill.price;
      if (tokens > 0) p.averagePrice = p.notional / p.tokens;
    } else if (held > 0 && tokens > 0)
      p.averagePrice = (p.averagePrice * held + part.fill.price * tokens) / p.tokens;
    p.peakSize = Math.max(p.peakSize, this.sizeOf(p));
    this.book(p, part);
    // A fill sized in USD grows the position by that USD (tokens × price only rounds back to it).
    return this.record(p, part, type, part.usd ?? tokens * part.fill.price, 0);
  }

  /** DECREASE or CLOSE: realises (price − average entry) × tokens closed, negated for shorts. */
  private shrink(
    p: OpenPosition,
    part: FillPart,
    type: 'DECREASE' | 'CLOSE',
    closes = type === 'CLOSE',
    realisedAs?: number,
  ): OrderRow {
    const tokens = part.tokens;
    const move = (part.fill.price - p.averagePrice) * tokens;
    const realised = realisedAs ?? this.money(p.isLong ? move : -move);
    const sizeDelta = this.shrinkSize(p, part, closes);
    p.units -= part.units;
    p.tokens = unitsToNumber(p.units);
    p.realisedPnl = this.money(p.realisedPnl + realised);
    this.book(p, part);
    // The size delta of a decrease is at the average entry, so size − size delta = the size after.
    const order = this.record(p, part, type, sizeDelta, realised);
    if (closes) {
      p.isLiquidate = part.fill.isLiquidation === true;
      this.closed.push(this.row(p, part.fill.timeMs));
      this.open = null;
    }
    return order;
  }

  /**
   * The size a shrinking part takes off: its tokens at the average entry, or, with a kept USD size,
   * its share of that size (all of it for a close), which it also takes off the kept size.
   */
  private shrinkSize(p: OpenPosition, part: FillPart, closes: boolean): number {
    if (!this.settings.keepsUsdSize) return part.tokens * p.averagePrice;
    const delta = closes ? p.notional : p.notional * (part.share ?? part.tokens / p.tokens);
    p.notional = closes ? 0 : p.notional - delta;
    return delta;
  }

  /** Adds a part's money, collateral, time and transaction to its position. */
  private book(p: OpenPosition, part: FillPart): void {
    p.fee = this.money(p.fee + part.fee);
    p.funding = this.money(p.funding + part.funding);
    p.lastTimeMs = part.fill.timeMs;
    if (part.collateral !== undefined) {
      p.lastReportedCollateral = part.collateral;
      p.peakReportedCollateral = Math.max(p.peakReportedCollateral ?? 0, part.collateral);
    }
    const hash = part.fill.txHash;
    if (hash) p.txHashes.add(hash);
  }

  private sizeOf(p: OpenPosition): number {
    return this.settings.keepsUsdSize ? p.notional : p.tokens * p.averagePrice;
  }

  private blockOf(timeMs: number): number {
    const blockMs = this.settings.blockMs;
    return blockMs === undefined ? 0 : Math.floor(timeMs / blockMs);
  }

  /** The position's collateral now: the last one the source reported, else size / assumed leverage. */
  private collateralNow(p: OpenPosition): number {
    if (p.units === 0n) return 0;
    return p.lastReportedCollateral ?? this.sizeOf(p) / p.assumedLeverage;
  }

  private record(p: OpenPosition, part: FillPart, type: OrderType, sizeDelta: number, realised: number) {
    const size = this.sizeOf(p);
    const collateral = this.collateralNow(p);
    if (p.lastReportedCollateral === null) p.lastLeverage = p.assumedLeverage;
    else if (collateral > 0) p.lastLeverage = size / collateral;
    const s = this.series;
    // The shared columns written out rather than spread in: this runs once per fill.
    const order: OrderRow = {
      account: s.account,
      protocol: s.protocol,
      key: p.key,
      index_token: s.indexToken,
      collateral_token: null,
      pair: this.pair,
      is_long: p.isLong ? 1 : 0,
      id: this.idOf('order', part.fill, part.index),
      position_id: p.id,
      tx_hash: part.fill.txHash ?? '',
      type,
      size_delta: sizeDelta,
      size,
      size_delta_in_token: part.tokens,
      size_in_token: p.tokens,
      collateral_delta: part.collateralDelta ?? Math.abs(collateral - p.lastCollateral),
      collateral,
      price: part.fill.price,
      average_price: p.averagePrice,
      realised_pnl: realised,
      fee: part.fee,
      funding: part.funding,
      leverage: p.lastLeverage,
      log_id: part.logId,
      block_number: this.blockOf(part.fill.timeMs),
      block_time_ms: part.fill.timeMs,
      created_at_ms: part.fill.timeMs,
    };
    p.lastCollateral = collateral;
    // A margin transfer trades nothing: it counts in no order count.
    if (type !== 'MARGIN_TRANSFERRED') p.orderCount += 1;
    if (type === 'OPEN' || type === 'INCREASE') p.increases += 1;
    this.booked.push(order);
    return order;
  }

  /** The position's row; `closeTimeMs` null while it is open. */
  private row(p: OpenPosition, closeTimeMs: number | null): PositionRow {
    const reported = p.peakReportedCollateral;
    const assumed = reported === null;
    const facts = this.facts(p, closeTimeMs, reported ?? p.peakSize / p.assumedLeverage);
    const d = derivePosition(facts);
    const s = this.series;
    // Written out rather than spread in, as in record(): a spread builds a slower object to write.
    return {
      account: s.account,
      protocol: s.protocol,
      key: p.key,
      index_token: s.indexToken,
      collateral_token: null,
      pair: this.pair,
      is_long: p.isLong ? 1 : 0,
      id: p.id,
      log_id: p.logId,
      // Venues off-chain have no blocks (settings.blockMs): 0; close_block_number null while open.
      open_block_number: this.blockOf(p.openTimeMs),
      close_block_number: closeTimeMs === null ? null : this.blockOf(closeTimeMs),
      open_time_ms: p.openTimeMs,
      close_time_ms: closeTimeMs,
      size: facts.size,
      size_in_token: p.tokens,
      collateral: facts.collateral,
      average_price: p.averagePrice,
      fee: p.fee,
      funding: p.funding,
      realised_pnl: p.realisedPnl,
      pnl: d.pnl,
      roi: d.roi,
      realised_roi: d.realisedRoi,
      // With an assumed collateral the leverage is the assumption itself, not size / (size / L).
      leverage: assumed ? p.assumedLeverage : d.leverage,
      is_win: d.isWin === null ? null : d.isWin ? 1 : 0,
      is_liquidate: p.isLiquidate ? 1 : 0,
      order_count: p.orderCount,
      // (chosen) OPEN counts as an increase and CLOSE as a decrease: orderCount = increases + decreases.
      order_increase_count: p.increases,
      order_decrease_count: p.orderCount - p.increases,
      duration_s: d.durationInSecond,
      status: d.status,
      tx_hashes: JSON.stringify([...p.txHashes]),
      created_at_ms: p.openTimeMs,
      updated_at_ms: p.lastTimeMs,
    };
  }

  private facts(p: OpenPosition, closeTimeMs: number | null, collateral: number): PositionFacts {
    return {
      id: p.id,
      account: this.series.account,
      protocol: this.series.protocol,
      indexToken: this.series.indexToken,
      pair: this.pair,
      isLong: p.isLong,
      size: p.peakSize,
      collateral,
      averagePrice: p.averagePrice,
      realisedPnl: p.realisedPnl,
      fee: p.fee,
      funding: p.funding,
      isLiquidate: p.isLiquidate,
      orderCount: p.orderCount,
      openTimeMs: p.openTimeMs,
      closeTimeMs,
    };
  }
}

/** Relative distance below a half step within which a float is taken as the half step (float noise). */
const TIE_NOISE = 1e-14;

/**
 * `x` rounded half up to `decimals` decimals, −0 as 0. A product that stands for an exact half
 * step lands a hair either side of it in floating point (0.035 % of 100 USD is
 * 0.034999999999999996), so a value within TIE_NOISE below a half step rounds up, as its decimal
 * value does (docs/simulator.md, Position and orders).
 */
export function roundMoney(x: number, decimals: number): number {
  const scale = 10 ** decimals;
  const scaled = x * scale;
  const n = Math.round(scaled);
  const tie = Math.abs(scaled - n - 0.5) <= Math.abs(scaled) * TIE_NOISE;
  return (tie ? n + 1 : n) / scale + 0;
}

/** roundMoney to `decimals`, or x itself when decimals is undefined. */
function moneyRounding(decimals: number | undefined): (x: number) => number {
  if (decimals === undefined) return (x) => x;
  return (x) => roundMoney(x, decimals);
}

/**
 * Rebuilds a series from all its fills: sorted by time, ties keeping the given order (the sort is
 * stable). The same fills give the same rows and ids.
 */
export function rebuildSeries(
  series: SeriesKey,
  fills: readonly LedgerFill[],
  settings: LedgerSettings = {},
): { positions: PositionRow[]; orders: OrderRow[] } {
  const ledger = new PositionLedger(series, settings);
  for (const fill of [...fills].sort((a, b) => a.timeMs - b.timeMs)) ledger.apply(fill);
  return { positions: ledger.positions(), orders: ledger.orders() };
}
