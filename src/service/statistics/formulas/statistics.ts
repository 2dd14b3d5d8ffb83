// The statistic record of one trader on one protocol (docs/semantics.md, Statistic record).
//
// Built for millions of positions: one pass, running accumulators, no per-field arrays and no
// sorting of positions. Every window a closed position falls in is fed from that same pass.
// Decisions written down here:
// - The record exists only when its window has at least one closed position (null otherwise).
// - runTimeDays, lastTradeAt(Ts), isOpenPosition and unrealisedPnl look at ALL the trader's
//   positions on the protocol, whatever the window; runTimeDays is clamped at 0 against clock skew.
// - An open position whose token has no mark price adds 0 to unrealisedPnl (nothing to mark it to).
// - indexTokens and pairs are sorted, so a record does not depend on the order of its inputs.
// - Streaks follow close order (ties by id): counted in the pass when the input comes in that order
//   (the store's readers ensure it), replayed from sorted closes otherwise (streaks.ts).
import type { PositionStatistic } from '../../../shared/api/statistics';
import { derivePosition, isWinning, safeDiv, unrealisedPnlOf } from './position-facts';
import type { DerivedPosition, MarkPriceOf, PositionFacts } from './position-facts';
import { ReturnMoments, sharpeRatio, sortinoRatio } from './return-ratios';
import { CloseOrder, StreakCounter, sortCloses, type CloseEvent } from './streaks';
import { DAY_MS, WINDOWS, inWindow, windowBounds } from './windows';
import type { Window, WindowBounds } from './windows';

/** Fields the store adds to a record; the rest are computed here. */
type StoreField = 'id' | 'account' | 'protocol' | 'type' | 'createdAt' | 'updatedAt';

/** Every computed field of a statistic record (wire names); the optional wire extras are always set. */
export type StatisticValues = Omit<
  Required<Omit<PositionStatistic, StoreField>>,
  'pairs' | 'unrealisedPnl'
> & {
  pairs: string[];
  unrealisedPnl: number;
};

/** One statistic record per window that has closed positions. */
export type StatisticsByWindow = Partial<Record<Window, StatisticValues>>;

/** Running sums and extremes of one window's closed positions. */
class WindowAccumulator {
  n = 0;
  wins = 0;
  longs = 0;
  orders = 0;
  realisedPnl = 0;
  pnl = 0;
  fee = 0;
  volume = 0;
  gainR = 0;
  lossR = 0;
  gain = 0;
  loss = 0;
  sumRealisedRoi = 0;
  sumRoi = 0;
  sumDuration = 0;
  sumLeverage = 0;
  liquidations = 0;
  liquidationAmount = 0;
  longRealisedPnl = 0;
  longPnl = 0;
  longVolume = 0;
  shortRealisedPnl = 0;
  shortPnl = 0;
  shortVolume = 0;
  readonly streaks = new StreakCounter();
  readonly realisedRoiMoments = new ReturnMoments();
  readonly roiMoments = new ReturnMoments();
  maxRealisedRoi = -Infinity;
  maxRoi = -Infinity;
  maxRealisedPnl = -Infinity;
  maxPnl = -Infinity;
  minRealisedRoi = Infinity;
  minRoi = Infinity;
  minRealisedPnl = Infinity;
  minPnl = Infinity;
  minDuration = Infinity;
  maxDuration = -Infinity;
  minLeverage = Infinity;
  maxLeverage = -Infinity;
  // A trader trades a handful of tokens: a small array beats a Set on memory and speed.
  readonly indexTokens: string[] = [];
  readonly pairs: string[] = [];

  /** Feeds one closed position (with its derived numbers) into the window. */
  add(p: PositionFacts, d: DerivedPosition): void {
    this.addCounts(p, d);
    this.addSums(p, d);
    this.addExtremes(p, d);
    this.addSides(p, d);
    this.streaks.add(d.isWin === true);
    this.realisedRoiMoments.add(d.realisedRoi);
    this.roiMoments.add(d.roi);
    if (!this.indexTokens.includes(p.indexToken)) this.indexTokens.push(p.indexToken);
    if (!this.pairs.includes(p.pair)) this.pairs.push(p.pair);
  }

