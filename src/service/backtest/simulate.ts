// The backtest of one configuration over one trader's orders: the live copy engine's rules
// (src/service/copy: filters, sizing, position-fills, exits) applied in time order to a wallet
// of its own, with the costs of a real copy — delay, slippage, fees, funding (docs/backtest.md).
import type { BacktestCloseReason, EquityPoint, SimulatorPosition } from '../../shared/api/backtest';
import type { CloseType } from '../../shared/api/copy-positions';
import { roundUsd, USD_DECIMALS } from '../copy-trading/money';
import { exitAt, type ExitSettings } from '../copy-engine/exits';
import type { CopyFees } from '../copy-engine/fills';
import { skipReason, type FilterSubject } from '../copy-engine/filters';
import {
  applyClose,
  applyIncrease,
  applyReduce,
  cannotPay,
  copySide,
  followAction,
  liquidationOf,
  openInto,
  type FillFigures,
  type HeldPosition,
} from '../copy-engine/position-fills';
import { increaseMargin, openSize, type OpenSize } from '../copy-engine/sizing';
import type { SourceOrder } from '../copy-engine/types';
import { delayedMarks, stretchOf, type DelayedMarks, type PricePaths } from './delayed-marks';
import { firstCrossIn } from './path-extremes';
import { ORDER_CODE, type TraderOrders } from './trader-orders';

export type { PricePaths } from './delayed-marks';

/** One configuration, resolved: every default applied, times in epoch ms. */
export interface RunSettings {
  balance: number;
  orderVolume: number;
  leverage: number;
  reverseCopy: boolean;
  volumeProtection: boolean;
  lookBackOrders: number;
  maxVolMultiplier: number | null;
  exits: ExitSettings;
  filters: FilterSubject;
  delayMs: number;
  /** Fraction of the price the copy loses on every fill (slippageBps / 10,000). */
  slippage: number;
  fees: CopyFees;
  funding: boolean;
  fromTime: number;
  toTime: number;
}

/** What a run counts; docs/backtest.md, Result, defines each figure from these. */
export interface RunTotals {
  totalTrade: number;
  totalWin: number;
  totalGain: number;
  totalLoss: number;
  sumRoi: number;
  minRoi: number;
  maxRoi: number;
  minPnl: number;
  maxPnl: number;
  totalStopLoss: number;
  totalTakeProfit: number;
  totalLiquidate: number;
  totalSkipped: number;
  fees: number;
  funding: number;
  /** Realised equity curve extremes: the worst fall from a peak (USD and % of the peak), the best rise from a trough (%). */
  maxDrawDownPnl: number;
  maxDrawDown: number;
  maxDrawUp: number;
  maxVolMultiplier: number;
  finalBalance: number;
}

/** One fill of a simulated copy, for callers that compare runs fill by fill (the differential test). */
export interface SimulatedFill {
  time: number;
  indexToken: string;
  isLong: boolean;
  kind: 'OPEN' | 'INCREASE' | 'DECREASE' | 'CLOSE';
  price: number;
  notional: number;
  fee: number;
  realised: number;
}

/** A run's totals, and, when asked for, its equity curve and positions. */
export interface RunResult {
  totals: RunTotals;
  equity: EquityPoint[] | null;
  positions: SimulatorPosition[] | null;
}

/** A copy held by the simulation: the live position's money fields plus what the replay needs. */
interface Copy extends HeldPosition {
  token: number;
  key: number;
  openTime: number;
  initialVol: number;
  sourceInitialVol: number;
  peakMargin: number;
  peakSize: number;
  /** Cumulative funding rate when funding was last accrued. */
  fundingMark: number;
  liquidation: number;
  /** The exit levels: a price at or below `low` or at or above `high` closes the copy. */
  low: number;
  high: number;
  /** The first point after the last order on its token that crosses a level, and its time (Infinity: none before the next such order). */
  exitPoint: number;
  exitTime: number;
}

