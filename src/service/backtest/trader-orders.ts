// One trader's stored orders on one protocol, preloaded into typed arrays once, so that many
// configurations replay them without touching SQLite or allocating per order (docs/backtest.md, Speed).
import type { SourceOrder } from '../copy-engine/types';
import { addressKey } from '../copy-engine/ids';
import { volumeFactorOfMean } from '../copy-engine/sizing';
import { PriceSeries } from './price-series';

/** Order types as stored in `TraderOrders.type`. */
export const ORDER_CODE = { OPEN: 0, INCREASE: 1, DECREASE: 2, CLOSE: 3, MARGIN_TRANSFERRED: 4 } as const;
const TYPE_NAMES = ['OPEN', 'INCREASE', 'DECREASE', 'CLOSE', 'MARGIN_TRANSFERRED'] as const;

/** How many look-backs' volume factors a trader keeps at most. */
const KEPT_FACTORS = 16;

/** A token the trader traded, as the protocol lists it. */
export interface TokenMeta {
  indexToken: string;
  pair: string;
  /** The venue's maximum leverage, or null when the catalogue does not list the token (no cap). */
  maxLeverage: number | null;
}

/** A trader's orders as columns, one typed array per field, index i the i-th order in time order. */
export interface OrderColumns {
  time: Float64Array;
  type: Uint8Array;
  isLong: Uint8Array;
  isLiquidate: Uint8Array;
  /** Index into the trader's tokens. */
  token: Int32Array;
  sizeDelta: Float64Array;
  collateralDelta: Float64Array;
  sizeBefore: Float64Array;
  price: Float64Array;
}

/**
 * A trader's orders in time order (ties keep their stored order), columns in typed arrays. The
 * look-back history of volume protection is kept as the OPEN/INCREASE margins in time order.
 */
export class TraderOrders {
  readonly n: number;
  readonly time: Float64Array;
  readonly type: Uint8Array;
  readonly isLong: Uint8Array;
  readonly isLiquidate: Uint8Array;
  /** Index into `tokens`. */
  readonly token: Int32Array;
  readonly sizeDelta: Float64Array;
  readonly collateralDelta: Float64Array;
  readonly sizeBefore: Float64Array;
  readonly price: Float64Array;
  /** How many OPEN/INCREASE orders came strictly before order i's time (its look-back history). */
  readonly historyEnd: Int32Array;
  /** Collateral deltas of the OPEN/INCREASE orders, in time order. */
  readonly growMargins: Float64Array;
  /** The trader's own fill prices per token: the price path when no mark history covers them. */
  readonly fills: PriceSeries[];
  /** volumeFactors' answers by look-back: a sweep's configurations share them. */
  private readonly factors = new Map<number, Float64Array>();

  constructor(
    readonly account: string,
    readonly protocol: string,
    /** The columns, kept as they are: a worker thread gets them as they are (`columns()`). */
    c: OrderColumns,
    readonly tokens: readonly TokenMeta[],
  ) {
    const n = c.time.length;
    this.n = n;
    this.time = c.time;
    this.type = c.type;
    this.isLong = c.isLong;
    this.isLiquidate = c.isLiquidate;
    this.token = c.token;
    this.sizeDelta = c.sizeDelta;
    this.collateralDelta = c.collateralDelta;
    this.sizeBefore = c.sizeBefore;
    this.price = c.price;
    this.historyEnd = new Int32Array(n);
    const grows: number[] = [];
    const growTimes: number[] = [];
    for (let i = 0; i < n; i += 1)
      if (this.type[i] === ORDER_CODE.OPEN || this.type[i] === ORDER_CODE.INCREASE) {
        grows.push(this.collateralDelta[i]!);
        growTimes.push(this.time[i]!);
      }
    this.growMargins = Float64Array.from(grows);
    // The live engine reads the orders strictly before this one's time (copy-engine/store.ts lookBack).
    let h = 0;
    for (let i = 0; i < n; i += 1) {
      while (h < growTimes.length && growTimes[h]! < this.time[i]!) h += 1;
      this.historyEnd[i] = h;
    }
    this.fills = tokens.map((_, k) => {
      const times: number[] = [];
      const prices: number[] = [];
      for (let i = 0; i < n; i += 1)
        if (this.token[i] === k) {
          times.push(this.time[i]!);
          prices.push(this.price[i]!);
        }
      return new PriceSeries(Float64Array.from(prices), Float64Array.from(times));
    });
  }