  private addCounts(p: PositionFacts, d: DerivedPosition): void {
    this.n += 1;
    if (d.isWin === true) this.wins += 1;
    if (p.isLong) this.longs += 1;
    this.orders += p.orderCount;
    // A liquidation that still closed in profit is not counted as one (docs/semantics.md).
    if (p.isLiquidate && d.isWin !== true) {
      this.liquidations += 1;
      this.liquidationAmount += p.realisedPnl;
    }
  }

  private addSums(p: PositionFacts, d: DerivedPosition): void {
    this.realisedPnl += p.realisedPnl;
    this.pnl += d.pnl;
    this.fee += p.fee;
    this.volume += p.size;
    // G and L split pnl by the sign of realisedPnl (chosen), so that G + L = pnl.
    if (p.realisedPnl > 0) {
      this.gainR += p.realisedPnl;
      this.gain += d.pnl;
    } else {
      this.lossR += p.realisedPnl;
      this.loss += d.pnl;
    }
    this.sumRealisedRoi += d.realisedRoi;
    this.sumRoi += d.roi;
    this.sumDuration += d.durationInSecond ?? 0;
    this.sumLeverage += d.leverage;
  }

  /** Long and short positions apart: Σ over the long, resp. the short, positions. */
  private addSides(p: PositionFacts, d: DerivedPosition): void {
    if (p.isLong) {
      this.longRealisedPnl += p.realisedPnl;
      this.longPnl += d.pnl;
      this.longVolume += p.size;
    } else {
      this.shortRealisedPnl += p.realisedPnl;
      this.shortPnl += d.pnl;
      this.shortVolume += p.size;
    }
  }

  private addExtremes(p: PositionFacts, d: DerivedPosition): void {
    const duration = d.durationInSecond ?? 0;
    this.maxRealisedRoi = Math.max(this.maxRealisedRoi, d.realisedRoi);
    this.maxRoi = Math.max(this.maxRoi, d.roi);
    this.maxRealisedPnl = Math.max(this.maxRealisedPnl, p.realisedPnl);
    this.maxPnl = Math.max(this.maxPnl, d.pnl);
    this.minRealisedRoi = Math.min(this.minRealisedRoi, d.realisedRoi);
    this.minRoi = Math.min(this.minRoi, d.roi);
    this.minRealisedPnl = Math.min(this.minRealisedPnl, p.realisedPnl);
    this.minPnl = Math.min(this.minPnl, d.pnl);
    this.minDuration = Math.min(this.minDuration, duration);
    this.maxDuration = Math.max(this.maxDuration, duration);
    this.minLeverage = Math.min(this.minLeverage, d.leverage);
    this.maxLeverage = Math.max(this.maxLeverage, d.leverage);
  }
}

/** Facts of the trader on the protocol over all time, whatever the window. */
class TraderAccumulator {
  firstOpenMs = Infinity;
  lastCloseMs = -Infinity;
  hasOpen = false;
  unrealisedPnl = 0;

  constructor(private readonly markPrice: MarkPriceOf) {}

  /** Feeds any position, open or closed. */
  add(p: PositionFacts): void {
    this.firstOpenMs = Math.min(this.firstOpenMs, p.openTimeMs);
    if (p.closeTimeMs !== null) {
      this.lastCloseMs = Math.max(this.lastCloseMs, p.closeTimeMs);
      return;
    }
    this.hasOpen = true;
    const mark = this.markPrice(p.indexToken);
    if (mark !== undefined) this.unrealisedPnl += unrealisedPnlOf(p, mark);
  }
}

/** ISO text of a time; the last one is remembered because a recompute asks for the same "now" each time. */
let lastIso: { ms: number; iso: string } = { ms: NaN, iso: '' };
const isoOf = (ms: number): string => {
  if (lastIso.ms !== ms) lastIso = { ms, iso: new Date(ms).toISOString() };
  return lastIso.iso;
};

/** An extreme that saw no value (still ±Infinity) is null. */
const extreme = (v: number): number | null => (Number.isFinite(v) ? v : null);

/** min(0, worst): a drawdown is never positive; null when nothing was seen. */
const drawdown = (min: number): number | null => (Number.isFinite(min) ? Math.min(0, min) : null);

