import type { PnlSeries } from '@shared/api/statistics';

/** One day of a trader's PnL as charted: the day's net and the running total. */
export interface PnlPoint {
  /** The UTC day, seconds since the epoch (what lightweight-charts takes as a time). */
  time: number;
  /** realised − fee + unrealised of that day. */
  daily: number;
  /** Σ daily up to and including that day. */
  cumulative: number;
}

/**
 * The daily series of `statistics:pnl` as a running total (docs/semantics.md, Daily PnL series: the
 * entries are per-day amounts, the chart accumulates them). Fees are subtracted; today's
 * unrealised PnL of open positions is added on its day, so the last point is where the trader
 * stands now.
 */
export function cumulativePnl(series: PnlSeries | null | undefined): PnlPoint[] {
  if (!series) return [];
  const points: PnlPoint[] = [];
  let total = 0;
  for (let i = 0; i < series.date.length; i++) {
    const ms = Date.parse(series.date[i] ?? '');
    if (!Number.isFinite(ms)) continue;
    const daily = (series.realisedPnl[i] ?? 0) - (series.fee[i] ?? 0) + (series.unrealisedPnl[i] ?? 0);
    total += daily;
    points.push({ time: Math.floor(ms / 1000), daily, cumulative: total });
  }
  return points;
}

/** An SVG path of the running total in a `width` × `height` box, and where zero lies. */
export interface SparklineShape {
  path: string;
  /** The y of the zero line, or null when zero is outside the range. */
  zeroY: number | null;
  last: number;
}

/** The sparkline of a series: one point per day, scaled to fill the box (null for no days). */
export function sparklineShape(
  points: readonly PnlPoint[],
  width: number,
  height: number,
  pad = 1.5,
): SparklineShape | null {
  if (points.length === 0) return null;
  const values = [0, ...points.map((p) => p.cumulative)];
  const min = Math.min(...values);
  const max = Math.max(...values);
  const span = max - min || 1;
  const inner = height - pad * 2;
  const y = (v: number): number => pad + inner - ((v - min) / span) * inner;
  const step = points.length > 1 ? width / (points.length - 1) : 0;
  const coords = points.map((p, i) => `${(i * step).toFixed(1)},${y(p.cumulative).toFixed(1)}`);
  const path =
    points.length === 1 ? `M0,${y(points[0]!.cumulative).toFixed(1)}H${width}` : `M${coords.join('L')}`;
  return {
    path,
    zeroY: min <= 0 && max >= 0 ? Number(y(0).toFixed(1)) : null,
    last: points[points.length - 1]!.cumulative,
  };
}
