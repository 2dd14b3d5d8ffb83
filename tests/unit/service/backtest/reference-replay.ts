// The oracle of replay-reference.test.ts: the backtest's replay as it was before the speed work
// of issue 16 (a search of the path for exits after every fill, a factor per OPEN, an object per
// copy), kept unchanged so that the faster replay in src/service/backtest/simulate.ts can be held
// to its answers. Not used by the service.
import type {
  BacktestCloseReason,
  EquityPoint,
  SimulatorPosition,
} from '../../../../src/shared/api/backtest';
import type { CloseType } from '../../../../src/shared/api/copy-positions';
import { roundUsd, USD_DECIMALS } from '../../../../src/service/copy-trading/money';
import { exitAt, type ExitSettings } from '../../../../src/service/copy-engine/exits';
import type { CopyFees } from '../../../../src/service/copy-engine/fills';
import { skipReason, type FilterSubject } from '../../../../src/service/copy-engine/filters';
import {
  applyClose,
  applyIncrease,
  applyReduce,
  cannotPay,
  copySide,
  followAction,
  liquidationOf,
  openedPosition,
  type FillFigures,
  type HeldPosition,
} from '../../../../src/service/copy-engine/position-fills';
import { increaseMargin, openSize, volumeFactorOfMean } from '../../../../src/service/copy-engine/sizing';
import type { SourceOrder } from '../../../../src/service/copy-engine/types';
import type { PriceSeries } from '../../../../src/service/backtest/price-series';
import { ORDER_CODE, type TraderOrders } from '../../../../src/service/backtest/trader-orders';

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

/** The prices between orders: one series per token of the trader, and where they came from. */
export interface PricePaths {
  kind: 'marks' | 'fills';
  series: readonly PriceSeries[];
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
  /** The first point of the path after the last fill that crosses an exit level, and its time (Infinity: none). */
  exitPoint: number;
  exitTime: number;
}

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

/**
 * What each copied order sees on the price path, which depends on the delay and the window alone:
 * the path's point at the delayed fill time (−1 before the path), the price then (the order's own
 * before the path) and the cumulative funding rate then. A sweep computes it once per delay and
 * shares it across the configurations with that delay (docs/backtest.md, Speed).
 */
export interface DelayedMarks {
  delayMs: number;
  fromTime: number;
  toTime: number;
  point: Int32Array;
  mark: Float64Array;
  funding: Float64Array;
}

/** The orders' marks after `delayMs`, for the orders a replay of [fromTime, toTime] copies. */
export function delayedMarks(
  trader: TraderOrders,
  paths: PricePaths,
  delayMs: number,
  fromTime: number,
  toTime: number,
): DelayedMarks {
  const point = new Int32Array(trader.n);
  const mark = new Float64Array(trader.n);
  const funding = new Float64Array(trader.n);
  for (let i = trader.firstAtOrAfter(fromTime); i < trader.n; i += 1) {
    const at = trader.time[i]! + delayMs;
    if (trader.time[i]! > toTime || at > toTime) break;
    const series = paths.series[trader.token[i]!]!;
    const k = series.indexAt(at);
    const price = k < 0 ? NaN : series.values[k]!;
    point[i] = k;
    mark[i] = Number.isNaN(price) ? trader.price[i]! : price;
    funding[i] = series.fundingAt(at);
  }
  return { delayMs, fromTime, toTime, point, mark, funding };
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
  return new Run(trader, paths, s, detail, marks, onFill).replay(skipped);
}

