import { COLUMN_WIDTHS } from '@renderer/components/table/column-kinds';
import type { ReactElement } from 'react';
import type { WithdrawalRecord } from '@shared/ipc/schemas/wallets';
import { Address } from '@renderer/components/Address';
import { CopyButton } from '@renderer/components/CopyButton';
import { EmptyState, ReadFailed } from '@renderer/components/EmptyState';
import { ExportCsvButton } from '@renderer/components/ExportCsvButton';
import { Freshness } from '@renderer/components/Freshness';
import { DataTable, type Column } from '@renderer/components/table/DataTable';
import { shortAddress } from '@renderer/format/address';
import { formatUsd } from '@renderer/format/number';
import { formatShortTime, formatTimestamp } from '@renderer/format/time';
import type { ChannelState } from '@renderer/ipc/use-channel';

export const STATUS_TONE: Record<string, string> = {
  SUCCESSFUL: 'tag-good',
  PENDING: 'tag-warn',
  FAILED: 'tag-bad',
  // Sent, answer not known yet: the core settles it with the same key (docs/security.md).
  SUBMITTING: 'tag-warn',
};

const withdrawalColumns: Column<WithdrawalRecord>[] = [
  {
    id: 'createdAt',
    label: 'Time',
    width: COLUMN_WIDTHS.dateTimeSeconds,
    sortable: true,
    value: (w) => w.createdAt,
    render: (w) => (
      <span className="num muted" title={formatTimestamp(w.createdAt)}>
        {formatShortTime(w.createdAt, true)}
      </span>
    ),
  },
  {
    id: 'status',
    label: 'Status',
    width: 124,
    sortable: true,
    value: (w) => w.status,
    render: (w) => (
      <span
        className={`tag ${STATUS_TONE[w.status] ?? ''}`}
        title={
          w.problem ??
          (w.status === 'SUBMITTING'
            ? 'Sent; the answer has not arrived yet. Copydesk checks it with the service, without paying twice.'
            : undefined)
        }
      >
        {w.status}
      </span>
    ),
  },
  {
    id: 'amount',
    label: 'Amount',
    align: 'right',
    width: 100,
    sortable: true,
    value: (w) => w.data.amount,
    render: (w) => <span className="num">{formatUsd(w.data.amount)}</span>,
  },
  {
    id: 'fees',
    label: 'Fees',
    title: 'Service + transfer + withdraw fees',
    align: 'right',
    width: 84,
    value: (w) => w.data.feeAmount + w.transferFee + w.withdrawFee,
    render: (w) => (
      <span className="num muted">{formatUsd(w.data.feeAmount + w.transferFee + w.withdrawFee)}</span>
    ),
  },
  {
    id: 'receive',
    label: 'Received',
    align: 'right',
    width: 100,
    sortable: true,
    value: (w) => w.data.receiveAmount,
    render: (w) => <span className="num">{formatUsd(w.data.receiveAmount)}</span>,
  },
  {
    id: 'destination',
    label: 'To',
    width: 150,
    value: (w) => w.data.destinationAddress,
    render: (w) => <Address address={w.data.destinationAddress} />,
  },
  {
    id: 'tx',
    label: 'Transaction',
    width: 150,
    value: (w) => w.data.txHash,
    render: (w) =>
      w.data.txHash ? (
        <span className="cell-inline">
          <span className="mono" title={w.data.txHash}>
            {shortAddress(w.data.txHash, 6, 4)}
          </span>
          <CopyButton text={w.data.txHash} label="Copy transaction hash" />
        </span>
      ) : (
        <span className="muted">not yet</span>
      ),
  },
];

/** The withdrawals made from this terminal, newest first, with their fees and transactions. */
export function WithdrawalsPanel({
  withdrawals,
}: {
  withdrawals: ChannelState<'withdrawals:list'>;
}): ReactElement {
  return (
    <section className="panel" aria-labelledby="withdrawals-title">
      <header className="panel-header">
        <h2 id="withdrawals-title">Withdrawals</h2>
        <div className="toolbar-end">
          <ExportCsvButton
            columns={withdrawalColumns}
            rows={withdrawals.data ?? []}
            name="withdrawals"
            noun="withdrawals"
            testId="withdrawals-export"
          />
          <Freshness freshness={withdrawals.freshness} testId="withdrawals-freshness" />
        </div>
      </header>
      {withdrawals.error && !withdrawals.data ? (
        <ReadFailed
          title="Your withdrawals could not be loaded"
          message={withdrawals.error.message}
          retrying={withdrawals.loading}
          onRetry={withdrawals.reload}
        />
      ) : (
        <DataTable
          rows={withdrawals.data ?? []}
          columns={withdrawalColumns}
          rowKey={(w) => w.id}
          sort={{ column: 'createdAt', direction: 'desc' }}
          loading={withdrawals.data === null}
          empty={
            <EmptyState title="No withdrawals yet">
              <p>Money you withdraw from the embedded wallet is listed here with its fees and transaction.</p>
            </EmptyState>
          }
          height={320}
          testId="withdrawals-table"
          ariaLabel="Withdrawals"
        />
      )}
    </section>
  );
}
