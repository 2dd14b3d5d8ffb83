import type { ReactElement } from 'react';
import type { Freshness as FreshnessInfo } from '@shared/ipc/schemas/freshness';
import { EmptyState } from '@renderer/components/EmptyState';
import { ExportCsvButton } from '@renderer/components/ExportCsvButton';
import { Freshness } from '@renderer/components/Freshness';
import { DataTable, type Column } from '@renderer/components/table/DataTable';
import { formatUsd } from '@renderer/format/number';
import { formatTimestamp } from '@renderer/format/time';
import { embeddedAddressOf, marginInUse, verifiedOf, type WalletRecord } from './wallet-view';

const walletColumns: Column<WalletRecord>[] = [
  {
    id: 'name',
    label: 'Wallet',
    width: 200,
    sortable: true,
    value: (w) => w.name,
    render: (w) => <span className="cell-title">{w.name}</span>,
  },
  { id: 'exchange', label: 'Exchange', width: 116, sortable: true, value: (w) => w.exchange },
  {
    id: 'kind',
    label: 'Kind',
    width: 110,
    value: (w) => (embeddedAddressOf(w) ? 'Embedded' : 'API key'),
    render: (w) =>
      embeddedAddressOf(w) ? (
        <span className="tag tag-accent">Embedded</span>
      ) : (
        <span className="tag">API key</span>
      ),
  },
  {
    id: 'verified',
    label: 'Verified',
    width: 84,
    value: (w) => verifiedOf(w),
    render: (w) => {
      const v = verifiedOf(w);
      return v === null ? (
        <span className="muted">—</span>
      ) : v ? (
        <span className="num-up">Yes</span>
      ) : (
        <span className="num-down">No</span>
      );
    },
  },
  {
    id: 'balance',
    label: 'Balance',
    align: 'right',
    width: 120,
    sortable: true,
    value: (w) => w.balance,
    render: (w) => <span className="num">{formatUsd(w.balance)}</span>,
  },
  {
    id: 'available',
    label: 'Available',
    align: 'right',
    width: 120,
    sortable: true,
    value: (w) => w.availableBalance,
    render: (w) => <span className="num">{formatUsd(w.availableBalance)}</span>,
  },
  {
    id: 'margin',
    label: 'Margin in use',
    align: 'right',
    width: 120,
    value: marginInUse,
    render: (w) => <span className="num muted">{formatUsd(marginInUse(w))}</span>,
  },
  {
    id: 'createdAt',
    label: 'Created',
    width: 160,
    sortable: true,
    value: (w) => w.createdAt,
    render: (w) => <span className="num muted">{formatTimestamp(w.createdAt)}</span>,
  },
];

/** The copy wallets that pay the margin of the copy trades, as a table with its CSV export. */
export function CopyWalletsPanel({
  copyWallets,
  freshness,
}: {
  copyWallets: WalletRecord[];
  freshness: FreshnessInfo | null;
}): ReactElement {
  return (
    <section className="panel" aria-labelledby="copy-wallets-title">
      <header className="panel-header">
        <h2 id="copy-wallets-title">Copy wallets</h2>
        <div className="toolbar-end">
          <ExportCsvButton
            columns={walletColumns}
            rows={copyWallets}
            name="copy-wallets"
            noun="wallets"
            testId="copy-wallets-export"
          />
          <Freshness freshness={freshness} testId="wallets-freshness" />
        </div>
      </header>
      <DataTable
        rows={copyWallets}
        columns={walletColumns}
        rowKey={(w) => w.id}
        empty={
          <EmptyState title="No copy wallets">
            <p>
              Copy wallets pay the margin of your copy trades. The embedded wallet above is one of them once
              the service lists it.
            </p>
          </EmptyState>
        }
        height={260}
        testId="copy-wallets-table"
        ariaLabel="Copy wallets"
      />
    </section>
  );
}
