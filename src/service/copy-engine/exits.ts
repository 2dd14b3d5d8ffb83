// Exits of a copy position on mark prices (docs/semantics.md, Copy engine): liquidation, stop loss and
// take profit. The trigger prices are stored on the position; the checks compare the mark with them.
import type { AmountType } from '../../shared/api/copy-trades';

/** What an exit needs to know about a position. */
export interface ExitSubject {
  isLong: boolean;
  entryPrice: number;
  leverage: number;
  stopLossPrice: number | null;
  takeProfitPrice: number | null;
}

/** The stop-loss and take-profit settings of a copy trade. */
export interface ExitSettings {
  enableStopLoss: boolean;
  stopLossType: AmountType;
  stopLossAmount: number | null;
  enableTakeProfit: boolean;
  takeProfitType: AmountType;
  takeProfitAmount: number | null;
}

/** The stored exit fields of a position (amounts null when the exit is off). */
export interface ExitPrices {
  stopLossPrice: number | null;
  stopLossAmount: number | null;
  takeProfitPrice: number | null;
  takeProfitAmount: number | null;
}

/** Powers of ten that doubles hold exactly (10^0 … 10^22). */
const EXACT_POWERS = Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * ⌊log10(magnitude)⌋: by comparison with the exact powers from 1 up (most prices), which is
 * exact and several times faster than Math.log10; below 1 by Math.log10, which may land one
 * decade off near a power of ten (roundPrice then checks the digits it gets either way).
 */
function decadeOf(magnitude: number): number {
  if (magnitude < 1) return Math.floor(Math.log10(magnitude));
  let d = 0;
  while (d < 22 && magnitude >= EXACT_POWERS[d + 1]!) d += 1;
  return d;
}

/**
 * A price kept to 12 significant digits: the trigger as stored and shown; the same number as
 * `Number(price.toPrecision(12))`, several times faster (the backtest rounds a trigger at every
 * fill). The fast path scales the price to a 12-digit integer and back by an exact power of ten
 * (a correctly rounded division, as the parse of the digits is); where the scaled value lies too
 * close to a rounding tie for the scaling's own rounding to be trusted, or the price is outside
 * the range the powers cover, it asks toPrecision itself.
 */
export function roundPrice(price: number): number {
  const magnitude = Math.abs(price);
  if (!(magnitude >= 1e-10 && magnitude < 1e11)) return Number(price.toPrecision(12));
  const k = 11 - decadeOf(magnitude);
  const power = EXACT_POWERS[k];
  if (power === undefined) return Number(price.toPrecision(12));
  const scaled = magnitude * power;
  const n = Math.round(scaled);
  // log10 may land one decade off near powers of ten; a near-tie may round the other way exactly.
  if (n < 1e11 || n >= 1e12 || Math.abs(scaled - Math.floor(scaled) - 0.5) < 1e-3)
    return Number(price.toPrecision(12));
  const rounded = n / power;
  return price < 0 ? -rounded : rounded;
}

/**
 * The price at which the position's PnL reaches `signedAmount` (negative for a loss): PERCENT
 * is ROI on margin, so a move of amount / (100 × leverage) of the entry; USD is unrealised PnL,
 * so a move of amount / tokens.
 */
function priceAt(
  type: AmountType,
  signedAmount: number,
  isLong: boolean,
  entry: number,
  tokens: number,
  leverage: number,
): number | null {
  if (type === 'USD' && !(tokens > 0)) return null;
  const direction = isLong ? 1 : -1;
  const move = type === 'PERCENT' ? (entry * signedAmount) / (100 * leverage) : signedAmount / tokens;
  return roundPrice(entry + direction * move);
}

/** The trigger prices of a position with this entry, size and leverage under `settings`. */
export function exitPrices(
  settings: ExitSettings,
  position: { isLong: boolean; entryPrice: number; sizeTokens: number; leverage: number },
): ExitPrices {
  const out: ExitPrices = {
    stopLossAmount: null,
    stopLossPrice: null,
    takeProfitAmount: null,
    takeProfitPrice: null,
  };
  return exitPricesInto(settings, position, out);
}

/**
 * exitPrices written into `out` (which may be the position itself: only its exit fields are
 * written), for callers that price triggers at every fill and make no object for it.
 */
export function exitPricesInto<T extends ExitPrices>(
  settings: ExitSettings,
  position: { isLong: boolean; entryPrice: number; sizeTokens: number; leverage: number },
  out: T,
): T {
  const { isLong, entryPrice, sizeTokens, leverage } = position;
  const sl = settings.enableStopLoss ? settings.stopLossAmount : null;
  const tp = settings.enableTakeProfit ? settings.takeProfitAmount : null;
  out.stopLossAmount = sl;
  out.stopLossPrice =
    sl === null ? null : priceAt(settings.stopLossType, -sl, isLong, entryPrice, sizeTokens, leverage);
  out.takeProfitAmount = tp;
  out.takeProfitPrice =
    tp === null ? null : priceAt(settings.takeProfitType, tp, isLong, entryPrice, sizeTokens, leverage);
  return out;
}

/**
 * Where the margin is gone: entry × (1 − 1/leverage) for longs, × (1 + 1/leverage) for shorts,
 * to 12 significant digits (so that 50,000 × 1.1 is 55,000, not 55,000.000000000007).
 */
export function liquidationPrice(isLong: boolean, entryPrice: number, leverage: number): number {
  return roundPrice(entryPrice * (isLong ? 1 - 1 / leverage : 1 + 1 / leverage));
}

/** Whether `price` is at or past the position's liquidation price. */
export function crossesLiquidation(p: ExitSubject, price: number): boolean {
  return pastLiquidation(p.isLong, price, liquidationPrice(p.isLong, p.entryPrice, p.leverage));
}

/** Whether `price` is at or past `liquidation` (callers that keep the liquidation price skip its rounding). */
export const pastLiquidation = (isLong: boolean, price: number, liquidation: number): boolean =>
  isLong ? price <= liquidation : price >= liquidation;

/**
 * The exit a mark at `price` triggers, liquidation first, then stop loss, then take profit; or
 * null. `liquidation`: the position's liquidation price when the caller keeps it.
 */
export function exitAt(
  p: ExitSubject,
  price: number,
  liquidation = liquidationPrice(p.isLong, p.entryPrice, p.leverage),
): 'LIQUIDATE' | 'STOP_LOSS' | 'TAKE_PROFIT' | null {
  if (pastLiquidation(p.isLong, price, liquidation)) return 'LIQUIDATE';
  // Written out, no inner closures: the backtest calls this at every exit of every configuration,
  // and a closure per call (named at each creation under tsx) cost more than the checks.
  const stop = p.stopLossPrice;
  if (stop !== null && (p.isLong ? price <= stop : price >= stop)) return 'STOP_LOSS';
  const take = p.takeProfitPrice;
  if (take !== null && (p.isLong ? price >= take : price <= take)) return 'TAKE_PROFIT';
  return null;
}
