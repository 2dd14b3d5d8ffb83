// What each fill does to a copy position's money — pure arithmetic, no store, no clock — shared by
// the live engine (book.ts, which then writes the rows) and the backtest (src/service/backtest/),
// so that both apply one set of copy rules (docs/copy-engine.md; docs/backtest.md).
import type { CloseType } from '../../shared/api/copy-positions';
import { roundUsd } from '../copy-trading/money';
import {
  exitPricesInto,
  liquidationPrice,
  pastLiquidation,
  type ExitPrices,
  type ExitSettings,
} from './exits';
import {
  decreaseFee,
  increaseFee,
  notionalOf,
  positionPnl,
  realisedOn,
  weightedEntry,
  type CopyFees,
} from './fills';
import type { SourceOrder } from './types';
import { decreaseFraction } from './sizing';

/** The part of a copy position its fills change (EnginePosition has all of it). */
export interface HeldPosition extends ExitPrices {
  isLong: boolean;
  entryPrice: number;
  sizeTokens: number;
  totalSizeDelta: number;
  margin: number;
  leverage: number;
  realisedPnl: number;
  fee: number;
  funding: number;
  pnl: number;
}

/** One fill's figures: its notional and fee, the PnL it realised, and what it moved the wallet's balance by. */
export interface FillFigures {
  notional: number;
  fee: number;
  realised: number;
  balanceDelta: number;
}

/** The copy's side: the source's, or the opposite with reverseCopy. */
export const copySide = (sourceIsLong: boolean, reverseCopy: boolean): boolean =>
  sourceIsLong !== reverseCopy;

/**
 * Why the wallet cannot hold `margin` and pay the open fee on `notional` out of `available`
 * (balance minus the margin its open copies hold), or null when it can.
 */
export function cannotPay(
  margin: number,
  notional: number,
  fees: CopyFees,
  available: number,
): string | null {
  if (margin <= 0) return 'the copy margin rounds to 0 USD';
  const needs = roundUsd(margin + increaseFee(notional, fees));
  return needs > available ? `insufficient balance: needs ${needs} USD, available ${available} USD` : null;
}

/** What a source INCREASE, DECREASE or CLOSE does to an open copy filled at `price`. */
export type FollowAction =
  { kind: 'close' } | { kind: 'reduce'; fraction: number } | { kind: 'increase' } | null;

// The actions without a figure are shared objects: followAction runs at every source order.
const CLOSE_ACTION: FollowAction = { kind: 'close' };
const INCREASE_ACTION: FollowAction = { kind: 'increase' };

/** The position's liquidation price (entry × (1 ∓ 1/leverage), exits.ts). */
export const liquidationOf = (p: HeldPosition): number =>
  liquidationPrice(p.isLong, p.entryPrice, p.leverage);

/**
 * CLOSE, a source liquidation or a fill at or past the copy's liquidation price close the rest;
 * a DECREASE closes its fraction (all of it at 1); an INCREASE grows the copy. `liquidation`:
 * the position's liquidation price when the caller keeps it.
 */
export function followAction(
  order: SourceOrder,
  p: HeldPosition,
  price: number,
  liquidation = liquidationOf(p),
): FollowAction {
  if (order.isLiquidate || order.type === 'CLOSE' || pastLiquidation(p.isLong, price, liquidation))
    return CLOSE_ACTION;
  if (order.type === 'DECREASE') {
    const fraction = decreaseFraction(order);
    if (fraction >= 1) return CLOSE_ACTION;
    return fraction > 0 ? { kind: 'reduce', fraction } : null;
  }
  return order.type === 'INCREASE' ? INCREASE_ACTION : null;
}

/** The money fields of a position opened with `margin` at `leverage`: `tokens` at `price`, the open fee paid. */
export function openedPosition(
  settings: ExitSettings,
  isLong: boolean,
  size: { margin: number; leverage: number; notional: number; tokens: number },
  price: number,
  fees: CopyFees,
): HeldPosition & { openFee: number } {
  const p = {
    isLong,
    entryPrice: price,
    sizeTokens: size.tokens,
    totalSizeDelta: size.tokens,
    margin: size.margin,
    leverage: size.leverage,
    realisedPnl: 0,
    fee: 0,
    funding: 0,
    pnl: 0,
    stopLossPrice: null,
    stopLossAmount: null,
    takeProfitPrice: null,
    takeProfitAmount: null,
    openFee: 0,
  };
  p.openFee = openInto(p, settings, isLong, size, price, fees);
  return p;
}

/**
 * openedPosition written into `p` (every money and exit field set), answering the open fee: for
 * callers that reuse their position objects (the backtest opens thousands per run).
 */