/** One replay's state: the wallet, the open copies by source key, the running totals. */
class Run {
  private balance: number;
  private held = 0;
  /** The open copy of each source position (token × 2 + side), if any: an array, not a Map, in the hot loop. */
  private readonly open: (Copy | undefined)[];
  private readonly t: RunTotals;
  private peak: number;
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
    private readonly onFill?: (fill: SimulatedFill) => void,
  ) {
    this.balance = s.balance;
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
    const { trader, s } = this;
    for (let i = trader.firstAtOrAfter(s.fromTime); i < trader.n; i += 1) {
      const at = trader.time[i]! + s.delayMs;
      if (trader.time[i]! > s.toTime || at > s.toTime) break;
      this.exitsUntil(at);
      const type = trader.type[i]!;
      if (type === ORDER_CODE.OPEN) {
        if (skipped[i] === 0) this.copyOpen(i, at);
      } else if (type !== ORDER_CODE.MARGIN_TRANSFERRED) this.follow(i, at);
    }
    this.exitsUntil(s.toTime);
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

  /** Closes, in time order, every copy whose exit level the path crosses up to `at`. */
  private exitsUntil(at: number): void {
    if (at < this.nextExit) return;
    // The earliest crossing first (ties in key order, as a stable sort would give), one at a
    // time: a close changes no other copy's exit, and no array or comparator is made per call.
    for (;;) {
      let copy: Copy | undefined;
      for (const c of this.open) if (c && c.exitTime <= at && (!copy || c.exitTime < copy.exitTime)) copy = c;
      if (!copy) break;
      const mark = this.paths.series[copy.token]!.values[copy.exitPoint]!;
      const exit = exitAt(copy, mark);
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
   * The copy's exit levels after a fill at `at` (its liquidation price and its stored triggers),
   * and the first later point of the path that crosses one: exits are found once per fill, not
   * looked for at every order.
   */
  private levels(copy: Copy, point: number): void {
    const liquidation = liquidationOf(copy);
    copy.liquidation = liquidation;
    let low: number;
    let high: number;
    if (copy.isLong) {
      low = Math.max(liquidation, copy.stopLossPrice ?? -Infinity);
      high = copy.takeProfitPrice ?? Infinity;
    } else {
      high = Math.min(liquidation, copy.stopLossPrice ?? Infinity);
      low = copy.takeProfitPrice ?? -Infinity;
    }
    const series = this.paths.series[copy.token]!;
    const cross = series.firstCross(point + 1, low, high);
    copy.exitPoint = cross;
    copy.exitTime = cross < 0 ? Infinity : series.time(cross);
    if (copy.exitTime < this.nextExit) this.nextExit = copy.exitTime;
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
    const factor = s.volumeProtection
      ? volumeFactorOfMean(trader.collateralDelta[i]!, trader.lookBackMean(i, s.lookBackOrders))
      : 1;
    const size = openSize(s.orderVolume, factor, s.leverage, trader.tokens[token]!.maxLeverage, price);
    if (cannotPay(size.margin, size.notional, s.fees, this.available()) !== null) {
      this.t.totalSkipped += 1;
      return;
    }
    const money = openedPosition(s.exits, isLong, size, price, s.fees);
    // Literal fields, no spread: V8 builds a spread object this wide many times slower.
    const copy: Copy = {
      isLong: money.isLong,
      entryPrice: money.entryPrice,
      sizeTokens: money.sizeTokens,
      totalSizeDelta: money.totalSizeDelta,
      margin: money.margin,
      leverage: money.leverage,
      realisedPnl: money.realisedPnl,
      fee: money.fee,
      funding: money.funding,
      pnl: money.pnl,
      stopLossPrice: money.stopLossPrice,
      stopLossAmount: money.stopLossAmount,
      takeProfitPrice: money.takeProfitPrice,
      takeProfitAmount: money.takeProfitAmount,
      token,
      key,
      openTime: at,
      initialVol: size.margin,
      sourceInitialVol: trader.collateralDelta[i]!,
      peakMargin: size.margin,
      peakSize: size.notional,
      fundingMark: s.funding ? this.marks.funding[i]! : 0,
      liquidation: 0,
      exitPoint: -1,
      exitTime: Infinity,
    };
    this.levels(copy, this.marks.point[i]!);
    this.open[key] = copy;
    this.held += micros(copy.margin);
    this.balance = roundUsd(this.balance - money.openFee);
    this.fill(copy, 'OPEN', at, price, { notional: size.notional, fee: money.openFee, realised: 0 });
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
    this.onFill({ time, indexToken, isLong: copy.isLong, kind, price, ...f });
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
    if (action.kind === 'reduce') f = applyReduce(copy, s.exits, action.fraction, price, s.fees);
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
      f = applyIncrease(copy, s.exits, marginDelta, price, s.fees);
      if (copy.margin > copy.peakMargin) copy.peakMargin = copy.margin;
      const size = roundUsd(copy.sizeTokens * copy.entryPrice);
      if (size > copy.peakSize) copy.peakSize = size;
    }
    this.held += micros(copy.margin) - before;
    this.balance = roundUsd(this.balance + f.balanceDelta);
    this.levels(copy, this.marks.point[i]!);
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
    const f = applyClose(copy, price, closeType, this.s.fees, copy.liquidation);
    const why: BacktestCloseReason = f.closeType === 'LIQUIDATE' ? 'LIQUIDATE' : reason;
    this.open[copy.key] = undefined;
    if (copy.exitTime === this.nextExit) this.refreshNextExit();
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