/** A copy with every field set, each of one type throughout (V8 then keeps one shape for all). */
const blankCopy = (): Copy => ({
  isLong: true,
  entryPrice: 0,
  sizeTokens: 0,
  totalSizeDelta: 0,
  margin: 0,
  leverage: 1,
  realisedPnl: 0,
  fee: 0,
  funding: 0,
  pnl: 0,
  stopLossPrice: null,
  stopLossAmount: null,
  takeProfitPrice: null,
  takeProfitAmount: null,
  token: 0,
  key: 0,
  openTime: 0,
  initialVol: 0,
  sourceInitialVol: 0,
  peakMargin: 0,
  peakSize: 0,
  fundingMark: 0,
  liquidation: 0,
  low: -Infinity,
  high: Infinity,
  exitPoint: -1,
  exitTime: Infinity,
});

const MICROS = 10 ** USD_DECIMALS;
const micros = (usd: number): number => Math.round(usd * MICROS);

/**
 * Which OPEN orders the configuration's filters skip (1), decided once per trader and filter
 * settings: filters read only the source order, so a sweep shares them.
 */
export function filterMask(trader: TraderOrders, filters: FilterSubject): Uint8Array {
  const mask = new Uint8Array(trader.n);
  for (let i = 0; i < trader.n; i += 1) {
    if (trader.type[i] !== ORDER_CODE.OPEN) continue;
    const order = {
      indexToken: trader.tokens[trader.token[i]!]!.indexToken,
      isLong: trader.isLong[i] === 1,
      sizeDeltaUsd: trader.sizeDelta[i]!,
      collateralDeltaUsd: trader.collateralDelta[i]!,
    };
    if (skipReason(filters, order) !== null) mask[i] = 1;
  }
  return mask;
}

/** What a run keeps besides its totals: nothing (a sweep), the equity curve, or that and the positions. */
export type RunDetail = 'none' | 'equity' | 'positions';

/** Replays `trader`'s orders in [fromTime, toTime] under `s`, keeping `detail`. */
export function simulate(
  trader: TraderOrders,
  paths: PricePaths,
  s: RunSettings,
  skipped: Uint8Array,
  detail: RunDetail,
  onFill?: (fill: SimulatedFill) => void,
  shared?: DelayedMarks,
): RunResult {
  const fits =
    shared !== undefined &&
    shared.delayMs === s.delayMs &&
    shared.fromTime === s.fromTime &&
    shared.toTime === s.toTime;
  const marks = fits ? shared : delayedMarks(trader, paths, s.delayMs, s.fromTime, s.toTime);
  return new Run(trader, paths, s, detail, marks, !fits, onFill).replay(skipped);
}

/** One replay's state: the wallet, the open copies by source key, the running totals. */
class Run {
  private balance: number;
  private held = 0;
  /** The open copy of each source position (token × 2 + side), if any: an array, not a Map, in the hot loop. */
  private readonly open: (Copy | undefined)[];
  private readonly t: RunTotals;
  private peak: number;
  /** volumeProtection's factor per OPEN order, or null without it. */
  private readonly factors: Float64Array | null;
  /** Whether a trigger is in USD, and so moves when a DECREASE changes the size. */
  private readonly usdExits: boolean;
  /** The size of the open being copied and the figures of the last fill: one object each per run. */
  private readonly size: OpenSize = { margin: 0, leverage: 1, notional: 0, tokens: 0 };
  private readonly figures: FillFigures & { closeType: CloseType } = {
    notional: 0,
    fee: 0,
    realised: 0,
    balanceDelta: 0,
    closeType: 'COPY_TRADE',
  };
  /** Closed copies by key, to reuse. */
  private readonly spare: (Copy | undefined)[] = [];
  /** The earliest exit time of the open copies (Infinity: none). */
  private nextExit = Infinity;
  private trough: number;
  private readonly equity: EquityPoint[] | null;
  private readonly positions: SimulatorPosition[] | null;
  /** followAction reads these fields of the source order; one object is reused. */
  private readonly scratch: SourceOrder = {
    id: '',
    account: '',
    protocol: '',
    indexToken: '',
    isLong: true,
    type: 'OPEN',
    sizeDeltaUsd: 0,
    collateralDeltaUsd: 0,
    sizeBeforeUsd: 0,
    collateralBeforeUsd: 0,
    price: 0,
    blockTimeMs: 0,
    txHash: '',
    isLiquidate: false,
  };

