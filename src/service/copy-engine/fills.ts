// The arithmetic of one fill of a copy position: notional, fees, realised PnL (docs/semantics.md, Money).
import { roundUsd } from '../copy-trading/money';

/** Fee rates as fractions of the fill's notional. */
export interface CopyFees {
  /** Charged on every fill (default 0.035 %). */
  taker: number;
  /** Charged on opens and increases on top of the taker fee (default 0.025 %). */
  service: number;
}

/** The defaults of docs/semantics.md. */
export const DEFAULT_COPY_FEES: CopyFees = { taker: 0.00035, service: 0.00025 };

/** Fee of a fill that opens or grows a position: taker plus service fee on its notional. */
export const increaseFee = (notional: number, fees: CopyFees): number =>
  roundUsd(notional * (fees.taker + fees.service));

/** Fee of a fill that shrinks or closes a position: the taker fee on its notional. */
export const decreaseFee = (notional: number, fees: CopyFees): number => roundUsd(notional * fees.taker);

/** USD notional of `tokens` at `price`, at the venue's precision. */
export const notionalOf = (tokens: number, price: number): number => roundUsd(tokens * price);

/** PnL of closing `tokens` bought (long) or sold (short) at `entry`, at `price`. */
export function realisedOn(isLong: boolean, entry: number, price: number, tokens: number): number {
  return roundUsd((isLong ? price - entry : entry - price) * tokens);
}

/** The position's `pnl`: realised PnL minus fees plus funding (docs/semantics.md, Positions). */
export const positionPnl = (realised: number, fee: number, funding: number): number =>
  roundUsd(realised - fee + funding);

/** Entry price after adding `tokens` at `price`: the size-weighted mean. */
export function weightedEntry(tokens: number, entry: number, addTokens: number, price: number): number {
  const total = tokens + addTokens;
  return total > 0 ? (tokens * entry + addTokens * price) / total : price;
}
