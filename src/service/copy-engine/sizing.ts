// How much a copy opens and adds (docs/semantics.md, Copy engine: OPEN, INCREASE, DECREASE).
import { roundUsd } from '../copy-trading/money';
import type { SourceOrder } from './types';

/** `lookBackOrders` when the copy trade leaves it unset. */
export const DEFAULT_LOOK_BACK_ORDERS = 10;

/**
 * volumeProtection's f: min(1, source margin / mean source margin of the account's previous
 * OPEN/INCREASE orders); 1 without history (or a history of no margin).
 */
export function volumeFactor(sourceMargin: number, history: readonly number[]): number {
  if (history.length === 0) return 1;
  return volumeFactorOfMean(sourceMargin, history.reduce((s, m) => s + m, 0) / history.length);
}

/** volumeFactor from the history's mean margin (NaN: no history), for callers that keep sums. */
export function volumeFactorOfMean(sourceMargin: number, mean: number): number {
  return mean > 0 ? Math.min(1, sourceMargin / mean) : 1;
}

/** A copy's opening fill. */
export interface OpenSize {
  margin: number;
  leverage: number;
  /** Size in USD: margin × leverage. */
  notional: number;
  tokens: number;
}

/**
 * margin = volume × f; leverage = min(copy leverage, the venue's max); tokens = size / price.
 * `out`: where to write it (a new object without).
 */
export function openSize(
  volume: number,
  factor: number,
  leverage: number,
  maxLeverage: number | null,
  price: number,
  out?: OpenSize,
): OpenSize {
  const margin = roundUsd(volume * factor);
  const capped = maxLeverage === null ? leverage : Math.min(leverage, maxLeverage);
  const notional = roundUsd(margin * capped);
  if (!out) return { margin, leverage: capped, notional, tokens: notional / price };
  out.margin = margin;
  out.leverage = capped;
  out.notional = notional;
  out.tokens = notional / price;
  return out;
}

/** What an INCREASE needs to know about the copy position and its copy trade. */
export interface IncreaseSubject {
  /** The source order's size delta, USD. */
  sizeDeltaUsd: number;
  initialVol: number;
  sourceInitialVol: number;
  leverage: number;
  /** Margin the position holds now. */
  margin: number;
  volume: number;
  maxVolMultiplier: number | null;
}

/**
 * Margin an INCREASE adds: the copy delta (source delta × initialVol / sourceInitialVol, USD of
 * size) at the position's leverage, clipped so that the margin stays within volume ×
 * maxVolMultiplier. 0 means nothing to add (no headroom left, or no source margin to scale by).
 */
export function increaseMargin(s: IncreaseSubject): number {
  if (!(s.sourceInitialVol > 0)) return 0;
  const wanted = roundUsd((s.sizeDeltaUsd * s.initialVol) / s.sourceInitialVol / s.leverage);
  if (s.maxVolMultiplier === null) return Math.max(0, wanted);
  const headroom = roundUsd(s.volume * s.maxVolMultiplier - s.margin);
  return Math.max(0, Math.min(wanted, headroom));
}

/** Fraction of the copy a DECREASE closes: the source's sizeDelta / sizeBefore, at most 1. */
export function decreaseFraction(o: SourceOrder): number {
  return o.sizeBeforeUsd > 0 ? Math.min(1, o.sizeDeltaUsd / o.sizeBeforeUsd) : 1;
}
