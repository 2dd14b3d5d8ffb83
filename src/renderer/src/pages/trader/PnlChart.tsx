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
import { currentLocale } from '@renderer/format/locale';
import { formatCompact } from '@renderer/format/number';
import { readChartColors, type ChartColors } from '@renderer/theme/chart-colors';
import { usePalette } from '@renderer/theme/palette-store';
import type { PnlPoint } from '@renderer/statistics/pnl-series';

const priceFormatter = (v: number): string => `${v < 0 ? '−' : ''}$${formatCompact(Math.abs(v))}`;

// The chart draws on a canvas, which cannot read CSS variables: its colours are read from the
// painted theme (theme/chart-colors.ts) and applied again whenever the palette changes.
const chartOptions = (c: ChartColors) =>
  ({
    layout: { textColor: c.text, panes: { separatorColor: c.border } },
    grid: { vertLines: { color: c.grid }, horzLines: { color: c.grid } },
    rightPriceScale: { borderColor: c.border },
    timeScale: { borderColor: c.border },
  }) as const;

const totalColors = (c: ChartColors) =>
  ({
    topLineColor: c.good,
    topFillColor1: c.goodFill,
    topFillColor2: c.goodFade,
    bottomLineColor: c.bad,
    bottomFillColor1: c.badFade,
    bottomFillColor2: c.badFill,
  }) as const;

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
  const palette = usePalette((s) => s.palette);

  useEffect(() => {
    if (!container.current) return;
    const chart = createChart(container.current, {
      autoSize: true,
      layout: { background: { type: ColorType.Solid, color: 'transparent' }, fontSize: 11 },
      timeScale: { fixLeftEdge: true, fixRightEdge: true },
      crosshair: { mode: CrosshairMode.Magnet },
      // The time axis in the user's locale too (the window remounts when it changes).
      localization: { priceFormatter, locale: currentLocale() },
      handleScroll: false,
      handleScale: false,
    });
    totalRef.current = chart.addSeries(BaselineSeries, {
      baseValue: { type: 'price', price: 0 },
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
    const colors = readChartColors();
    chartRef.current?.applyOptions(chartOptions(colors));
    totalRef.current?.applyOptions(totalColors(colors));
    dailyRef.current?.setData(
      points.map((p) => ({
        time: p.time as UTCTimestamp,
        value: p.daily,
        color: p.daily >= 0 ? colors.goodBar : colors.badBar,
      })),
    );
  }, [palette, points]);

  useEffect(() => {
    totalRef.current?.setData(points.map((p) => ({ time: p.time as UTCTimestamp, value: p.cumulative })));
    chartRef.current?.timeScale().fitContent();
  }, [points]);

  return <div ref={container} className="pnl-chart" style={{ height }} data-testid="pnl-chart" />;
}
