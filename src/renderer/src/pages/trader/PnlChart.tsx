import type { ReactElement } from 'react';
import { useEffect, useRef } from 'react';
import {
  BaselineSeries,
  ColorType,
  CrosshairMode,
  HistogramSeries,
  createChart,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import type { PnlPoint } from './pnl-series';

// The chart draws on a canvas: it cannot read CSS variables, so the theme's colours are repeated
// here (styles/theme.css).
const COLORS = {
  text: '#8a94a3',
  grid: '#1a212c',
  border: '#1f2631',
  good: '#2ebd85',
  bad: '#f0565b',
  goodFill: 'rgba(46, 189, 133, 0.22)',
  badFill: 'rgba(240, 86, 91, 0.22)',
  goodBar: 'rgba(46, 189, 133, 0.7)',
  badBar: 'rgba(240, 86, 91, 0.7)',
};

const usd = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 2 });
const priceFormatter = (v: number): string => `${v < 0 ? '−' : ''}$${usd.format(Math.abs(v))}`;

/**
 * The trader's daily PnL: the running total (realised − fees + today's unrealised) as a line
 * green above zero and red below, and each day's net as bars in a pane under it.
 */
export function PnlChart({
  points,
  height = 320,
}: {
  points: readonly PnlPoint[];
  height?: number;
}): ReactElement {
  const container = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const totalRef = useRef<ISeriesApi<'Baseline'> | null>(null);
  const dailyRef = useRef<ISeriesApi<'Histogram'> | null>(null);

  useEffect(() => {
    if (!container.current) return;
    const chart = createChart(container.current, {
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: 'transparent' },
        textColor: COLORS.text,
        fontSize: 11,
        panes: { separatorColor: COLORS.border },
      },
      grid: { vertLines: { color: COLORS.grid }, horzLines: { color: COLORS.grid } },
      rightPriceScale: { borderColor: COLORS.border },
      timeScale: { borderColor: COLORS.border, fixLeftEdge: true, fixRightEdge: true },
      crosshair: { mode: CrosshairMode.Magnet },
      localization: { priceFormatter },
      handleScroll: false,
      handleScale: false,
    });
    totalRef.current = chart.addSeries(BaselineSeries, {
      baseValue: { type: 'price', price: 0 },
      topLineColor: COLORS.good,
      topFillColor1: COLORS.goodFill,
      topFillColor2: 'rgba(46, 189, 133, 0.02)',
      bottomLineColor: COLORS.bad,
      bottomFillColor1: 'rgba(240, 86, 91, 0.02)',
      bottomFillColor2: COLORS.badFill,
      lineWidth: 2,
      title: 'Cumulative',
    });
    dailyRef.current = chart.addSeries(HistogramSeries, { title: 'Daily', priceLineVisible: false }, 1);
    chart.panes()[1]?.setStretchFactor(0.4);
    chartRef.current = chart;
    return () => {
      chart.remove();
      chartRef.current = null;
      totalRef.current = null;
      dailyRef.current = null;
    };
  }, []);

  useEffect(() => {
    totalRef.current?.setData(points.map((p) => ({ time: p.time as UTCTimestamp, value: p.cumulative })));
    dailyRef.current?.setData(
      points.map((p) => ({
        time: p.time as UTCTimestamp,
        value: p.daily,
        color: p.daily >= 0 ? COLORS.goodBar : COLORS.badBar,
      })),
    );
    chartRef.current?.timeScale().fitContent();
  }, [points]);

  return <div ref={container} className="pnl-chart" style={{ height }} data-testid="pnl-chart" />;
}
