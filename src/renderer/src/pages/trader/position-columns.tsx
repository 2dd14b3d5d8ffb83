import type { Order, Position } from '../../../../shared/api/positions';
import type { Column } from '../../components/table/DataTable';
import { shortAddress } from '../../format/address';
import {
  formatDuration,
  formatLeverage,
  formatPercent,
  formatPrice,
  formatUsd,
  formatUsdCompact,
  signClass,
} from '../../format/number';
import { formatTimestamp } from '../../format/time';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number): string => String(n).padStart(2, '0');
/** `21 Nov 06:11` (local), with the year only when it is not this one: dense table cells. */
function shortTime(iso: string | null, seconds = false): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const year = d.getFullYear() === new Date().getFullYear() ? '' : ` ${d.getFullYear()}`;
  const secs = seconds ? `:${pad(d.getSeconds())}` : '';
  return `${d.getDate()} ${MONTHS[d.getMonth()]}${year} ${pad(d.getHours())}:${pad(d.getMinutes())}${secs}`;
}
function TimeCell({ iso, seconds = false }: { iso: string | null; seconds?: boolean }) {
  return (
    <span className="num muted" title={iso ? formatTimestamp(iso) : undefined}>
      {shortTime(iso, seconds)}
    </span>
  );
}
const ms = (iso: string | null): number | null => (iso ? Date.parse(iso) : null);

function SideTag({ isLong }: { isLong: boolean | null | undefined }) {
  if (isLong === null || isLong === undefined) return <span className="muted">—</span>;
  return <span className={`tag ${isLong ? 'tag-long' : 'tag-short'}`}>{isLong ? 'LONG' : 'SHORT'}</span>;
}

const pairColumn = (): Column<Position> => ({
  id: 'pair',
  label: 'Pair',
  width: 160,
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

const size: Column<Position> = {
  id: 'size',
  label: 'Size',
  title: 'Peak notional of the position in USD.',
  align: 'right',
  width: 92,
  sortable: true,
  value: (p) => p.size,
  render: (p) => <span className="num">{formatUsdCompact(p.size)}</span>,
};
const collateral: Column<Position> = {
  id: 'collateral',
  label: 'Collateral',
  align: 'right',
  width: 96,
  value: (p) => p.collateral,
  render: (p) => <span className="num">{formatUsdCompact(p.collateral)}</span>,
};
const leverage: Column<Position> = {
  id: 'leverage',
  label: 'Lev.',
  title: 'Leverage: size / collateral',
  align: 'right',
  width: 70,
  sortable: true,
  value: (p) => p.leverage,
  render: (p) => <span className="num">{formatLeverage(p.leverage)}</span>,
};
const entry: Column<Position> = {
  id: 'averagePrice',
  label: 'Entry',
  title: 'Average entry price, size-weighted over the opening and increasing orders.',
  align: 'right',
  width: 92,
  sortable: true,
  value: (p) => p.averagePrice,
  render: (p) => <span className="num">{formatPrice(p.averagePrice)}</span>,
};
const pnl: Column<Position> = {
  id: 'pnl',
  label: 'PnL',
  title: 'pnl = realisedPnl − fee + funding',
  align: 'right',
  width: 100,
  sortable: true,
  value: (p) => p.pnl,
  render: (p) => (
    <span className={`num ${signClass(p.pnl)}`}>{formatUsdCompact(p.pnl, { signed: true })}</span>
  ),
};
const roi: Column<Position> = {
  id: 'roi',
  label: 'ROI',
  title: 'roi = pnl / collateral × 100',
  align: 'right',
  width: 88,
  sortable: true,
  value: (p) => p.roi,
  render: (p) => <span className={`num ${signClass(p.roi)}`}>{formatPercent(p.roi, { signed: true })}</span>,
};
const fee: Column<Position> = {
  id: 'fee',
  label: 'Fee',
  align: 'right',
  width: 76,
  value: (p) => p.fee,
  render: (p) => <span className="num">{formatUsd(p.fee)}</span>,
};
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
  width: 124,
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
    width: 124,
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
  { ...pnl, label: 'PnL so far', sortable: true },
  { ...roi, sortable: true },
  orders,
];

/** A position's orders, oldest first. */
export const ORDER_COLUMNS: readonly Column<Order>[] = [
  {
    id: 'blockTime',
    label: 'Time',
    width: 136,
    sortable: true,
    value: (o) => ms(o.blockTime),
    render: (o) => <TimeCell iso={o.blockTime} seconds />,
  },
  {
    id: 'type',
    label: 'Type',
    width: 96,
    sortable: true,
    value: (o) => o.type,
    render: (o) => <span className="tag">{o.type === 'MARGIN_TRANSFERRED' ? 'MARGIN' : o.type}</span>,
  },
  {
    id: 'sizeDelta',
    label: 'Size Δ',
    title: 'Change of the position size in USD.',
    align: 'right',
    width: 100,
    sortable: true,
    value: (o) => o.sizeDeltaNumber ?? null,
    render: (o) => <span className="num">{formatUsdCompact(o.sizeDeltaNumber)}</span>,
  },
  {
    id: 'collateralDelta',
    label: 'Collateral Δ',
    align: 'right',
    width: 108,
    value: (o) => o.collateralDeltaNumber ?? null,
    render: (o) => <span className="num">{formatUsdCompact(o.collateralDeltaNumber)}</span>,
  },
  {
    id: 'price',
    label: 'Price',
    align: 'right',
    width: 100,
    sortable: true,
    value: (o) => o.priceNumber ?? null,
    render: (o) => <span className="num">{formatPrice(o.priceNumber)}</span>,
  },
  {
    id: 'fee',
    label: 'Fee',
    align: 'right',
    width: 84,
    value: (o) => o.feeNumber ?? null,
    render: (o) => <span className="num">{formatUsd(o.feeNumber)}</span>,
  },
  {
    id: 'realisedPnl',
    label: 'Realised PnL',
    align: 'right',
    width: 110,
    value: (o) => o.realisedPnlNumber ?? o.realisedPnl ?? null,
    render: (o) => {
      const v = o.realisedPnlNumber ?? o.realisedPnl ?? null;
      return <span className={`num ${signClass(v)}`}>{formatUsd(v, { signed: true })}</span>;
    },
  },
  {
    id: 'txHash',
    label: 'Transaction',
    width: 130,
    value: (o) => o.txHash,
    render: (o) => (
      <span className="mono muted" title={o.txHash}>
        {shortAddress(o.txHash, 6, 4)}
      </span>
    ),
  },
];
