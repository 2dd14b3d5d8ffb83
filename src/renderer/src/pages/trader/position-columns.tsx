import type { Order, Position } from '@shared/api/positions';
import { SideTag } from '@renderer/components/SideTag';
import type { Column } from '@renderer/components/table/DataTable';
import { orderColumn } from '@renderer/components/table/order-columns';
import {
  COLUMN_WIDTHS,
  leverageColumn,
  priceColumn,
  signedPercentColumn,
  usdColumn,
} from '@renderer/components/table/column-kinds';
import { formatDuration } from '@renderer/format/number';
import { formatShortTime, formatTimestamp } from '@renderer/format/time';

function TimeCell({ iso, seconds = false }: { iso: string | null; seconds?: boolean }) {
  return (
    <span className="num muted" title={iso ? formatTimestamp(iso) : undefined}>
      {formatShortTime(iso, seconds)}
    </span>
  );
}
const ms = (iso: string | null): number | null => (iso ? Date.parse(iso) : null);

const pairColumn = (): Column<Position> => ({
  id: 'pair',
  label: 'Pair',
  // The pair, its side and, when liquidated, LIQ: `MATIC/USD SHORT LIQ`.
  width: 208,
  value: (p) => p.pair,
  render: (p) => (
    <span className="pair-cell">
      <span className="symbol">{p.pair}</span>
      <SideTag isLong={p.isLong} />
      {p.isLiquidate ? (
        <span className="tag tag-bad" title="Liquidated">
          LIQ
        </span>
      ) : null}
    </span>
  ),
});

const size = usdColumn<Position>({
  id: 'size',
  label: 'Size',
  title: 'Peak notional of the position in USD.',
  width: 92,
  sortable: true,
  compact: true,
  get: (p) => p.size,
});
const collateral = usdColumn<Position>({
  id: 'collateral',
  label: 'Collateral',
  width: 96,
  compact: true,
  get: (p) => p.collateral,
});
const leverage = leverageColumn<Position>({
  id: 'leverage',
  label: 'Lev.',
  title: 'Leverage: size / collateral',
  width: COLUMN_WIDTHS.leverage,
  sortable: true,
  get: (p) => p.leverage,
});
const entry = priceColumn<Position>({
  id: 'averagePrice',
  label: 'Entry',
  title: 'Average entry price, size-weighted over the opening and increasing orders.',
  width: 92,
  sortable: true,
  get: (p) => p.averagePrice,
});
const pnl = usdColumn<Position>({
  id: 'pnl',
  label: 'PnL',
  title: 'pnl = realisedPnl − fee + funding',
  width: 100,
  sortable: true,
  signed: true,
  compact: true,
  get: (p) => p.pnl,
});
const roi = signedPercentColumn<Position>({
  id: 'roi',
  label: 'ROI',
  title: 'roi = pnl / collateral × 100',
  width: 88,
  sortable: true,
  get: (p) => p.roi,
});
const fee = usdColumn<Position>({ id: 'fee', label: 'Fee', width: 100, get: (p) => p.fee });
const orders: Column<Position> = {
  id: 'orderCount',
  label: 'Orders',
  title: 'Open, increase, decrease and close orders of the position.',
  align: 'right',
  width: 70,
  sortable: true,
  value: (p) => p.orderCount,
  render: (p) => <span className="num">{p.orderCount}</span>,
};
const opened: Column<Position> = {
  id: 'openBlockTime',
  label: 'Opened',
  width: COLUMN_WIDTHS.dateTime,
  sortable: true,
  value: (p) => ms(p.openBlockTime),
  render: (p) => <TimeCell iso={p.openBlockTime} />,
};

/** The positions history: closed and open, sortable on the service's position sort fields. */
export const HISTORY_COLUMNS: readonly Column<Position>[] = [
  pairColumn(),
  opened,
  {
    id: 'closeBlockTime',
    label: 'Closed',
    width: COLUMN_WIDTHS.dateTime,
    sortable: true,
    value: (p) => ms(p.closeBlockTime),
    render: (p) =>
      p.status === 'OPEN' ? (
        <span className="tag tag-accent">OPEN</span>
      ) : (
        <TimeCell iso={p.closeBlockTime} />
      ),
  },
  {
    id: 'durationInSecond',
    label: 'Held',
    title: 'closeBlockTime − openBlockTime',
    align: 'right',
    width: 84,
    sortable: true,
    value: (p) => p.durationInSecond,
    render: (p) => <span className="num">{formatDuration(p.durationInSecond)}</span>,
  },
  size,
  collateral,
  leverage,
  entry,
  pnl,
  roi,
  fee,
  orders,
];

/** Open positions: what the trader holds now. */
export const OPEN_COLUMNS: readonly Column<Position>[] = [
  pairColumn(),
  opened,
  size,
  collateral,
  leverage,
  entry,
  {
    ...pnl,
    label: 'PnL so far',
    title: 'Realised part − fee + funding so far; the open part is not marked to market',
    sortable: true,
  },
  { ...roi, sortable: true },
  orders,
];

/** A position's orders, oldest first: the order table's columns (src/shared/api/order-columns.ts). */
export const ORDER_COLUMNS: readonly Column<Order>[] = [
  orderColumn('blockTime', { width: COLUMN_WIDTHS.dateTimeSeconds, sortable: true }),
  orderColumn('type', { width: COLUMN_WIDTHS.orderType, sortable: true }),
  orderColumn('sizeDelta', { width: 100, sortable: true, compact: true }),
  orderColumn('collateralDelta', { width: 108, compact: true }),
  orderColumn('price', { width: 100, sortable: true }),
  orderColumn('fee', { width: 84 }),
  orderColumn('realisedPnl', { width: 110 }),
  orderColumn('txHash', { width: 130 }),
];