  constructor(
    private readonly trader: TraderOrders,
    private readonly paths: PricePaths,
    private readonly s: RunSettings,
    detail: RunDetail,
    private readonly marks: DelayedMarks,
    /** Whether the marks are this run's alone (no other configuration reads their stretches). */
    private readonly ownMarks: boolean,
    private readonly onFill?: (fill: SimulatedFill) => void,
  ) {
    this.balance = s.balance;
    this.factors = s.volumeProtection ? trader.volumeFactors(s.lookBackOrders) : null;
    const e = s.exits;
    this.usdExits =
      (e.enableStopLoss && e.stopLossType === 'USD') || (e.enableTakeProfit && e.takeProfitType === 'USD');
    this.open = new Array<Copy | undefined>(trader.tokens.length * 2).fill(undefined);
    this.peak = s.balance;
    this.trough = s.balance;
    this.t = {
      totalTrade: 0,
      totalWin: 0,
      totalGain: 0,
      totalLoss: 0,
      sumRoi: 0,
      minRoi: Infinity,
      maxRoi: -Infinity,
      minPnl: Infinity,
      maxPnl: -Infinity,
      totalStopLoss: 0,
      totalTakeProfit: 0,
      totalLiquidate: 0,
      totalSkipped: 0,
      fees: 0,
      funding: 0,
      maxDrawDownPnl: 0,
      maxDrawDown: 0,
      maxDrawUp: 0,
      maxVolMultiplier: 0,
      finalBalance: s.balance,
    };
    this.equity = detail === 'none' ? null : [{ time: s.fromTime, balance: s.balance }];
    this.positions = detail === 'positions' ? [] : null;
  }

  replay(skipped: Uint8Array): RunResult {
    const { trader, s, marks } = this;
    for (let i = marks.first; i < marks.end; i += 1) {
      const at = trader.time[i]! + s.delayMs;
      if (at >= this.nextExit) this.exitsUntil(at);
      const type = trader.type[i]!;
      if (type === ORDER_CODE.OPEN) {
        if (skipped[i] === 0) this.copyOpen(i, at);
      } else if (type !== ORDER_CODE.MARGIN_TRANSFERRED) this.follow(i, at);
      this.watch(i);
    }
    if (s.toTime >= this.nextExit) this.exitsUntil(s.toTime);
    for (const copy of this.open.slice()) {
      if (!copy) continue;
      const price = this.markAt(copy.token, s.toTime, copy.entryPrice);
      this.close(copy, this.slipped(price, !copy.isLong), 'COPY_TRADE', s.toTime, 'WINDOW_END');
    }
    this.t.finalBalance = this.balance;
    return { totals: this.t, equity: this.equity, positions: this.positions };
  }

  /** The price in force at `at` on the path, or `fallback` (the order's own price) before the path starts. */
  private markAt(token: number, at: number, fallback: number): number {
    const price = this.paths.series[token]!.priceAt(at);
    return Number.isNaN(price) ? fallback : price;
  }

  /** `price` worsened by the slippage for a buy (`buy`) or a sell. */
  private slipped(price: number, buy: boolean): number {
    return this.s.slippage === 0 ? price : price * (buy ? 1 + this.s.slippage : 1 - this.s.slippage);
  }

  private available(): number {
    return roundUsd(this.balance - this.held / MICROS);
  }

