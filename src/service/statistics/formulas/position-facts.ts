// A trader's position reduced to the facts the statistics need, and the per-position numbers of
// docs/semantics.md, Positions. Pure: no clock, no store.
import type { PositionStatus } from '../../../shared/api/common';

/** One position as the analytics read it; `closeTimeMs` null means the position is OPEN. */
export interface PositionFacts {
  id: string;
  account: string;
  protocol: string;
  indexToken: string;
  pair: string;
  isLong: boolean;
  size: number;
  collateral: number;
  averagePrice: number;
  realisedPnl: number;
  fee: number;
  funding: number;
  isLiquidate: boolean;
  orderCount: number;
  openTimeMs: number;
  closeTimeMs: number | null;
}

/** The mark price of an index token now, or undefined when the market has none. */
export type MarkPriceOf = (indexToken: string) => number | undefined;

/** The wire fields derived from a position's facts. */
export interface DerivedPosition {
  pnl: number;
  roi: number;
  realisedRoi: number;
  leverage: number;
  isWin: boolean | null;
  durationInSecond: number | null;
  status: PositionStatus;
}

/** a / b, or 0 when the quotient is not a finite number (empty denominators are 0, never NaN). */
export const safeDiv = (a: number, b: number): number => {
  const q = a / b;
  return Number.isFinite(q) ? q : 0;
};

/** pnl = realisedPnl − fee + funding (funding is signed). */
export const pnlOf = (p: PositionFacts): number => p.realisedPnl - p.fee + p.funding;

/** isWin = realisedPnl > 0 (docs/semantics.md, chosen); meaningful for closed positions only. */
export const isWinning = (p: PositionFacts): boolean => p.realisedPnl > 0;

/** Derived wire fields of a position; isWin and durationInSecond are null while it is open. */
export function derivePosition(p: PositionFacts): DerivedPosition {
  const pnl = pnlOf(p);
  const closed = p.closeTimeMs !== null;
  return {
    pnl,
    roi: safeDiv(pnl, p.collateral) * 100,
    realisedRoi: safeDiv(p.realisedPnl, p.collateral) * 100,
    leverage: safeDiv(p.size, p.collateral),
    isWin: closed ? isWinning(p) : null,
    // Exact seconds from millisecond times: the wire field is a number, not an integer.
    durationInSecond: p.closeTimeMs === null ? null : (p.closeTimeMs - p.openTimeMs) / 1000,
    status: closed ? 'CLOSE' : 'OPEN',
  };
}

/** Mark-to-market PnL of a position at `markPrice`: the price move on its USD size, negated for shorts. */
export function unrealisedPnlOf(p: PositionFacts, markPrice: number): number {
  const move = safeDiv(markPrice - p.averagePrice, p.averagePrice) * p.size;
  // `+ 0` turns −0 (a flat short) into 0.
  return (p.isLong ? move : -move) + 0;
}
