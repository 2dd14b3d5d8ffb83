// What the backtest's charts draw. A token's prices are the service's candles over the span of
// its trades where it has them; otherwise the path the simulation's own entries and exits trace
// (docs/ui.md, Backtest).
import type { EquityPoint, SimulatorPosition } from '@shared/api/backtest';
import { CANDLE_INTERVAL_MS, CANDLE_INTERVALS, candleCount, type CandleInterval } from '@shared/api/candles';

/** A chart point: seconds since the epoch (the chart's time unit) and a value. */
export interface ChartPoint {
  time: number;
  value: number;
}

/**
 * The equity curve as the chart takes it: one point per second, strictly increasing (the chart
 * refuses repeated times); several closes in one second keep the last balance.
 */
export function equityPoints(equity: readonly EquityPoint[]): ChartPoint[] {
  const points: ChartPoint[] = [];
  for (const e of [...equity].sort((a, b) => a.time - b.time)) {
    const time = Math.floor(e.time / 1000);
    const last = points[points.length - 1];
    if (last && last.time === time) last.value = e.balance;
    else points.push({ time, value: e.balance });
  }
  return points;
}

/** An entry or an exit of a simulated position, to mark on the price line. */
export interface TradeMark {
  time: number;
  price: number;
  kind: 'entry' | 'exit';
  isLong: boolean;
  /** The exit's reason (STOP_LOSS…), or null for an entry. */
  reason: string | null;
  profit: number | null;
}

/** One token's price line and marks. */
export interface TokenPath {
  pair: string;
  indexToken: string;
  points: ChartPoint[];
  marks: TradeMark[];
  trades: number;
}

/**
 * Per token (by pair), the prices of the simulated entries and exits in time order, and the
 * marks. Two prices in the same second keep the later one on the line; both stay marked.
 */
export function tokenPaths(positions: readonly SimulatorPosition[]): TokenPath[] {
  const byPair = new Map<string, TradeMark[]>();
  const tokens = new Map<string, string>();
  for (const p of positions) {
    const { pair, openTime, closeTime, entryPrice, closePrice, isLong } = p.position;
    tokens.set(pair, p.position.indexToken);
    const marks = byPair.get(pair) ?? [];
    marks.push({
      time: Math.floor(openTime / 1000),
      price: entryPrice,
      kind: 'entry',
      isLong,
      reason: null,
      profit: null,
    });
    marks.push({
      time: Math.floor(closeTime / 1000),
      price: closePrice,
      kind: 'exit',
      isLong,
      reason: p.closeReason,
      profit: p.profit,
    });
    byPair.set(pair, marks);
  }
  return [...byPair.entries()]
    .map(([pair, marks]) => {
      marks.sort((a, b) => a.time - b.time || (a.kind === b.kind ? 0 : a.kind === 'exit' ? -1 : 1));
      const points: ChartPoint[] = [];
      for (const m of marks) {
        const last = points[points.length - 1];
        if (last && last.time === m.time) last.value = m.price;
        else points.push({ time: m.time, value: m.price });
      }
      return { pair, indexToken: tokens.get(pair) ?? '', points, marks, trades: marks.length / 2 };
    })
    .sort((a, b) => b.trades - a.trades || a.pair.localeCompare(b.pair));
}

/** Candles a chart asks for: at most this many, so that each stays a few pixels wide. */
export const CHART_CANDLES = 400;

/**
 * The range and width of candles around a token's trades: from a tenth of the span before the
 * first mark to a tenth after the last, in the narrowest width that keeps it within CHART_CANDLES.
 */
export function candleRange(path: Pick<TokenPath, 'marks'>): {
  from: number;
  to: number;
  interval: CandleInterval;
} {
  const times = path.marks.map((m) => m.time * 1000);
  const first = Math.min(...times);
  const last = Math.max(...times);
  const pad = Math.max(60_000, Math.round((last - first) / 10));
  const from = Math.max(0, first - pad);
  const to = last + pad;
  const interval =
    CANDLE_INTERVALS.find((i) => candleCount(from, to, CANDLE_INTERVAL_MS[i]) <= CHART_CANDLES) ?? '1d';
  return { from, to, interval };
}

/**
 * The marks moved to the start of the candle they fall in (the chart places a mark on a bar of
 * its series); a mark whose candle is missing (no price in that interval) goes to the nearest one.
 */
export function marksOnCandles(
  marks: readonly TradeMark[],
  candleTimes: readonly number[],
  intervalSec: number,
): TradeMark[] {
  if (candleTimes.length === 0) return [];
  const times = new Set(candleTimes);
  return marks.map((m) => {
    const start = Math.floor(m.time / intervalSec) * intervalSec;
    if (times.has(start)) return { ...m, time: start };
    let nearest = candleTimes[0]!;
    for (const t of candleTimes) if (Math.abs(t - start) < Math.abs(nearest - start)) nearest = t;
    return { ...m, time: nearest };
  });
}
