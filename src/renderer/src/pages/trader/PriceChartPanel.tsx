import type { ReactElement } from 'react';
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  CandlestickSeries,
  ColorType,
  createChart,
  createSeriesMarkers,
  type IChartApi,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  type Time,
  type UTCTimestamp,
} from 'lightweight-charts';
import type { Candle, CandlesResponse } from '@shared/api/candles';
import type { AppError } from '@shared/result';
import { EmptyState, ReadFailed } from '@renderer/components/EmptyState';
import { SkeletonLines } from '@renderer/components/Skeleton';
import { invoke } from '@renderer/ipc/call';
import { useChannel } from '@renderer/ipc/use-channel';
import type { TraderRef } from '@renderer/stores/navigation';
import { buildPriceMarkers, chartRange, type ChartOrder, type PriceMarker } from './price-markers';
import { usePalette } from '@renderer/theme/palette-store';

/** The trader's latest orders the chart marks (the channel's most). */
const ORDER_LIMIT = 500;

/** The tokens the trader traded, newest first, with the pair that names each. */
function tradedTokens(
  orders: readonly (ChartOrder & { pair: string })[],
): { indexToken: string; pair: string }[] {
  const seen = new Map<string, string>();
  for (const o of orders) if (!seen.has(o.indexToken)) seen.set(o.indexToken, o.pair);
  return [...seen].map(([indexToken, pair]) => ({ indexToken, pair }));
}

/**
 * The price of one token the trader traded, as candles, with the trader's entries and exits
 * marked on them (docs/ui.md, Trader → Price chart). The candles come from the service's candles
 * endpoint (`prices:candles`); the markers from the trader's orders.
 */
