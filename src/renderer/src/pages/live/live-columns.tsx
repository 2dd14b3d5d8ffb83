import type { Order, Position } from '@shared/api/positions';
import { Address } from '@renderer/components/Address';
import { type Column } from '@renderer/components/table/DataTable';
import { orderColumn } from '@renderer/components/table/order-columns';
import { ORDER_COLUMNS } from '@shared/api/order-columns';
import {
  COLUMN_WIDTHS,
  leverageColumn,
  priceColumn,
  sideColumn,
  signedPercentColumn,
  symbolColumn,
  usdColumn,
} from '@renderer/components/table/column-kinds';
import { formatAge } from '@renderer/format/age';
import { formatTimestamp } from '@renderer/format/time';

const ago = (iso: string | null | undefined, now: number): string =>
  iso ? `${formatAge(iso, now)} ago` : '—';

const trader: Column<Position> = {
  id: 'account',
  label: 'Trader',
  width: 150,
  value: (p) => p.account,
  render: (p) => <Address address={p.account} />,
};

/** The columns of the top positions (`top`) and of the positions feed (`feed`); ages count from `now`. */
export function positionColumns(now: number, kind: 'top' | 'feed'): Column<Position>[] {
  const columns: Column<Position>[] = [
    trader,
    {
      id: 'protocol',
      label: 'Protocol',
      width: COLUMN_WIDTHS.protocol,
      sortable: true,
      value: (p) => p.protocol,
    },
    symbolColumn({ width: COLUMN_WIDTHS.pair, get: (p) => p.pair }),
    sideColumn({ width: COLUMN_WIDTHS.side, isLong: (p) => p.isLong }),
    usdColumn({
      id: 'size',
      label: 'Size',
      title: 'Peak notional of the position in USD',
      width: 104,
      sortable: true,
      compact: true,
      get: (p) => p.size,
    }),
    leverageColumn({
      id: 'leverage',
      label: 'Lev.',
      title: 'Size / collateral',
      width: COLUMN_WIDTHS.leverage,
      sortable: true,
      get: (p) => p.leverage,
    }),
  ];
  if (kind === 'top') {
    columns.push(
      usdColumn({
        id: 'collateral',
        label: 'Collateral',
        width: 104,
        sortable: true,
        compact: true,
        get: (p) => p.collateral,
      }),
      priceColumn({
        id: 'entry',
        label: 'Entry',
        title: 'Average entry price',
        width: 100,
        sortable: true,
        get: (p) => p.averagePrice,
      }),
    );
  }
  columns.push(
    usdColumn({
      id: 'pnl',
      // An open position's pnl is what it has realised so far, less fees: the API gives no mark
      // price, so its open part is not marked to market (docs/semantics.md, Positions).
      label: kind === 'top' ? 'PnL so far' : 'PnL',
      title:
        kind === 'top'
          ? 'Realised part − fees + funding so far; the open part is not marked to market'
          : 'realised PnL − fees + funding; for an open position, so far (the open part is not marked to market)',
      width: 108,
      sortable: true,
      signed: true,
      get: (p) => p.pnl,
    }),
    signedPercentColumn({
      id: 'roi',
      label: 'ROI',
      title: 'PnL / collateral',
      width: 100,
      sortable: true,
      get: (p) => p.roi,
    }),
  );
  if (kind === 'feed') {
    columns.push({
      id: 'status',
      label: 'Status',
      width: 86,
      value: (p) => p.status,
      render: (p) => (
        <span className={`tag ${p.status === 'OPEN' ? 'tag-accent' : ''}`}>
          {p.status === 'OPEN' ? 'OPEN' : 'CLOSED'}
        </span>
      ),
    });
  }
  columns.push({
    id: 'time',
    label: kind === 'top' ? 'Opened' : 'Updated',
    align: 'right',
    width: 90,
    sortable: true,
    value: (p) => (kind === 'top' ? p.openBlockTime : (p.updatedAt ?? p.closeBlockTime ?? p.openBlockTime)),
    render: (p) => {
      const at = kind === 'top' ? p.openBlockTime : (p.updatedAt ?? p.closeBlockTime ?? p.openBlockTime);
      return (
        <span className="muted num" title={formatTimestamp(at)}>
          {ago(at, now)}
        </span>
      );
    },
  });
  return columns;
}

/** The columns of the market-wide orders feed; ages count from `now`. */
export function orderColumns(now: number): Column<Order>[] {
  return [
    {
      id: 'time',
      label: ORDER_COLUMNS.blockTime.label,
      width: 100,
      sortable: true,
      value: (o) => o.blockTime,
      render: (o) => (
        <span className="muted num" title={formatTimestamp(o.blockTime)}>
          {ago(o.blockTime, now)}
        </span>
      ),
    },
    {
      id: 'account',
      label: 'Trader',
      width: 150,
      value: (o) => o.account,
      render: (o) => <Address address={o.account} />,
    },
    {
      id: 'protocol',
      label: 'Protocol',
      width: COLUMN_WIDTHS.protocol,
      sortable: true,
      value: (o) => o.protocol,
    },
    symbolColumn({ width: COLUMN_WIDTHS.pair, get: (o) => o.pair }),
    orderColumn('type', { width: COLUMN_WIDTHS.orderType }),
    sideColumn({ width: COLUMN_WIDTHS.side, isLong: (o) => o.isLong }),
    orderColumn('sizeDelta', { width: 100, sortable: true, compact: true }),
    orderColumn('price', { width: 124, sortable: true }),
    orderColumn('realisedPnl', { width: 100, sortable: true }),
  ];
}