  /**
   * After order i, where the open copies of its token exit before the next order on that token,
   * if they do (docs/backtest.md, Speed). A run on marks of its own searches the stretch for each
   * copy's levels (a search skips what stays inside them); a run on a sweep's shared marks first
   * compares the stretch's extremes, kept for every configuration with its delay, and searches
   * only a stretch that crosses. Every later stretch is looked at by the order that starts it, so
   * each copy's first crossing is found in turn.
   */
  private watch(i: number): void {
    const token = this.trader.token[i]!;
    if (!this.open[2 * token] && !this.open[2 * token + 1]) return;
    const marks = this.marks;
    if (!this.ownMarks) stretchOf(marks, this.trader, i);
    for (let key = 2 * token; key <= 2 * token + 1; key += 1) {
      const copy = this.open[key];
      if (!copy) continue;
      if (!this.ownMarks && !(marks.stretch[2 * i]! <= copy.low || marks.stretch[2 * i + 1]! >= copy.high))
        continue;
      const cross = firstCrossIn(
        marks.extremes[token]!,
        marks.point[i]! + 1,
        marks.stretchEnd[i]!,
        copy.low,
        copy.high,
      );
      if (cross < 0) {
        // The stretch's extremes crossed, so one of its points does.
        if (!this.ownMarks) throw new Error('a stretch crosses the levels of a copy at no point');
        continue;
      }
      copy.exitPoint = cross;
      copy.exitTime = this.paths.series[token]!.time(cross);
      if (copy.exitTime < this.nextExit) this.nextExit = copy.exitTime;
    }
  }

  /** Closes, in time order, every copy whose exit level the path crosses up to `at`. */
  private exitsUntil(at: number): void {
    // The earliest crossing first (ties in key order, as a stable sort would give), one at a
    // time: a close changes no other copy's exit, and no array or comparator is made per call.
    for (;;) {
      let copy: Copy | undefined;
      for (const c of this.open) if (c && c.exitTime <= at && (!copy || c.exitTime < copy.exitTime)) copy = c;
      if (!copy) break;
      const mark = this.paths.series[copy.token]!.values[copy.exitPoint]!;
      const exit = exitAt(copy, mark, copy.liquidation);
      // The levels are the triggers exitAt compares with, so a crossing point is always an exit.
      if (exit === null) throw new Error(`exit level crossed at ${mark} without an exit`);
      // Stops and take profits are market orders: they pay the slippage; a liquidation takes the margin.
      const price = exit === 'LIQUIDATE' ? mark : this.slipped(mark, !copy.isLong);
      this.close(copy, price, exit, copy.exitTime, exit);
    }
    this.refreshNextExit();
  }

  /** The earliest exit of the open copies. */
  private refreshNextExit(): void {
    let next = Infinity;
    for (const copy of this.open) if (copy && copy.exitTime < next) next = copy.exitTime;
    this.nextExit = next;
  }

  /**
   * The copy's exit levels after a fill: its liquidation price (`liquidation`) and its stored
   * triggers; the path after the fill is compared with them by `watch`.
   */
  private levels(copy: Copy, liquidation: number): void {
    copy.liquidation = liquidation;
    if (copy.isLong) {
      copy.low = Math.max(liquidation, copy.stopLossPrice ?? -Infinity);
      copy.high = copy.takeProfitPrice ?? Infinity;
    } else {
      copy.high = Math.min(liquidation, copy.stopLossPrice ?? Infinity);
      copy.low = copy.takeProfitPrice ?? -Infinity;
    }
  }

  private copyOpen(i: number, at: number): void {
    const { trader, s } = this;
    const token = trader.token[i]!;
    const sourceLong = trader.isLong[i] === 1;
    const key = token * 2 + (sourceLong ? 1 : 0);
    const isLong = copySide(sourceLong, s.reverseCopy);
    const mark = this.marks.mark[i]!;
    const previous = this.open[key];
    if (previous)
      this.close(
        previous,
        this.slipped(mark, !previous.isLong),
        'OVERWRITE',
        at,
        'OVERWRITE',
        this.marks.funding[i],
      );
    const price = this.slipped(mark, isLong);
    const factor = this.factors === null ? 1 : this.factors[i]!;
    const size = openSize(
      s.orderVolume,
      factor,
      s.leverage,
      trader.tokens[token]!.maxLeverage,
      price,
      this.size,
    );
    if (cannotPay(size.margin, size.notional, s.fees, this.available()) !== null) {
      this.t.totalSkipped += 1;
      return;
    }
    // The copy that last held this key is reused: a run makes no object per position.
    const copy = this.spare[key] ?? blankCopy();
    const openFee = openInto(copy, s.exits, isLong, size, price, s.fees);
    copy.token = token;
    copy.key = key;
    copy.openTime = at;
    copy.initialVol = size.margin;
    copy.sourceInitialVol = trader.collateralDelta[i]!;
    copy.peakMargin = size.margin;
    copy.peakSize = size.notional;
    copy.fundingMark = s.funding ? this.marks.funding[i]! : 0;
    copy.exitPoint = -1;
    copy.exitTime = Infinity;
    this.levels(copy, liquidationOf(copy));
    this.open[key] = copy;
    this.held += micros(copy.margin);
    this.balance = roundUsd(this.balance - openFee);
    if (this.onFill)
      this.fill(copy, 'OPEN', at, price, { notional: size.notional, fee: openFee, realised: 0 });
  }

