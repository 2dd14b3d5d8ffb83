// The identities every simulated position must obey (docs/semantics.md, Positions), checked from the
// stored rows alone: a position against its own orders. Shared by the unit and integration tests.
import type { ServiceDb } from '../../../../../src/service/store/database';
import type { OrderRow, PositionRow } from '../../../../../src/service/store/positions';
import { MAINTENANCE, takerFeeOf } from '../../../../../src/service/market/simulator/parameters';
import { roundMoney } from '../../../../../src/service/positions/ledger';

const EPS = 1e-6;
const near = (a: number, b: number, tolerance = EPS): boolean =>
  Math.abs(a - b) <= tolerance * Math.max(1, Math.abs(a), Math.abs(b));

/** Every violation found in the store's positions (empty when all hold), at most `limit`. */
export function positionViolations(db: ServiceDb, limit = 20): string[] {
  const problems: string[] = [];
  const orders = db.prepare('SELECT * FROM orders WHERE position_id = ? ORDER BY block_time_ms, id');
  for (const p of db
    .prepare('SELECT * FROM positions ORDER BY id')
    .iterate() as IterableIterator<PositionRow>) {
    for (const problem of checkPosition(p, orders.all(p.id) as OrderRow[]))
      if (problems.push(`${p.id}: ${problem}`) >= limit) return problems;
  }
  return problems;
}

/** The violations of one position and its orders. */
export function checkPosition(p: PositionRow, orders: OrderRow[]): string[] {
  return [
    ...checkFields(p),
    ...checkOrderSums(p, orders),
    ...checkOrderChain(p, orders),
    ...checkLiquidation(p, orders),
  ];
}

/** pnl, ROIs, leverage, isWin, duration and status from the position's own fields. */
function checkFields(p: PositionRow): string[] {
  const out: string[] = [];
  const closed = p.close_time_ms !== null;
  if (!near(p.pnl, p.realised_pnl - p.fee + p.funding)) out.push('pnl ≠ realisedPnl − fee + funding');
  if (!near(p.realised_roi, (p.realised_pnl / p.collateral) * 100)) out.push('realisedRoi');
  if (!near(p.roi, (p.pnl / p.collateral) * 100)) out.push('roi');
  if (!near(p.leverage, p.size / p.collateral)) out.push('leverage ≠ size / collateral');
  if (p.status !== (closed ? 'CLOSE' : 'OPEN')) out.push('status');
  const win = closed ? (p.realised_pnl > 0 ? 1 : 0) : null;
  if (p.is_win !== win) out.push(`isWin ${p.is_win} for realisedPnl ${p.realised_pnl}`);
  const duration = closed ? ((p.close_time_ms as number) - p.open_time_ms) / 1000 : null;
  if (p.duration_s !== duration) out.push('durationInSecond');
  if (p.order_count !== p.order_increase_count + p.order_decrease_count) out.push('orderCount split');
  return out;
}

/** Counts and sums over the orders: realised, fee, funding, peak size, order counts. */
function checkOrderSums(p: PositionRow, orders: OrderRow[]): string[] {
  const out: string[] = [];
  const trades = orders.filter((o) => o.type !== 'MARGIN_TRANSFERRED');
  const increases = orders.filter((o) => o.type === 'OPEN' || o.type === 'INCREASE').length;
  const sum = (f: (o: OrderRow) => number) => orders.reduce((s, o) => s + f(o), 0);
  const realised = sum((o) => (o.type === 'DECREASE' || o.type === 'CLOSE' ? o.realised_pnl : 0));
  if (p.order_count !== trades.length) out.push(`orderCount ${p.order_count} ≠ ${trades.length} trades`);
  if (p.order_increase_count !== increases) out.push('orderIncreaseCount');
  if (!near(realised, p.realised_pnl))
    out.push(`Σ realised of decreasing orders ${realised} ≠ ${p.realised_pnl}`);
  if (
    !near(
      sum((o) => o.fee),
      p.fee,
    )
  )
    out.push('Σ fee');
  if (
    !near(
      sum((o) => o.funding),
      p.funding,
    )
  )
    out.push('Σ funding');
  if (!near(Math.max(...orders.map((o) => o.size)), p.size)) out.push('size is not the peak of the orders');
  return out;
}

/**
 * Order by order: the first is OPEN and only the last may be CLOSE; sizes and collaterals move by
 * their deltas; the average entry is size-weighted over opening fills; fees are the taker fee on
 * the fill's notional; a decrease realises (price − average) × tokens closed.
 */
function checkOrderChain(p: PositionRow, orders: OrderRow[]): string[] {
  const out: string[] = [];
  const sign = p.is_long === 1 ? 1 : -1;
  let tokens = 0;
  let average = 0;
  let collateral = 0;
  orders.forEach((o, i) => {
    const last = i === orders.length - 1;
    if ((i === 0) !== (o.type === 'OPEN')) out.push(`order ${i} is ${o.type}`);
    if (o.type === 'CLOSE' && !last) out.push('CLOSE before the last order');
    const traded = o.size_delta_in_token ?? 0;
    if (!near(o.fee, roundMoney(takerFeeOf(p.protocol) * traded * o.price, 2), 1e-9))
      out.push(`fee of order ${i}`);
    if (o.type === 'OPEN' || o.type === 'INCREASE') {
      average = (tokens * average + traded * o.price) / (tokens + traded);
      tokens += traded;
    } else if (o.type === 'DECREASE' || o.type === 'CLOSE') {
      const expected = Math.round(sign * (o.price - average) * traded * 100) / 100;
      if (p.is_liquidate === 0 && !near(o.realised_pnl, expected)) out.push(`realised of order ${i}`);
      tokens = o.type === 'CLOSE' ? 0 : tokens - traded;
    }
    if (o.type !== 'CLOSE') collateral += o.collateral_delta;
    if (!near(o.average_price, average)) out.push(`averagePrice of order ${i}`);
    if (!near(o.size, tokens * average)) out.push(`size of order ${i}`);
    if (!near(o.collateral, o.type === 'CLOSE' ? 0 : collateral)) out.push(`collateral of order ${i}`);
  });
  if ((p.status === 'CLOSE') !== (orders.at(-1)?.type === 'CLOSE')) out.push('status vs last order');
  if (orders[0]?.block_time_ms !== p.open_time_ms) out.push('open time');
  if (p.status === 'CLOSE' && orders.at(-1)?.block_time_ms !== p.close_time_ms) out.push('close time');
  if (!near(collateral, p.collateral)) out.push('collateral ≠ Σ collateral added');
  if (!near(average, p.average_price)) out.push('averagePrice');
  return out;
}

/** A liquidation loses the collateral exactly and fills at or beyond the liquidation price. */
function checkLiquidation(p: PositionRow, orders: OrderRow[]): string[] {
  if (p.is_liquidate === 0) return [];
  const out: string[] = [];
  const close = orders.at(-1);
  if (!near(p.realised_pnl, -p.collateral)) out.push('liquidation realisedPnl ≠ −collateral');
  if (close?.type !== 'CLOSE') return [...out, 'liquidation without CLOSE'];
  const long = p.is_long === 1;
  const limit =
    p.average_price * (long ? 1 - 1 / p.leverage + MAINTENANCE : 1 + 1 / p.leverage - MAINTENANCE);
  if (long ? close.price > limit * (1 + 1e-9) : close.price < limit * (1 - 1e-9))
    out.push('liquidated before the price');
  return out;
}
