import type { ReactElement } from 'react';
import { useEffect, useRef } from 'react';
import {
  BaselineSeries,
  CandlestickSeries,
  ColorType,
  CrosshairMode,
  LineSeries,
  createChart,
  createSeriesMarkers,
  type IChartApi,
  type SeriesMarker,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import type { Candle } from '@shared/api/candles';
import { marksOnCandles, type ChartPoint, type TokenPath } from './chart-series';
import { CLOSE_REASON_LABELS } from './close-reasons';
import { numberFormat } from '@renderer/format/locale';
import { usePalette } from '@renderer/theme/palette-store';
import type { BacktestCloseReason } from '@shared/api/backtest';

/** The theme's colours as the canvas needs them: read from the CSS variables when a chart is made. */
function themeColors() {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    text: v('--text-muted', '#8a94a3'),
    grid: v('--surface-hover', '#1a212c'),
    border: v('--border', '#1f2631'),
    good: v('--good', '#2ebd85'),
    bad: v('--bad', '#f0565b'),
    accent: v('--accent', '#3b8eea'),
    goodSoft: v('--good-soft', 'rgba(46, 189, 133, 0.14)'),
    badSoft: v('--bad-soft', 'rgba(240, 86, 91, 0.13)'),
  };
}

// In the user's locale (format/locale.ts), looked up when drawn: the locale can change.
const usdFormatter = (v: number): string =>
  `${v < 0 ? '−' : ''}$${numberFormat({ notation: 'compact', maximumFractionDigits: 2 }).format(Math.abs(v))}`;
const priceText = (v: number): string => numberFormat({ maximumSignificantDigits: 6 }).format(v);

/** A chart in `container` with the terminal's look; removed when the component goes. */
function useChart(
  container: React.RefObject<HTMLDivElement | null>,
  draw: (chart: IChartApi, colors: ReturnType<typeof themeColors>) => void,
  deps: readonly unknown[],
): void {
  // Drawn again when the painted theme changes (the OS's, with the System setting).
  const palette = usePalette((s) => s.palette);
  useEffect(() => {
    if (!container.current) return;
    const colors = themeColors();
    const chart = createChart(container.current, {
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: 'transparent' },
        textColor: colors.text,
        fontSize: 11,
      },
      grid: { vertLines: { color: colors.grid }, horzLines: { color: colors.grid } },
      rightPriceScale: { borderColor: colors.border },
      timeScale: { borderColor: colors.border, fixLeftEdge: true, fixRightEdge: true, timeVisible: true },
      crosshair: { mode: CrosshairMode.Magnet },
      handleScroll: false,
      handleScale: false,
    });
    draw(chart, colors);
    chart.timeScale().fitContent();
    return () => chart.remove();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `draw` is rebuilt each render; deps say when to redraw.
  }, [...deps, palette]);
}

/** The balance after each close, green above the starting balance and red below it. */
export function EquityChart({
  points,
  start,
  height = 260,
}: {
  points: readonly ChartPoint[];
  start: number;
  height?: number;
}): ReactElement {
  const container = useRef<HTMLDivElement>(null);
  useChart(
    container,
    (chart, c) => {
      chart.applyOptions({ localization: { priceFormatter: usdFormatter } });
      const series = chart.addSeries(BaselineSeries, {
        baseValue: { type: 'price', price: start },
        topLineColor: c.good,
        topFillColor1: c.goodSoft,
        topFillColor2: 'transparent',
        bottomLineColor: c.bad,
        bottomFillColor1: 'transparent',
        bottomFillColor2: c.badSoft,
        lineWidth: 2,
        title: 'Balance',
      });
      series.setData(points.map((p) => ({ time: p.time as UTCTimestamp, value: p.value })));
    },
    [points, start],
  );
  return <div ref={container} className="bt-chart" style={{ height }} data-testid="bt-equity-chart" />;
}

/**
 * One token's prices with the simulated entries and exits marked: an arrow for an entry (up for a
 * long, down for a short), a dot for an exit coloured by its profit. With candles, the marks sit on
 * the candle they fall in; without, the line joins the fills' own prices.
 */
export function TokenChart({
  path,
  candles,
  intervalMs,
  height = 200,
}: {
  path: TokenPath;
  candles: readonly Candle[] | null;
  intervalMs: number;
  height?: number;
}): ReactElement {
  const container = useRef<HTMLDivElement>(null);
  useChart(
    container,
    (chart, c) => {
      chart.applyOptions({ localization: { priceFormatter: priceText } });
      let marks = path.marks;
      let series;
      if (candles && candles.length > 0) {
        series = chart.addSeries(CandlestickSeries, {
          upColor: c.good,
          downColor: c.bad,
          borderVisible: false,
          wickUpColor: c.good,
          wickDownColor: c.bad,
          priceLineVisible: false,
          lastValueVisible: false,
        });
        const times = candles.map((k) => Math.floor(k.time / 1000));
        series.setData(
          candles.map((k, i) => ({
            time: times[i] as UTCTimestamp,
            open: k.open,
            high: k.high,
            low: k.low,
            close: k.close,
          })),
        );
        marks = marksOnCandles(path.marks, times, intervalMs / 1000).sort((a, b) => a.time - b.time);
      } else {
        series = chart.addSeries(LineSeries, {
          color: c.accent,
          lineWidth: 1,
          priceLineVisible: false,
          lastValueVisible: false,
        });
        series.setData(path.points.map((p) => ({ time: p.time as UTCTimestamp, value: p.value })));
      }
      const markers: SeriesMarker<Time>[] = marks.map((m) =>
        m.kind === 'entry'
          ? {
              time: m.time as UTCTimestamp,
              position: m.isLong ? 'belowBar' : 'aboveBar',
              shape: m.isLong ? 'arrowUp' : 'arrowDown',
              color: c.accent,
              text: m.isLong ? 'L' : 'S',
            }
          : {
              time: m.time as UTCTimestamp,
              position: m.isLong ? 'aboveBar' : 'belowBar',
              shape: 'circle',
              color: (m.profit ?? 0) >= 0 ? c.good : c.bad,
              text:
                m.reason && m.reason !== 'COPY_TRADE'
                  ? CLOSE_REASON_LABELS[m.reason as BacktestCloseReason]
                  : '',
            },
      );
      createSeriesMarkers(series, markers);
    },
    [path, candles, intervalMs],
  );
  return <div ref={container} className="bt-chart" style={{ height }} data-testid="bt-token-chart" />;
}
