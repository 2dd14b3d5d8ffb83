import { COLUMN_WIDTHS } from '@renderer/components/table/column-kinds';
import type { ReactElement } from 'react';
import { useMemo, useState } from 'react';
import type { CopyOrder, CopyPosition } from '@shared/api/copy-positions';
import { Address } from '@renderer/components/Address';
import { CopyButton } from '@renderer/components/CopyButton';
import { Drawer } from '@renderer/components/Drawer';
import { EmptyState, ReadFailed } from '@renderer/components/EmptyState';
import { Freshness } from '@renderer/components/Freshness';
import { SideTag } from '@renderer/components/SideTag';
import { ExportCsvButton } from '@renderer/components/ExportCsvButton';
import { DataTable, type Column } from '@renderer/components/table/DataTable';
import { shortAddress } from '@renderer/format/address';
import { formatLeverage, formatPrice, formatUsd, signClass } from '@renderer/format/number';
import { formatShortTime, formatTimestamp } from '@renderer/format/time';
import { useChannel } from '@renderer/ipc/use-channel';
import { useReloadOn } from '@renderer/stores/revisions';
import { ClosePositionDialog, type PositionAction } from './ClosePositionDialog';
import { CLOSE_TYPE_LABELS } from './copy-labels';

const orderColumns: Column<CopyOrder>[] = [
  {
    id: 'createdAt',
    label: 'Time',
    width: COLUMN_WIDTHS.dateTimeSeconds,
    sortable: true,
    value: (o) => o.createdAt,
    render: (o) => (
      <span className="num muted" title={formatTimestamp(o.createdAt)}>
        {formatShortTime(o.createdAt, true)}
      </span>
    ),
  },
  {
    id: 'kind',
    label: 'Order',
    width: 84,
    value: (o) => (o.isIncrease ? 'Increase' : 'Decrease'),
    render: (o) => (
      <span className={`tag ${o.isIncrease ? 'tag-accent' : 'tag-warn'}`}>
        {o.isIncrease ? 'ADD' : 'REDUCE'}
      </span>
    ),
  },
  {
    id: 'price',
    label: 'Price',
    align: 'right',
    width: 90,
    value: (o) => o.price,
    render: (o) => <span className="num">{formatPrice(o.price)}</span>,
  },
  {
    id: 'size',
    // A copy order's `size` is its notional in USD (docs/copy-trading-api.md), not tokens.
    label: 'Size',
    title: 'Notional of the order in USD',
    align: 'right',
    width: 90,
    value: (o) => o.size,
    render: (o) => <span className="num">{formatUsd(o.size)}</span>,
  },
  {
    id: 'realisedPnl',
    label: 'Realised',
    align: 'right',
    width: 90,
    value: (o) => o.realisedPnl,
    render: (o) => (
      <span className={`num ${signClass(o.realisedPnl)}`}>
        {o.realisedPnl ? formatUsd(o.realisedPnl, { signed: true }) : '—'}
      </span>
    ),
  },
  {
    id: 'fee',
    label: 'Fee',
    align: 'right',
    width: 70,
    value: (o) => o.fee,
    render: (o) => <span className="num muted">{formatUsd(o.fee)}</span>,
  },
  {
    id: 'tx',
    label: 'Tx',
    width: 140,
    value: (o) => o.txHash,
    render: (o) =>
      o.txHash ? (
        <span className="cell-inline">
          <span className="mono" title={o.txHash}>
            {shortAddress(o.txHash, 6, 4)}
          </span>
          <CopyButton text={o.txHash} label="Copy transaction hash" />
        </span>
      ) : (
        <span className="muted">—</span>
      ),
  },
];

