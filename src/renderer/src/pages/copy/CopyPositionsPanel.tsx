import type { ReactElement } from 'react';
import { useMemo, useState } from 'react';
import type { CopyTradeListItem } from '@shared/api/copy-trades';
import { COPY_POSITION_SORT_FIELDS, type CopyPosition } from '@shared/api/copy-positions';
import type { ChannelRequest } from '@shared/ipc/contract';
import { Address } from '@renderer/components/Address';
import { EmptyState, ReadFailed } from '@renderer/components/EmptyState';
import { ExportCsvButton } from '@renderer/components/ExportCsvButton';
import { Freshness } from '@renderer/components/Freshness';
import { Segmented } from '@renderer/components/Toggle';
import { DataTable, type Column, type TableSort } from '@renderer/components/table/DataTable';
import { TitleCell } from '@renderer/components/table/TitleCell';
import {
  COLUMN_WIDTHS,
  leverageColumn,
  priceColumn,
  sideColumn,
  usdColumn,
} from '@renderer/components/table/column-kinds';
import { formatAge } from '@renderer/format/age';
import { formatPrice } from '@renderer/format/number';
import { formatTimestamp } from '@renderer/format/time';
import { useNow } from '@renderer/hooks/use-now';
import { useChannel } from '@renderer/ipc/use-channel';
import { useCopyTrading } from '@renderer/stores/copy-trading';
import { useCopyView, type PositionsStatus, type SideFilter } from '@renderer/stores/copy-view';
import { useReloadOn } from '@renderer/stores/revisions';
import type { WalletRecord } from '@renderer/pages/funds/wallet-view';
import { ClosePositionDialog, type PositionAction } from './ClosePositionDialog';
import { CLOSE_TYPE_LABELS } from './copy-labels';
import { CopyTradeSelect } from './CopyTradeSelect';
import { Pager } from './Pager';
import { PositionOrdersDrawer } from './PositionOrdersDrawer';

const PAGE_SIZE = 100;
const SORTABLE = new Set<string>(COPY_POSITION_SORT_FIELDS);

const STATUS_OPTIONS: readonly { value: PositionsStatus; label: string }[] = [
  { value: 'OPEN', label: 'Open' },
  { value: 'CLOSE', label: 'Closed' },
];
const SIDE_OPTIONS: readonly { value: SideFilter; label: string }[] = [
  { value: 'BOTH', label: 'Both sides' },
  { value: 'LONG', label: 'Long' },
  { value: 'SHORT', label: 'Short' },
];

interface CopyPositionsPanelProps {
  trades: readonly CopyTradeListItem[] | null;
  wallets: readonly WalletRecord[] | null;
}