  private fill(
    copy: Copy,
    kind: SimulatedFill['kind'],
    time: number,
    price: number,
    f: { notional: number; fee: number; realised: number },
  ): void {
    if (!this.onFill) return;
    const indexToken = this.trader.tokens[copy.token]!.indexToken;
    // The fill's own fields only: `f` may be the run's reused figures object.
    const { notional, fee, realised } = f;
    this.onFill({ time, indexToken, isLong: copy.isLong, kind, price, notional, fee, realised });
  }

  /** A source INCREASE, DECREASE or CLOSE for the open copy of its position, if there is one. */
  private follow(i: number, at: number): void {
    const { trader, s } = this;
    const token = trader.token[i]!;
    const copy = this.open[token * 2 + trader.isLong[i]!];
    if (!copy) return;
    const o = this.scratch;
    o.type = trader.typeName(i);
    o.isLiquidate = trader.isLiquidate[i] === 1;
    o.sizeDeltaUsd = trader.sizeDelta[i]!;
    o.sizeBeforeUsd = trader.sizeBefore[i]!;
    const mark = this.marks.mark[i]!;
    const action = followAction(o, copy, mark, copy.liquidation);
    if (action === null) return;
    // A fill that grows a long or shrinks a short buys; the others sell.
    const price = this.slipped(mark, (action.kind === 'increase') === copy.isLong);
    if (action.kind === 'close') {
      this.close(copy, price, 'COPY_TRADE', at, 'COPY_TRADE', this.marks.funding[i]);
      return;
    }
    this.accrueFunding(copy, at, price, this.marks.funding[i]);
    const before = micros(copy.margin);
    let f: FillFigures;
    // A DECREASE keeps the entry and the leverage, so the liquidation price and PERCENT triggers
    // stay as they were: only USD triggers (which follow the size) are priced again.
    if (action.kind === 'reduce')
      f = applyReduce(copy, this.usdExits ? s.exits : null, action.fraction, price, s.fees, this.figures);
    else {
      const marginDelta = increaseMargin({
        sizeDeltaUsd: o.sizeDeltaUsd,
        initialVol: copy.initialVol,
        sourceInitialVol: copy.sourceInitialVol,
        leverage: copy.leverage,
        margin: copy.margin,
        volume: s.orderVolume,
        maxVolMultiplier: s.maxVolMultiplier,
      });
      if (marginDelta <= 0) return;
      const notional = roundUsd(marginDelta * copy.leverage);
      if (cannotPay(marginDelta, notional, s.fees, this.available()) !== null) {
        this.t.totalSkipped += 1;
        return;
      }
      f = applyIncrease(copy, s.exits, marginDelta, price, s.fees, this.figures);
      if (copy.margin > copy.peakMargin) copy.peakMargin = copy.margin;
      const size = roundUsd(copy.sizeTokens * copy.entryPrice);
      if (size > copy.peakSize) copy.peakSize = size;
    }
    this.held += micros(copy.margin) - before;
    this.balance = roundUsd(this.balance + f.balanceDelta);
    this.levels(copy, action.kind === 'reduce' ? copy.liquidation : liquidationOf(copy));
    this.fill(copy, action.kind === 'reduce' ? 'DECREASE' : 'INCREASE', at, price, f);
  }

