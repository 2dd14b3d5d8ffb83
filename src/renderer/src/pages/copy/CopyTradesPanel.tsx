import type { ReactElement } from 'react';
import { useMemo } from 'react';
import type { CopyTradeListItem } from '@shared/api/copy-trades';
import { Address } from '@renderer/components/Address';
import { EmptyState } from '@renderer/components/EmptyState';
import { CopyTradeIcon } from '@renderer/components/icons';
import { Segmented } from '@renderer/components/Toggle';
import { ExportCsvButton } from '@renderer/components/ExportCsvButton';
import { DataTable, type Column } from '@renderer/components/table/DataTable';
import { TitleCell } from '@renderer/components/table/TitleCell';
import { COLUMN_WIDTHS, leverageColumn, usdColumn } from '@renderer/components/table/column-kinds';
import { useCopyTrading } from '@renderer/stores/copy-trading';
import { useCopyView } from '@renderer/stores/copy-view';
import { SIDE_LABELS } from './copy-labels';

interface CopyTradesPanelProps {
  trades: readonly CopyTradeListItem[] | null;
  loading: boolean;
  walletNames: ReadonlyMap<string, string>;
  running: number;
  quota: number | null;
  onNew(): void;
}

const STATUS_OPTIONS = [
  { value: 'ALL', label: 'All' },
  { value: 'RUNNING', label: 'Running' },
  { value: 'STOPPED', label: 'Stopped' },
] as const;

function StatusControl({ trade, quotaFull }: { trade: CopyTradeListItem; quotaFull: boolean }): ReactElement {
  const busy = useCopyTrading((s) => s.busy[trade.id]);
  const setStatus = useCopyTrading((s) => s.setStatus);
  const running = trade.status === 'RUNNING';
  const blocked = !running && quotaFull;
  return (
    <span className="status-control">
      <span className={`run-dot${running ? ' is-running' : ''}`} aria-hidden="true" />
      <span className={running ? 'run-label is-running' : 'run-label'} data-testid="copy-trade-status">
        {running ? 'Running' : 'Stopped'}
      </span>
      <button
        type="button"
        className={`button button-tiny${running ? '' : ' button-primary'}`}
        onClick={() => void setStatus(trade.id, running ? 'STOPPED' : 'RUNNING')}
        disabled={busy !== undefined || blocked}
        title={
          blocked
            ? 'Your quota of running copy trades is full: stop another one first.'
            : running
              ? 'Stop copying new positions; open ones stay open.'
              : 'Copy the trader’s new positions again.'
        }
        data-testid={running ? 'copy-trade-stop' : 'copy-trade-start'}
      >
        {busy === 'status' ? '…' : running ? 'Stop' : 'Start'}
      </button>
    </span>
  );
}