/** (gain / wins) / (|loss| / loses); 0 when wins, loses or the loss is 0 (docs/semantics.md). */
function profitLossRatio(gain: number, loss: number, wins: number, loses: number): number {
  if (wins === 0 || loses === 0 || loss === 0) return 0;
  return safeDiv(gain / wins, Math.abs(loss) / loses);
}

/** gain / |loss|; equals the gain when there is no loss (docs/semantics.md). */
const gainLossRatio = (gain: number, loss: number): number =>
  loss === 0 ? gain : safeDiv(gain, Math.abs(loss));

/** gain / (gain + |loss|) × 100; 0 when the denominator is 0. */
const profitRate = (gain: number, loss: number): number => safeDiv(gain, gain + Math.abs(loss)) * 100;

/** Trader-wide fields, the same in every window of the trader (computed once per trader). */
interface TraderWide {
  runTimeDays: number;
  lastTradeAtTs: number;
  lastTradeAt: string;
  isOpenPosition: boolean;
  unrealisedPnl: number;
  statisticAt: string;
}

function traderWide(t: TraderAccumulator, nowMs: number, statisticAt: string): TraderWide {
  // A window with a closed position implies a last close, so lastCloseMs is finite there.
  const lastTradeAtTs = extreme(t.lastCloseMs) ?? nowMs;
  return {
    runTimeDays: Math.max(0, Math.floor((nowMs - t.firstOpenMs) / DAY_MS)),
    lastTradeAtTs,
    lastTradeAt: new Date(lastTradeAtTs).toISOString(),
    isOpenPosition: t.hasOpen,
    unrealisedPnl: t.unrealisedPnl,
    statisticAt,
  };
}

/**
 * Turns one window's accumulator into its record, or null when the window saw nothing. One
 * object literal with every field: a record of a million-position recompute is built in one step
 * with one hidden class, never by spreading partial objects.
 */
function toValues(a: WindowAccumulator, w: TraderWide): StatisticValues | null {
  if (a.n === 0) return null;
  const loses = a.n - a.wins;
  // A record has at least one position, so its maxima are defined; `?? 0` only satisfies the type.
  return {
    totalTrade: a.n,
    totalWin: a.wins,
    totalLose: loses,
    realisedTotalGain: a.gainR,
    realisedTotalLoss: a.lossR,
    totalGain: a.gain,
    totalLoss: a.loss,
    realisedPnl: a.realisedPnl,
    pnl: a.pnl,
    totalFee: a.fee,
    totalVolume: a.volume,
    totalLiquidation: a.liquidations,
    totalLiquidationAmount: a.liquidationAmount,
    avgVolume: safeDiv(a.volume, a.n),
    realisedAvgRoi: safeDiv(a.sumRealisedRoi, a.n),
    avgRoi: safeDiv(a.sumRoi, a.n),
    winRate: safeDiv(a.wins, a.n) * 100,
    longRate: safeDiv(a.longs, a.n) * 100,
    orderPositionRatio: safeDiv(a.orders, a.n),
    avgDuration: safeDiv(a.sumDuration, a.n),
    avgLeverage: safeDiv(a.sumLeverage, a.n),
    realisedProfitRate: profitRate(a.gainR, a.lossR),
    profitRate: profitRate(a.gain, a.loss),
    realisedProfitLossRatio: profitLossRatio(a.gainR, a.lossR, a.wins, loses),
    profitLossRatio: profitLossRatio(a.gain, a.loss, a.wins, loses),
    realisedGainLossRatio: gainLossRatio(a.gainR, a.lossR),
    gainLossRatio: gainLossRatio(a.gain, a.loss),
    realisedMaxRoi: extreme(a.maxRealisedRoi) ?? 0,
    maxRoi: extreme(a.maxRoi) ?? 0,
    realisedMaxPnl: extreme(a.maxRealisedPnl) ?? 0,
    maxPnl: extreme(a.maxPnl) ?? 0,
    realisedMaxDrawdown: drawdown(a.minRealisedRoi),
    maxDrawdown: drawdown(a.minRoi),
    realisedMaxDrawdownPnl: drawdown(a.minRealisedPnl),
    maxDrawdownPnl: drawdown(a.minPnl),
    minDuration: extreme(a.minDuration),
    maxDuration: extreme(a.maxDuration),
    minLeverage: extreme(a.minLeverage),
    maxLeverage: extreme(a.maxLeverage),
    longPnl: a.longPnl,
    realisedLongPnl: a.longRealisedPnl,
    shortPnl: a.shortPnl,
    realisedShortPnl: a.shortRealisedPnl,
    totalLongVolume: a.longVolume,
    totalShortVolume: a.shortVolume,
    winStreak: a.streaks.winStreak,
    loseStreak: a.streaks.loseStreak,
    maxWinStreak: a.streaks.maxWinStreak,
    maxLoseStreak: a.streaks.maxLoseStreak,
    sharpeRatio: sharpeRatio(a.roiMoments),
    realisedSharpeRatio: sharpeRatio(a.realisedRoiMoments),
    sortinoRatio: sortinoRatio(a.roiMoments),
    realisedSortinoRatio: sortinoRatio(a.realisedRoiMoments),
    runTimeDays: w.runTimeDays,
    lastTradeAtTs: w.lastTradeAtTs,
    lastTradeAt: w.lastTradeAt,
    isOpenPosition: w.isOpenPosition,
    unrealisedPnl: w.unrealisedPnl,
    statisticAt: w.statisticAt,
    indexTokens: a.indexTokens.length > 1 ? a.indexTokens.sort() : a.indexTokens,
    pairs: a.pairs.length > 1 ? a.pairs.sort() : a.pairs,
  };
}