  /** The order columns, to hand the trader to a worker thread (which rebuilds the rest from them). */
  columns(): OrderColumns {
    const { time, type, isLong, isLiquidate, token, sizeDelta, collateralDelta, sizeBefore, price } = this;
    return { time, type, isLong, isLiquidate, token, sizeDelta, collateralDelta, sizeBefore, price };
  }

  /** The order's type by name. */
  typeName(i: number): SourceOrder['type'] {
    return TYPE_NAMES[this.type[i]!]!;
  }

  /** The first order at or after `t` (n when none). */
  firstAtOrAfter(t: number): number {
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.time[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * volumeProtection's factor for every OPEN order (the order's margin against the mean of the
   * last `lookBack` OPEN/INCREASE margins before it), computed once per look-back.
   */
  volumeFactors(lookBack: number): Float64Array {
    let factors = this.factors.get(lookBack);
    if (factors) return factors;
    // A sweep may list up to 1,000 look-backs: a few are kept, not all.
    if (this.factors.size >= KEPT_FACTORS) this.factors.clear();
    factors = new Float64Array(this.n);
    for (let i = 0; i < this.n; i += 1)
      if (this.type[i] === ORDER_CODE.OPEN)
        factors[i] = volumeFactorOfMean(this.collateralDelta[i]!, this.lookBackMean(i, lookBack));
    this.factors.set(lookBack, factors);
    return factors;
  }

  /**
   * volumeProtection's mean source margin of the last `lookBack` OPEN/INCREASE orders before
   * order i, summed newest first as the live engine sums them; NaN without history.
   */
  lookBackMean(i: number, lookBack: number): number {
    const end = this.historyEnd[i]!;
    const start = Math.max(0, end - lookBack);
    if (end === start) return NaN;
    let sum = 0;
    for (let j = end - 1; j >= start; j -= 1) sum += this.growMargins[j]!;
    return sum / (end - start);
  }
}

/** Preloads `orders` (in time order) with the tokens `tokenOf` describes. */
export function traderOf(
  account: string,
  protocol: string,
  orders: readonly SourceOrder[],
  tokenOf: (indexToken: string) => TokenMeta,
): TraderOrders {
  const tokens: TokenMeta[] = [];
  const index = new Map<string, number>();
  const tokenIndex = (indexToken: string): number => {
    const key = addressKey(indexToken);
    let k = index.get(key);
    if (k === undefined) {
      k = tokens.length;
      tokens.push(tokenOf(indexToken));
      index.set(key, k);
    }
    return k;
  };
  const n = orders.length;
  const c: OrderColumns = {
    time: new Float64Array(n),
    type: new Uint8Array(n),
    isLong: new Uint8Array(n),
    isLiquidate: new Uint8Array(n),
    token: new Int32Array(n),
    sizeDelta: new Float64Array(n),
    collateralDelta: new Float64Array(n),
    sizeBefore: new Float64Array(n),
    price: new Float64Array(n),
  };
  orders.forEach((o, i) => {
    c.time[i] = o.blockTimeMs;
    c.type[i] = ORDER_CODE[o.type];
    c.isLong[i] = o.isLong ? 1 : 0;
    c.isLiquidate[i] = o.isLiquidate ? 1 : 0;
    c.token[i] = tokenIndex(o.indexToken);
    c.sizeDelta[i] = o.sizeDeltaUsd;
    c.collateralDelta[i] = o.collateralDeltaUsd;
    c.sizeBefore[i] = o.sizeBeforeUsd;
    c.price[i] = o.price;
  });
  return new TraderOrders(account, protocol, c, tokens);
}
