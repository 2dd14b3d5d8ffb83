// What the backtest's charts draw, from a result alone. There is no candles endpoint: a token's
// price line is the path the simulation's own entries and exits trace (docs/ui.md, Backtest).
import type { EquityPoint, SimulatorPosition } from '../../../../shared/api/backtest';

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
  for (const p of positions) {
    const { pair, openTime, closeTime, entryPrice, closePrice, isLong } = p.position;
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
      return { pair, points, marks, trades: marks.length / 2 };
    })
    .sort((a, b) => b.trades - a.trades || a.pair.localeCompare(b.pair));
}