interface Slot {
  window: Window;
  bounds: WindowBounds;
  acc: WindowAccumulator;
}

/** One pass over the positions feeding every requested window and the trader-wide facts. */
function scan(
  positions: Iterable<PositionFacts>,
  windows: readonly Window[],
  nowMs: number,
  markPrice: MarkPriceOf,
): StatisticsByWindow {
  const slots: Slot[] = windows.map((w) => ({
    window: w,
    bounds: windowBounds(w, nowMs),
    acc: new WindowAccumulator(),
  }));
  const trader = new TraderAccumulator(markPrice);
  const order = new CloseOrder();
  for (const p of positions) {
    trader.add(p);
    if (p.closeTimeMs === null) continue;
    order.see(p.closeTimeMs, p.id);
    const d = derivePosition(p);
    for (const s of slots) if (inWindow(p.closeTimeMs, s.bounds)) s.acc.add(p, d);
  }
  if (!order.ordered) replayStreaks(positions, slots, order.count);
  const out: StatisticsByWindow = {};
  if (trader.firstOpenMs === Infinity) return out;
  const wide = traderWide(trader, nowMs, isoOf(nowMs));
  for (const s of slots) {
    const values = toValues(s.acc, wide);
    if (values !== null) out[s.window] = values;
  }
  return out;
}

/**
 * Recounts every window's streaks from the closes sorted by (close time, id), for input that did
 * not come in close order. Reads the positions a second time (arrays and column runs can be).
 */
function replayStreaks(
  positions: Iterable<PositionFacts>,
  slots: readonly Slot[],
  closedCount: number,
): void {
  const closes: CloseEvent[] = [];
  for (const p of positions)
    if (p.closeTimeMs !== null) closes.push({ closeTimeMs: p.closeTimeMs, id: p.id, isWin: isWinning(p) });
  // A one-shot iterator (a generator) would read as empty now: refuse rather than count nothing.
  if (closes.length !== closedCount)
    throw new Error('statistics: positions given out of close order must be readable twice');
  for (const s of slots) s.acc.streaks.reset();
  for (const c of sortCloses(closes))
    for (const s of slots) if (inWindow(c.closeTimeMs, s.bounds)) s.acc.streaks.add(c.isWin);
}

/** The record of one window for one trader on one protocol; null when the window has no closed position. */
export function computeStatistic(
  positionsOfTraderOnProtocol: readonly PositionFacts[],
  window: Window,
  nowMs: number,
  markPrice: MarkPriceOf,
): StatisticValues | null {
  return scan(positionsOfTraderOnProtocol, [window], nowMs, markPrice)[window] ?? null;
}

/** The records of all five windows in one pass; windows without closed positions are absent. */
export function computeTraderStatistics(
  allPositionsOfTraderOnProtocol: Iterable<PositionFacts>,
  nowMs: number,
  markPrice: MarkPriceOf,
): StatisticsByWindow {
  return scan(allPositionsOfTraderOnProtocol, WINDOWS, nowMs, markPrice);
}