/** The copy positions, open or closed, filtered by side, copy trade or wallet; orders in a drawer. */
export function CopyPositionsPanel({ trades, wallets }: CopyPositionsPanelProps): ReactElement {
  const status = useCopyView((s) => s.positionsStatus);
  const side = useCopyView((s) => s.positionsSide);
  const copyTradeId = useCopyView((s) => s.copyTradeId);
  const copyWalletId = useCopyView((s) => s.copyWalletId);
  const openId = useCopyView((s) => s.openPositionId);
  const setView = useCopyView((s) => s.set);
  const busy = useCopyTrading((s) => s.busy);
  const [sort, setSort] = useState<TableSort>({ column: 'lastOrderAt', direction: 'desc' });
  const [confirm, setConfirm] = useState<{ position: CopyPosition; action: PositionAction } | null>(null);
  const now = useNow(30_000);

  // Another filter or sort starts at the first page.
  const filterKey = `${status}|${side}|${copyTradeId}|${copyWalletId}|${sort.column}|${sort.direction}`;
  const [paging, setPaging] = useState({ key: filterKey, offset: 0 });
  const offset = paging.key === filterKey ? paging.offset : 0;
  const setOffset = (next: number): void => setPaging({ key: filterKey, offset: next });

  const request = useMemo((): ChannelRequest<'copyPositions:page'> => {
    const body: NonNullable<ChannelRequest<'copyPositions:page'>['body']> = {};
    if (copyTradeId) body.copyTradeIds = [copyTradeId];
    if (copyWalletId) body.copyWalletId = copyWalletId;
    return {
      query: {
        limit: PAGE_SIZE,
        offset,
        status,
        ...(side !== 'BOTH' && { isLong: side === 'LONG' ? 'true' : 'false' }),
        sort_by: sort.column as (typeof COPY_POSITION_SORT_FIELDS)[number],
        sort_type: sort.direction,
      },
      ...(Object.keys(body).length > 0 && { body }),
    };
  }, [status, side, copyTradeId, copyWalletId, sort, offset]);
  const page = useChannel('copyPositions:page', request);
  useReloadOn('copy', page.reload);

  const rows = page.data?.data ?? [];
  const open = status === 'OPEN';
  const openPosition = openId ? (rows.find((p) => p.id === openId) ?? null) : null;

  const columns = useMemo<Column<CopyPosition>[]>(() => {
    const list: Column<CopyPosition>[] = [
      {
        id: 'pair',
        label: 'Pair',
        width: 110,
        value: (p) => p.pair,
        render: (p) => (
          <span className="cell-stack">
            <span className="symbol">{p.pair}</span>
            <span className="cell-sub">{p.protocol}</span>
          </span>
        ),
      },
      sideColumn({
        width: COLUMN_WIDTHS.sideReversed,
        isLong: (p) => p.isLong,
        reversed: (p) => p.isReverse,
      }),
      {
        id: 'copyTradeTitle',
        label: 'Copy trade · trader',
        width: 180,
        value: (p) => p.copyTradeTitle,
        render: (p) => (
          <TitleCell
            title={p.copyTradeTitle}
            sub={<Address address={p.copyAccount} className="cell-sub" />}
          />
        ),
      },
      usdColumn({ id: 'initialVol', label: 'Margin', width: 96, sortable: true, get: (p) => p.initialVol }),
      priceColumn({ id: 'entryPrice', label: 'Entry', width: 92, sortable: true, get: (p) => p.entryPrice }),
      leverageColumn({
        id: 'leverage',
        label: 'Lev',
        width: COLUMN_WIDTHS.leverage,
        sortable: true,
        get: (p) => p.leverage,
      }),
      usdColumn({
        id: 'pnl',
        label: open ? 'PnL so far' : 'PnL',
        title: open
          ? 'Realised part − fees + funding so far; the open part is marked in the copy trade’s PnL'
          : 'realised PnL − fees + funding',
        width: 112,
        sortable: true,
        signed: true,
        get: (p) => p.pnl,
      }),
    ];
    if (open) {
      list.push({
        id: 'exits',
        label: 'SL / TP',
        title: 'Stop-loss and take-profit prices',
        align: 'right',
        width: 130,
        value: (p) => p.stopLossPrice ?? p.takeProfitPrice ?? null,
        render: (p) => (
          <span className="num muted">
            {p.stopLossPrice ? formatPrice(p.stopLossPrice) : '—'} /{' '}
            {p.takeProfitPrice ? formatPrice(p.takeProfitPrice) : '—'}
          </span>
        ),
      });
    } else {
      list.push({
        id: 'closeType',
        label: 'Closed by',
        width: 124,
        value: (p) => p.closeType,
        render: (p) =>
          p.closeType ? (
            <span className="tag" title={CLOSE_TYPE_LABELS[p.closeType].title}>
              {CLOSE_TYPE_LABELS[p.closeType].label}
            </span>
          ) : (
            '—'
          ),
      });
    }
    list.push({
      id: open ? 'createdAt' : 'lastOrderAt',
      label: open ? 'Opened' : 'Closed',
      align: 'right',
      width: 96,
      sortable: true,
      value: (p) => (open ? p.createdAt : p.lastOrderAt),
      render: (p) => {
        const at = open ? p.createdAt : p.lastOrderAt;
        return (
          <span className="num muted" title={formatTimestamp(at)}>
            {formatAge(at, now)} ago
          </span>
        );
      },
    });
    list.push({
      id: 'actions',
      stickyEnd: true,
      label: '',
      width: open ? 224 : 80,
      value: () => null,
      render: (p) => (
        <span className="row-actions">
          <button
            type="button"
            className="button button-tiny"
            onClick={() => setView({ openPositionId: p.id })}
          >
            Orders
          </button>
          {p.status === 'OPEN' ? (
            <>
              <button
                type="button"
                className="button button-tiny button-danger-outline"
                onClick={() => setConfirm({ position: p, action: 'close' })}
                disabled={busy[p.id] !== undefined}
                data-testid="copy-position-close"
              >
                {busy[p.id] === 'close' ? 'Closing…' : 'Close'}
              </button>
              <button
                type="button"
                className="button button-tiny"
                onClick={() => setConfirm({ position: p, action: 'unlink' })}
                disabled={busy[p.id] !== undefined}
                title="Stop following the trader; closed at the last mark"
                data-testid="copy-position-unlink"
              >
                Unlink
              </button>
            </>
          ) : null}
        </span>
      ),
    });
    return list;
  }, [open, now, busy, setView]);

  const filtered = side !== 'BOTH' || copyTradeId !== '' || copyWalletId !== '';
  const empty = (
    <EmptyState
      title={open ? 'No open copy positions' : 'No closed copy positions'}
      action={
        filtered ? (
          <button
            type="button"
            className="button"
            onClick={() => setView({ positionsSide: 'BOTH', copyTradeId: '', copyWalletId: '' })}
          >
            Clear filters
          </button>
        ) : undefined
      }
    >
      <p>
        {filtered
          ? 'Nothing matches these filters.'
          : open
            ? 'Positions appear here when a running copy trade’s trader opens one: a trader with many recent trades (the leaderboard’s Trades, 7D) opens them more often.'
            : 'Positions land here once they close.'}
      </p>
    </EmptyState>
  );

  return (
    <>
      <div className="toolbar panel-toolbar">
        <Segmented
          value={status}
          options={STATUS_OPTIONS}
          onChange={(v) => setView({ positionsStatus: v })}
          label="Open or closed"
          testId="copy-positions-status"
        />
        <Segmented
          value={side}
          options={SIDE_OPTIONS}
          onChange={(v) => setView({ positionsSide: v })}
          label="Side"
          testId="copy-positions-side"
        />
        <CopyTradeSelect
          value={copyTradeId}
          trades={trades}
          onChange={(id) => setView({ copyTradeId: id, copyWalletId: '' })}
          testId="copy-positions-trade"
        />
        <select
          className="input select select-compact"
          value={copyWalletId}
          onChange={(e) => setView({ copyWalletId: e.target.value, copyTradeId: '' })}
          aria-label="Copy wallet"
          data-testid="copy-positions-wallet"
        >
          <option value="">All wallets</option>
          {(wallets ?? []).map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
        </select>
        <div className="toolbar-end">
          <ExportCsvButton
            columns={columns}
            rows={rows}
            name={open ? 'copy-positions-open' : 'copy-positions-closed'}
            noun="positions"
          />
          <Freshness freshness={page.freshness} testId="copy-positions-freshness" />
        </div>
      </div>
      {page.error && !page.data ? (
        <ReadFailed
          title="Your copy positions could not be loaded"
          message={page.error.message}
          retrying={page.loading}
          onRetry={page.reload}
        />
      ) : (
        <DataTable
          rows={rows}
          columns={columns}
          rowKey={(p) => p.id}
          sort={sort}
          onSort={(next) => {
            if (SORTABLE.has(next.column)) setSort(next);
          }}
          onRowOpen={(p) => setView({ openPositionId: p.id })}
          loading={page.data === null}
          empty={empty}
          height={520}
          testId="copy-positions-table"
          ariaLabel={open ? 'Open copy positions' : 'Closed copy positions'}
        />
      )}
      {page.data ? (
        <Pager
          offset={offset}
          limit={PAGE_SIZE}
          total={page.data.meta.total}
          onOffset={setOffset}
          unit="positions"
        />
      ) : null}
      {openPosition ? (
        <PositionOrdersDrawer position={openPosition} onClose={() => setView({ openPositionId: null })} />
      ) : null}
      {confirm ? (
        <ClosePositionDialog
          position={confirm.position}
          action={confirm.action}
          onDone={() => setConfirm(null)}
        />
      ) : null}
    </>
  );
}