export function PriceChartPanel({ trader }: { trader: TraderRef }): ReactElement {
  const orders = useChannel('trader:orders', { ...trader, limit: ORDER_LIMIT });
  const list = useMemo(() => orders.data?.data ?? [], [orders.data]);
  const tokens = useMemo(() => tradedTokens(list), [list]);
  const [chosen, setChosen] = useState<string | null>(null);
  const token = tokens.find((t) => t.indexToken === chosen) ?? tokens[0] ?? null;
  const tokenOrders = useMemo(
    () => (token ? list.filter((o) => o.indexToken === token.indexToken) : []),
    [list, token],
  );
  // The range ends when the orders were read (a position still open runs up to then), so that
  // it stays put between renders.
  const readAt = orders.freshness ? Date.parse(orders.freshness.fetchedAt) : Number.POSITIVE_INFINITY;
  const range = useMemo(() => chartRange(tokenOrders, readAt), [tokenOrders, readAt]);
  const candles = useCandles(trader.protocol, token?.indexToken ?? null, range);
  const markers = useMemo(
    () =>
      token && range
        ? buildPriceMarkers(tokenOrders, token.indexToken, range.interval, range.from, range.to)
        : [],
    [tokenOrders, token, range],
  );

  let body: ReactElement;
  if (orders.error && !orders.data)
    body = (
      <ReadFailed
        title="The trader’s orders could not be loaded"
        message={orders.error.message}
        retrying={orders.loading}
        onRetry={orders.reload}
      />
    );
  else if (!orders.data)
    body = (
      <div className="panel-body" aria-busy="true">
        <SkeletonLines lines={6} />
      </div>
    );
  else if (!token || !range)
    body = (
      <EmptyState title="No orders to mark" testId="price-chart-empty">
        <p>The trader has no order on record, so there is no position to show on a price.</p>
      </EmptyState>
    );
  else if (candles.error)
    body = (
      <ReadFailed
        title="The price chart could not be loaded"
        message={candles.error.message}
        retrying={candles.loading}
        onRetry={candles.reload}
      />
    );
  else if (candles.data && candles.data.candles.length === 0)
    body = (
      <EmptyState title="No prices in this range" testId="price-chart-empty">
        <p>The service holds no price of {token.pair} around the trader’s orders.</p>
      </EmptyState>
    );
  else
    body = (
      <div className="panel-body">
        <CandleChart candles={candles.data?.candles ?? []} markers={markers} />
        <p className="chart-caption muted">
          {candles.data
            ? `${candles.data.candles.length} candles of ${candles.data.interval} from the ${
                candles.data.source === 'market'
                  ? 'market’s prices'
                  : candles.data.source === 'venue'
                    ? 'venue'
                    : 'stored fills'
              } · ${markers.length} of the trader’s orders marked`
            : 'Loading the prices…'}
        </p>
      </div>
    );

  return (
    <section className="panel" aria-labelledby="price-chart-title" data-testid="price-chart-panel">
      <header className="panel-header">
        <h2 id="price-chart-title">Entries and exits on the price</h2>
        {tokens.length > 0 ? (
          <label className="inline-field">
            <span className="visually-hidden">Token</span>
            <select
              className="input select"
              value={token?.indexToken ?? ''}
              onChange={(e) => setChosen(e.target.value)}
              data-testid="price-chart-token"
            >
              {tokens.map((t) => (
                <option key={t.indexToken} value={t.indexToken}>
                  {t.pair}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </header>
      {body}
    </section>
  );
}

interface CandlesState {
  data: CandlesResponse | null;
  error: AppError | null;
  loading: boolean;
  reload(): void;
}

/** The candles of one token over `range`, read again when either changes or on `reload`. */
function useCandles(
  protocol: string,
  indexToken: string | null,
  range: ReturnType<typeof chartRange>,
): CandlesState {
  const [generation, setGeneration] = useState(0);
  // Which request the answer is for: loading is "the answer is for another one".
  const asked =
    indexToken === null || range === null
      ? null
      : `${generation} ${protocol} ${indexToken} ${range.from} ${range.to} ${range.interval}`;
  const [answer, setAnswer] = useState<{ for: string; data: CandlesResponse | null; error: AppError | null }>(
    {
      for: '',
      data: null,
      error: null,
    },
  );
  useEffect(() => {
    if (asked === null || indexToken === null || range === null) return;
    let current = true;
    void invoke('prices:candles', { protocol, indexToken, query: range }).then((result) => {
      if (!current) return;
      setAnswer(
        result.ok
          ? { for: asked, data: result.value, error: null }
          : { for: asked, data: null, error: result.error },
      );
    });
    return () => {
      current = false;
    };
  }, [asked, protocol, indexToken, range]);
  const answered = answer.for === asked;
  return {
    data: answered ? answer.data : null,
    error: answered ? answer.error : null,
    loading: asked !== null && !answered,
    reload: () => setGeneration((g) => g + 1),
  };
}

/** The theme's colours for the canvas, read from the painted CSS variables. */
function themeColors() {
  const style = getComputedStyle(document.documentElement);
  const token = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    text: token('--text-muted', '#888'),
    grid: token('--surface-hover', 'transparent'),
    border: token('--border', '#888'),
    good: token('--good', '#2ebd85'),
    bad: token('--bad', '#f6465d'),
    accent: token('--accent', '#3b82f6'),
  };
}

/** Decimals that show about four significant digits of `price` (at least two). */
function decimalsFor(price: number): number {
  const magnitude = Math.floor(Math.log10(Math.abs(price) || 1));
  return Math.min(10, Math.max(2, 3 - magnitude));
}

/** Candlesticks with the markers; redrawn when either changes. */
function CandleChart({
  candles,
  markers,
  height = 320,
}: {
  candles: readonly Candle[];
  markers: readonly PriceMarker[];
  height?: number;
}): ReactElement {
  const container = useRef<HTMLDivElement>(null);
  const chartRef = useRef<IChartApi | null>(null);
  const seriesRef = useRef<ISeriesApi<'Candlestick'> | null>(null);
  const markersRef = useRef<ISeriesMarkersPluginApi<Time> | null>(null);

  useEffect(() => {
    if (!container.current) return;
    const c = themeColors();
    const chart = createChart(container.current, {
      autoSize: true,
      layout: {
        background: { type: ColorType.Solid, color: 'transparent' },
        textColor: c.text,
        fontSize: 11,
      },
      grid: { vertLines: { color: c.grid }, horzLines: { color: c.grid } },
      rightPriceScale: { borderColor: c.border },
      timeScale: { borderColor: c.border, timeVisible: true },
    });
    const series = chart.addSeries(CandlestickSeries, {
      upColor: c.good,
      downColor: c.bad,
      borderVisible: false,
      wickUpColor: c.good,
      wickDownColor: c.bad,
    });
    chartRef.current = chart;
    seriesRef.current = series;
    markersRef.current = createSeriesMarkers(series, []);
    return () => {
      chart.remove();
      chartRef.current = null;
      seriesRef.current = null;
      markersRef.current = null;
    };
  }, []);

  // The painted theme (the OS's, with the System setting): the chart takes its colours again.
  const palette = usePalette((s) => s.palette);
  useEffect(() => {
    const c = themeColors();
    chartRef.current?.applyOptions({
      layout: { textColor: c.text },
      grid: { vertLines: { color: c.grid }, horzLines: { color: c.grid } },
      rightPriceScale: { borderColor: c.border },
      timeScale: { borderColor: c.border },
    });
    // A yen pair trades near 0.007: two decimals would flatten it into one price.
    const precision = decimalsFor(candles.at(-1)?.close ?? 1);
    seriesRef.current?.applyOptions({
      upColor: c.good,
      downColor: c.bad,
      wickUpColor: c.good,
      wickDownColor: c.bad,
      priceFormat: { type: 'price', precision, minMove: 10 ** -precision },
    });
    seriesRef.current?.setData(
      candles.map((k) => ({
        time: (k.time / 1000) as UTCTimestamp,
        open: k.open,
        high: k.high,
        low: k.low,
        close: k.close,
      })),
    );
    markersRef.current?.setMarkers(
      markers.map((m) => ({
        time: m.time as UTCTimestamp,
        position: m.position,
        shape: m.shape,
        // Entries in the side's colour, exits in the accent: which is which reads at a glance.
        color: m.kind === 'exit' ? c.accent : m.isLong ? c.good : c.bad,
        text: m.text,
      })),
    );
    chartRef.current?.timeScale().fitContent();
  }, [candles, markers, palette]);

  return <div ref={container} className="pnl-chart" style={{ height }} data-testid="price-chart" />;
}