/** One copy position: its figures and its orders (`copyPositions:orders`), with close and unlink. */
export function PositionOrdersDrawer({
  position,
  onClose,
}: {
  position: CopyPosition;
  onClose(): void;
}): ReactElement {
  const request = useMemo(() => ({ id: position.id }), [position.id]);
  const orders = useChannel('copyPositions:orders', request);
  useReloadOn('copy', orders.reload);
  const [confirm, setConfirm] = useState<PositionAction | null>(null);
  const open = position.status === 'OPEN';
  const close = position.closeType ? CLOSE_TYPE_LABELS[position.closeType] : null;

  return (
    <>
      <Drawer
        title={
          <span className="cell-inline">
            {position.pair} <SideTag isLong={position.isLong} reversed={position.isReverse} />
            <span className={`tag ${open ? 'tag-accent' : ''}`}>{open ? 'OPEN' : 'CLOSED'}</span>
          </span>
        }
        subtitle={`${position.copyTradeTitle} · ${position.protocol}`}
        onClose={onClose}
        testId="position-drawer"
        width={720}
        footer={
          open ? (
            <div className="form-footer">
              <p className="form-footer-status muted">Closing does not touch the trader’s own position.</p>
              <button
                type="button"
                className="button button-danger-outline"
                onClick={() => setConfirm('unlink')}
                data-testid="position-unlink"
              >
                Unlink…
              </button>
              <button
                type="button"
                className="button button-danger"
                onClick={() => setConfirm('close')}
                data-testid="position-close"
              >
                Close at market…
              </button>
            </div>
          ) : undefined
        }
      >
        <dl className="facts facts-grid">
          <dt>Trader</dt>
          <dd>
            <Address address={position.copyAccount} />
          </dd>
          <dt>Entry price</dt>
          <dd className="num">{formatPrice(position.entryPrice)}</dd>
          <dt>Margin</dt>
          <dd className="num">{formatUsd(position.initialVol)}</dd>
          <dt>Leverage</dt>
          <dd className="num">{formatLeverage(position.leverage)}</dd>
          <dt>Size</dt>
          <dd className="num">{formatPrice(position.totalSizeDelta)} tokens</dd>
          <dt>Trader’s margin</dt>
          <dd className="num">{formatUsd(Number(position.sourceInitialVol))}</dd>
          <dt>Stop loss</dt>
          <dd className="num">{position.stopLossPrice ? formatPrice(position.stopLossPrice) : '—'}</dd>
          <dt>Take profit</dt>
          <dd className="num">{position.takeProfitPrice ? formatPrice(position.takeProfitPrice) : '—'}</dd>
          <dt>PnL</dt>
          <dd className={`num ${signClass(position.pnl)}`}>{formatUsd(position.pnl, { signed: true })}</dd>
          <dt>Realised · fees</dt>
          <dd className="num with-copy">
            <span className={signClass(position.realisedPnl)}>
              {formatUsd(position.realisedPnl, { signed: true })}
            </span>
            <span className="muted">· {formatUsd(position.fee)} fees</span>
          </dd>
          <dt>Opened</dt>
          <dd className="num">{formatTimestamp(position.createdAt)}</dd>
          <dt>{open ? 'Last order' : 'Closed'}</dt>
          <dd className="num">
            {formatTimestamp(position.lastOrderAt)}
            {close ? (
              <span className="tag" title={close.title}>
                {close.label}
              </span>
            ) : null}
          </dd>
        </dl>
        <div className="drawer-section-head">
          <h3>Orders</h3>
          <div className="toolbar-end">
            <ExportCsvButton
              columns={orderColumns}
              rows={orders.data ?? []}
              name="copy-position-orders"
              noun="orders"
              testId="position-orders-export"
            />
            <Freshness freshness={orders.freshness} testId="position-orders-freshness" />
          </div>
        </div>
        {orders.error && !orders.data ? (
          <ReadFailed
            title="The orders could not be loaded"
            message={orders.error.message}
            retrying={orders.loading}
            onRetry={orders.reload}
          />
        ) : (
          <DataTable
            rows={orders.data ?? []}
            columns={orderColumns}
            rowKey={(o) => `${o.txHash}:${o.createdAt}:${o.size}`}
            loading={orders.data === null}
            empty={<EmptyState title="No orders">{<p>This copy has no orders recorded.</p>}</EmptyState>}
            height={320}
            testId="position-orders-table"
            ariaLabel={`Orders of ${position.pair}`}
          />
        )}
      </Drawer>
      {confirm ? (
        <ClosePositionDialog
          position={position}
          action={confirm}
          onDone={(closed) => {
            setConfirm(null);
            if (closed) onClose();
          }}
        />
      ) : null}
    </>
  );
}