  /**
   * Funding since the last accrual on the copy's size at `price`: longs pay a positive rate.
   * `known`: the cumulative rate at `at` when the caller has it (an order's, from the marks).
   */
  private accrueFunding(copy: Copy, at: number, price: number, known?: number): void {
    if (!this.s.funding) return;
    const series = this.paths.series[copy.token]!;
    if (!series.hasFunding) return;
    const index = known ?? series.fundingAt(at);
    const paid = copy.sizeTokens * price * (index - copy.fundingMark);
    copy.fundingMark = index;
    if (paid === 0) return;
    copy.funding = roundUsd(copy.funding + (copy.isLong ? -paid : paid));
    copy.pnl = roundUsd(copy.realisedPnl - copy.fee + copy.funding);
  }

  private close(
    copy: Copy,
    price: number,
    closeType: CloseType,
    at: number,
    reason: BacktestCloseReason,
    funding?: number,
  ): void {
    this.accrueFunding(copy, at, price, funding);
    const margin = copy.margin;
    const f = applyClose(copy, price, closeType, this.s.fees, copy.liquidation, this.figures);
    const why: BacktestCloseReason = f.closeType === 'LIQUIDATE' ? 'LIQUIDATE' : reason;
    this.open[copy.key] = undefined;
    this.spare[copy.key] = copy;
    if (copy.exitTime === this.nextExit && copy.exitTime !== Infinity) this.refreshNextExit();
    this.held -= micros(margin);
    const preBalance = this.balance;
    this.balance = roundUsd(this.balance + f.balanceDelta);
    this.fill(copy, 'CLOSE', at, price, f);
    this.record(copy, why, at, price, preBalance);
  }

  /** Adds a closed copy to the totals, the equity curve and the positions list. */
  private record(copy: Copy, why: BacktestCloseReason, at: number, price: number, preBalance: number): void {
    const t = this.t;
    const profit = copy.pnl;
    const roi = copy.peakMargin > 0 ? (profit / copy.peakMargin) * 100 : 0;
    const volMultiplier = copy.peakMargin / this.s.orderVolume;
    t.totalTrade += 1;
    if (profit > 0) {
      t.totalWin += 1;
      t.totalGain += profit;
    } else t.totalLoss += profit;
    t.sumRoi += roi;
    if (roi < t.minRoi) t.minRoi = roi;
    if (roi > t.maxRoi) t.maxRoi = roi;
    if (profit < t.minPnl) t.minPnl = profit;
    if (profit > t.maxPnl) t.maxPnl = profit;
    if (why === 'STOP_LOSS') t.totalStopLoss += 1;
    else if (why === 'TAKE_PROFIT') t.totalTakeProfit += 1;
    else if (why === 'LIQUIDATE') t.totalLiquidate += 1;
    t.fees += copy.fee;
    t.funding += copy.funding;
    if (volMultiplier > t.maxVolMultiplier) t.maxVolMultiplier = volMultiplier;
    const balance = this.balance;
    if (balance > this.peak) this.peak = balance;
    if (balance < this.trough) this.trough = balance;
    const fall = balance - this.peak;
    if (fall < t.maxDrawDownPnl) t.maxDrawDownPnl = fall;
    if (this.peak > 0 && (fall / this.peak) * 100 < t.maxDrawDown) t.maxDrawDown = (fall / this.peak) * 100;
    if (this.trough > 0) t.maxDrawUp = Math.max(t.maxDrawUp, ((balance - this.trough) / this.trough) * 100);
    this.equity?.push({ time: at, balance });
    this.positions?.push({
      position: {
        account: this.trader.account,
        indexToken: this.trader.tokens[copy.token]!.indexToken,
        pair: this.trader.tokens[copy.token]!.pair,
        isLong: copy.isLong,
        openTime: copy.openTime,
        closeTime: at,
        entryPrice: copy.entryPrice,
        closePrice: price,
        size: copy.peakSize,
        margin: copy.peakMargin,
        leverage: copy.leverage,
        realisedPnl: copy.realisedPnl,
        fee: copy.fee,
        funding: copy.funding,
        pnl: profit,
      },
      preBalance,
      balance,
      profit,
      roi,
      volMultiplier,
      closeReason: why,
    });
  }
}
