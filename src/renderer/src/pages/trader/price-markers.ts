// What the trader page's price chart shows (docs/ui.md, Trader → Price chart): the range and
// candle width around the trader's orders of one token, and a marker per entry and exit.
import { CANDLE_INTERVALS, CANDLE_INTERVAL_MS, candleCount, type CandleInterval } from '@shared/api/candles';
import type { OrderType } from '@shared/api/positions';

/** The fields of an order the chart reads. */
export interface ChartOrder {
  indexToken: string;
  type: OrderType;
  isLong?: boolean | null;
  blockTime: string;
}

/** A series marker as lightweight-charts takes it, with whether it is an entry or an exit. */
export interface PriceMarker {
  /** The opening time of the candle the order fell in, in seconds (the chart's time unit). */
  time: number;
  kind: 'entry' | 'exit';
  isLong: boolean;
  position: 'aboveBar' | 'belowBar';
  shape: 'arrowUp' | 'arrowDown';
  text: string;
}

/** About as many candles as a panel shows legibly. */
const TARGET_CANDLES = 300;
/** Room left and right of the orders, as a share of their span. */
const MARGIN = 0.1;
const HOUR_MS = 3_600_000;

/** The range and width of the chart of `orders` (one token's): the narrowest width that fits. */
export function chartRange(
  orders: readonly ChartOrder[],
  nowMs: number,
): { from: number; to: number; interval: CandleInterval } | null {
  const times = orders.map((o) => Date.parse(o.blockTime)).filter(Number.isFinite);
  if (times.length === 0) return null;
  const first = Math.min(...times);
  const last = Math.max(...times);
  // Whole milliseconds: the service takes only integers.
  const margin = Math.max(HOUR_MS, Math.ceil((last - first) * MARGIN));
  const to = Math.min(nowMs, last + margin) + 1;
  let from = Math.max(0, first - margin);
  const interval =
    CANDLE_INTERVALS.find((i) => candleCount(from, to, CANDLE_INTERVAL_MS[i]) <= TARGET_CANDLES) ?? '1d';
  // Years of history at a day per candle: the latest TARGET_CANDLES days.
  if (candleCount(from, to, CANDLE_INTERVAL_MS[interval]) > TARGET_CANDLES)
    from = to - TARGET_CANDLES * CANDLE_INTERVAL_MS[interval];
  return { from, to, interval };
}

/**
 * A marker per order of `indexToken` in [fromMs, toMs): opening or adding to a long is an arrow
 * up under the candle and to a short an arrow down over it; reducing or closing points the other
 * way. Margin transfers move no size and get none. In time order, as the chart requires.
 */
export function buildPriceMarkers(
  orders: readonly ChartOrder[],
  indexToken: string,
  interval: CandleInterval,
  fromMs: number,
  toMs: number,
): PriceMarker[] {
  const width = CANDLE_INTERVAL_MS[interval];
  const markers: { at: number; marker: PriceMarker }[] = [];
  for (const order of orders) {
    if (order.indexToken !== indexToken || order.type === 'MARGIN_TRANSFERRED') continue;
    const at = Date.parse(order.blockTime);
    if (!Number.isFinite(at) || at < fromMs || at >= toMs) continue;
    const isLong = order.isLong !== false;
    const kind = order.type === 'OPEN' || order.type === 'INCREASE' ? 'entry' : 'exit';
    // Buying (a long's entry, a short's exit) points up from below; selling down from above.
    const buys = (kind === 'entry') === isLong;
    markers.push({
      at,
      marker: {
        time: Math.floor(at / width) * (width / 1000),
        kind,
        isLong,
        position: buys ? 'belowBar' : 'aboveBar',
        shape: buys ? 'arrowUp' : 'arrowDown',
        text: MARKER_TEXT[order.type],
      },
    });
  }
  return markers.sort((a, b) => a.at - b.at).map((m) => m.marker);
}

const MARKER_TEXT: Record<Exclude<OrderType, 'MARGIN_TRANSFERRED'>, string> = {
  OPEN: 'Open',
  INCREASE: 'Add',
  DECREASE: 'Reduce',
  CLOSE: 'Close',
};
