// Which price path a trader's backtest walks: the stored mark history when it covers every token
// the trader traded in the window (and agrees with the trader's own prices there), else the
// trader's own fill prices (docs/backtest.md, Price path).
import type { PriceSeries } from './price-series';
import type { PricePaths } from './simulate';
import { ORDER_CODE, type TraderOrders } from './trader-orders';

/** Relative difference under which a mark and a fill price are the same price. */
const SAME_PRICE = 1e-9;

/** The paths of `trader` over [fromTime, toTime]; `marks` gives a token's mark history, if any. */
export function pricePathsFor(
  trader: TraderOrders,
  marks: (pair: string) => PriceSeries | null,
  fromTime: number,
  toTime: number,
): PricePaths {
  const first = trader.firstAtOrAfter(fromTime);
  const used = new Set<number>();
  for (let i = first; i < trader.n && trader.time[i]! <= toTime; i += 1) used.add(trader.token[i]!);
  if (used.size === 0) return { kind: 'fills', series: trader.fills };
  const series = trader.fills.slice();
  for (const k of used) {
    const path = marks(trader.tokens[k]!.pair);
    if (path === null || !agrees(trader, k, path, first, toTime))
      return { kind: 'fills', series: trader.fills };
    series[k] = path;
  }
  return { kind: 'marks', series };
}

/**
 * Whether `path` spans the window's orders on token k and reproduces their prices (closes are
 * left out: a liquidation fills at the liquidation price, not the mark).
 */
function agrees(trader: TraderOrders, k: number, path: PriceSeries, first: number, toTime: number): boolean {
  for (let i = first; i < trader.n && trader.time[i]! <= toTime; i += 1) {
    if (trader.token[i] !== k) continue;
    const t = trader.time[i]!;
    if (t < path.startTimeMs || t > path.endMs) return false;
    if (trader.type[i] === ORDER_CODE.CLOSE || trader.type[i] === ORDER_CODE.MARGIN_TRANSFERRED) continue;
    const mark = path.priceAt(t);
    const price = trader.price[i]!;
    if (!(Math.abs(mark - price) <= SAME_PRICE * price)) return false;
  }
  return true;
}