export function openInto(
  p: HeldPosition,
  settings: ExitSettings,
  isLong: boolean,
  size: { margin: number; leverage: number; notional: number; tokens: number },
  price: number,
  fees: CopyFees,
): number {
  const fee = increaseFee(size.notional, fees);
  p.isLong = isLong;
  p.entryPrice = price;
  p.sizeTokens = size.tokens;
  p.totalSizeDelta = size.tokens;
  p.margin = size.margin;
  p.leverage = size.leverage;
  p.realisedPnl = 0;
  p.fee = fee;
  p.funding = 0;
  p.pnl = positionPnl(0, fee, 0);
  exitPricesInto(settings, p, p);
  return fee;
}

/** Adds a fill's realised PnL and fee to the position. */
function charge(p: HeldPosition, realised: number, fee: number): void {
  p.realisedPnl = roundUsd(p.realisedPnl + realised);
  p.fee = roundUsd(p.fee + fee);
  p.pnl = positionPnl(p.realisedPnl, p.fee, p.funding);
}

/** Re-prices the triggers after a fill that leaves the position open (a USD trigger follows the size). */
function reprice(p: HeldPosition, settings: ExitSettings | null): void {
  if (settings) exitPricesInto(settings, p, p);
}

/** A fill's figures, into `out` when the caller keeps one (the backtest), else a new object. */
function figures(
  out: FillFigures | undefined,
  notional: number,
  fee: number,
  realised: number,
  balanceDelta: number,
): FillFigures {
  if (!out) return { notional, fee, realised, balanceDelta };
  out.notional = notional;
  out.fee = fee;
  out.realised = realised;
  out.balanceDelta = balanceDelta;
  return out;
}

/**
 * Adds `marginDelta` of margin at the position's leverage; the entry becomes the size-weighted
 * mean. `out`: where to write the figures (a new object without).
 */
export function applyIncrease(
  p: HeldPosition,
  settings: ExitSettings | null,
  marginDelta: number,
  price: number,
  fees: CopyFees,
  out?: FillFigures,
): FillFigures {
  const notional = roundUsd(marginDelta * p.leverage);
  const tokens = notional / price;
  const fee = increaseFee(notional, fees);
  p.entryPrice = weightedEntry(p.sizeTokens, p.entryPrice, tokens, price);
  p.sizeTokens += tokens;
  p.totalSizeDelta += tokens;
  p.margin = roundUsd(p.margin + marginDelta);
  charge(p, 0, fee);
  reprice(p, settings);
  return figures(out, notional, fee, 0, -fee);
}

/** Closes `fraction` (< 1) of the position at `price`, releasing that fraction of its margin; `out` as applyIncrease. */
export function applyReduce(
  p: HeldPosition,
  settings: ExitSettings | null,
  fraction: number,
  price: number,
  fees: CopyFees,
  out?: FillFigures,
): FillFigures {
  const tokens = p.sizeTokens * fraction;
  const notional = notionalOf(tokens, price);
  const fee = decreaseFee(notional, fees);
  const realised = realisedOn(p.isLong, p.entryPrice, price, tokens);
  p.sizeTokens -= tokens;
  p.margin = roundUsd(p.margin - roundUsd(p.margin * fraction));
  charge(p, realised, fee);
  reprice(p, settings);
  return figures(out, notional, fee, realised, realised - fee);
}

/**
 * Closes the rest of the position at `price` with `closeType`; a price at or past the
 * liquidation price liquidates it instead (realised PnL is then minus its margin). The position
 * is left holding nothing; funding accrued on it is settled with the close. `liquidation`: the
 * position's liquidation price when the caller keeps it; `out`: where to write the figures.
 */
export function applyClose(
  p: HeldPosition,
  price: number,
  closeType: CloseType,
  fees: CopyFees,
  liquidation = liquidationOf(p),
  out?: FillFigures & { closeType: CloseType },
): FillFigures & { closeType: CloseType } {
  const type: CloseType = pastLiquidation(p.isLong, price, liquidation) ? 'LIQUIDATE' : closeType;
  const notional = notionalOf(p.sizeTokens, price);
  const fee = decreaseFee(notional, fees);
  const realised = type === 'LIQUIDATE' ? -p.margin : realisedOn(p.isLong, p.entryPrice, price, p.sizeTokens);
  charge(p, realised, fee);
  const balanceDelta = realised - fee + p.funding;
  p.margin = 0;
  p.sizeTokens = 0;
  if (!out) return { closeType: type, notional, fee, realised, balanceDelta };
  figures(out, notional, fee, realised, balanceDelta);
  out.closeType = type;
  return out;
}

/** FORCE_CLOSE: the position's PnL at `price` (never below −margin) realised without trading or fee. */
export function applyForceClose(p: HeldPosition, price: number): FillFigures {
  const realised = Math.max(realisedOn(p.isLong, p.entryPrice, price, p.sizeTokens), -p.margin);
  charge(p, realised, 0);
  p.margin = 0;
  p.sizeTokens = 0;
  return { notional: 0, fee: 0, realised, balanceDelta: realised + p.funding };
}