/** The user's copy trades with their PnL, started and stopped inline. */
export function CopyTradesPanel({
  trades,
  loading,
  walletNames,
  running,
  quota,
  onNew,
}: CopyTradesPanelProps): ReactElement {
  const status = useCopyView((s) => s.tradesStatus);
  const setView = useCopyView((s) => s.set);
  const showPositionsOf = useCopyView((s) => s.showPositionsOf);
  const quotaFull = quota !== null && running >= quota;

  const rows = useMemo(
    () => (trades ?? []).filter((t) => status === 'ALL' || t.status === status),
    [trades, status],
  );

  const columns = useMemo<Column<CopyTradeListItem>[]>(
    () => [
      {
        id: 'status',
        label: 'Status',
        width: 148,
        sortable: true,
        value: (t) => t.status,
        render: (t) => <StatusControl trade={t} quotaFull={quotaFull} />,
      },
      {
        id: 'title',
        label: 'Copy trade',
        width: 192,
        sortable: true,
        value: (t) => t.title,
        render: (t) => (
          <TitleCell
            title={t.title}
            sub={
              <span className="cell-sub">
                {t.protocol} · {walletNames.get(t.copyWalletId) ?? 'wallet'}
              </span>
            }
          />
        ),
      },
      {
        id: 'account',
        label: 'Trader',
        width: 150,
        value: (t) => t.account,
        render: (t) => (
          <span className="cell-inline">
            <Address address={t.account} />
            {t.multipleCopy && t.accounts.length > 0 ? (
              <span className="tag" title={t.accounts.join('\n')}>
                +{t.accounts.length}
              </span>
            ) : null}
          </span>
        ),
      },
      {
        id: 'side',
        label: 'Sides',
        width: 136,
        value: (t) => t.side,
        render: (t) => (
          <span className="cell-inline">
            {SIDE_LABELS[t.side]}
            {t.reverseCopy ? (
              <span className="tag tag-warn" title="Reverse copy: opens the opposite side">
                REV
              </span>
            ) : null}
          </span>
        ),
      },
      usdColumn({
        id: 'volume',
        label: 'Margin',
        title: 'Margin per copied position (USD)',
        width: 84,
        sortable: true,
        get: (t) => t.volume,
      }),
      leverageColumn({
        id: 'leverage',
        label: 'Lev',
        width: COLUMN_WIDTHS.leverage,
        sortable: true,
        get: (t) => t.leverage,
      }),
      usdColumn({
        id: 'pnl',
        label: 'PnL',
        title: 'Σ PnL of its closed copies, plus the unrealised PnL of the open ones',
        width: 100,
        sortable: true,
        signed: true,
        testId: 'copy-trade-pnl',
        get: (t) => t.pnl,
      }),
      usdColumn({
        id: 'pnl7D',
        label: '7D',
        title: 'Σ PnL of its copies closed in the last 7 days',
        width: 84,
        sortable: true,
        signed: true,
        get: (t) => t.pnl7D,
      }),
      usdColumn({
        id: 'pnl30D',
        label: '30D',
        title: 'Σ PnL of its copies closed in the last 30 days',
        width: 84,
        sortable: true,
        signed: true,
        get: (t) => t.pnl30D,
      }),
      {
        id: 'actions',
        stickyEnd: true,
        label: '',
        width: 148,
        value: () => null,
        render: (t) => (
          <span className="row-actions">
            <button
              type="button"
              className="button button-tiny"
              onClick={() => setView({ form: { mode: 'edit', id: t.id } })}
              data-testid="copy-trade-edit"
            >
              Edit
            </button>
            <button type="button" className="button button-tiny" onClick={() => showPositionsOf(t.id)}>
              Positions
            </button>
          </span>
        ),
      },
    ],
    [walletNames, quotaFull, setView, showPositionsOf],
  );

  const empty =
    trades && trades.length > 0 ? (
      <EmptyState
        title={`No ${status === 'RUNNING' ? 'running' : 'stopped'} copy trades`}
        action={
          <button type="button" className="button" onClick={() => setView({ tradesStatus: 'ALL' })}>
            Show all
          </button>
        }
      >
        <p>All your copy trades are {status === 'RUNNING' ? 'stopped' : 'running'}.</p>
      </EmptyState>
    ) : (
      <EmptyState
        title="No copy trades yet"
        icon={<CopyTradeIcon />}
        action={
          <button type="button" className="button button-primary" onClick={onNew}>
            New copy trade
          </button>
        }
      >
        <p>
          A copy trade mirrors one trader’s positions with your own margin, leverage and exits. Find a trader
          on the Leaderboard and press “Copy this trader”, or start one here with their address.
        </p>
      </EmptyState>
    );

  return (
    <>
      <div className="toolbar panel-toolbar">
        <Segmented
          value={status}
          options={STATUS_OPTIONS}
          onChange={(v) => setView({ tradesStatus: v })}
          label="Status"
          testId="copy-trades-status"
        />
        <span className="toolbar-summary num">
          {trades ? `${rows.length} of ${trades.length} copy trade${trades.length === 1 ? '' : 's'}` : ''}
        </span>
        <div className="toolbar-end">
          <ExportCsvButton
            columns={columns}
            rows={rows}
            name="copy-trades"
            noun="copy trades"
            testId="copy-trades-export"
          />
        </div>
      </div>
      <DataTable
        rows={rows}
        columns={columns}
        rowKey={(t) => t.id}
        onRowOpen={(t) => setView({ form: { mode: 'edit', id: t.id } })}
        loading={loading && trades === null}
        empty={empty}
        height={520}
        testId="copy-trades-table"
        ariaLabel="Copy trades"
      />
      {trades && trades.length > 0 ? (
        <p className="panel-footnote">
          Stopping a copy trade copies nothing new; its open positions stay open until you close them or the
          trader does. Click a row to edit it.
        </p>
      ) : null}
    </>
  );
}
