import type { ReactElement } from 'react';
import { useMemo, useState } from 'react';
import type { WithdrawalRecord } from '@shared/ipc/schemas/wallets';
import { Address } from '@renderer/components/Address';
import { CopyButton } from '@renderer/components/CopyButton';
import { EmptyState, ReadFailed } from '@renderer/components/EmptyState';
import { Freshness } from '@renderer/components/Freshness';
import { LoginFirst } from '@renderer/components/LoginFirst';
import { CloseIcon, KeyIcon, WalletsIcon } from '@renderer/components/icons';
import { SkeletonLines } from '@renderer/components/Skeleton';
import { ExportCsvButton } from '@renderer/components/ExportCsvButton';
import { DataTable, type Column } from '@renderer/components/table/DataTable';
import { shortAddress } from '@renderer/format/address';
import { formatUsd, signClass } from '@renderer/format/number';
import { formatTimestamp } from '@renderer/format/time';
import { useChannel } from '@renderer/ipc/use-channel';
import { selectOffline, useConnection } from '@renderer/stores/connection';
import { useNavigation } from '@renderer/stores/navigation';
import { useReloadOn } from '@renderer/stores/revisions';
import { selectSession, selectSessionKnown, useSession } from '@renderer/stores/session';
import { useWithdraw } from '@renderer/stores/withdraw';
import { embeddedAddressOf, marginInUse, numberField, verifiedOf, type WalletRecord } from './wallet-view';
import { WithdrawForm } from './WithdrawForm';

const EMPTY_REQUEST = {};

function EmbeddedWalletCard({
  wallet,
  selected,
  onWithdraw,
}: {
  wallet: WalletRecord;
  selected: boolean;
  onWithdraw: (() => void) | null;
}): ReactElement {
  const address = embeddedAddressOf(wallet);
  const pnl24h = numberField(wallet, 'pnl24h');
  const totalPnl = numberField(wallet, 'totalPnl');
  return (
    <section className={`panel wallet-card${selected ? ' is-selected' : ''}`} data-testid="embedded-wallet">
      <header className="panel-header">
        <div className="panel-heading">
          <h2>{wallet.name}</h2>
          <span className="tag tag-accent">{wallet.exchange}</span>
        </div>
        {address ? <Address address={address} /> : null}
      </header>
      <div className="wallet-figures">
        <div className="stat stat-lead">
          <span className="stat-label">Balance</span>
          <span className="stat-value stat-big num" data-testid="wallet-balance">
            {formatUsd(wallet.balance)}
          </span>
        </div>
        <div className="stat">
          <span
            className="stat-label"
            title="Balance minus the margin of open copy positions: what can be withdrawn"
          >
            Available
          </span>
          <span className="stat-value num" data-testid="wallet-available">
            {formatUsd(wallet.availableBalance)}
          </span>
        </div>
        <div className="stat">
          <span className="stat-label">Margin in use</span>
          <span className="stat-value num">{formatUsd(marginInUse(wallet))}</span>
        </div>
        <div className="stat">
          <span className="stat-label" title="PnL of copy positions closed in the last 24 hours">
            PnL 24h
          </span>
          <span className={`stat-value num ${signClass(pnl24h)}`}>{formatUsd(pnl24h, { signed: true })}</span>
        </div>
        <div className="stat">
          <span
            className="stat-label"
            title="PnL of every closed copy position plus the open ones marked to market"
          >
            Total PnL
          </span>
          <span className={`stat-value num ${signClass(totalPnl)}`}>
            {formatUsd(totalPnl, { signed: true })}
          </span>
        </div>
      </div>
      {onWithdraw ? (
        <div className="wallet-card-actions">
          <button
            type="button"
            className="button button-small"
            onClick={onWithdraw}
            data-testid="wallet-withdraw"
          >
            Withdraw from this wallet
          </button>
        </div>
      ) : null}
    </section>
  );
}

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

const STATUS_TONE: Record<string, string> = {
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
    width: 156,
    sortable: true,
    value: (w) => w.createdAt,
    render: (w) => <span className="num muted">{formatTimestamp(w.createdAt)}</span>,
  },
  {
    id: 'status',
    label: 'Status',
    width: 104,
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

function Receipt({ record, balance }: { record: WithdrawalRecord; balance: number | null }): ReactElement {
  const dismiss = useWithdraw((s) => s.dismissReceipt);
  return (
    <div className="receipt" role="status" data-testid="withdraw-receipt">
      <div className="receipt-head">
        <p className="receipt-title">
          <span className={`tag ${STATUS_TONE[record.status] ?? ''}`}>{record.status}</span> Withdrew{' '}
          {formatUsd(record.data.amount)}
        </p>
        <button type="button" className="icon-button" onClick={dismiss} aria-label="Dismiss the receipt">
          <CloseIcon />
        </button>
      </div>
      <dl className="facts facts-compact">
        <dt>Received</dt>
        <dd className="num">{formatUsd(record.data.receiveAmount)}</dd>
        <dt>Fees</dt>
        <dd
          className="mono"
          title={`${formatUsd(record.data.feeAmount)} service, ${formatUsd(record.transferFee)} transfer, ${formatUsd(record.withdrawFee)} withdraw`}
        >
          {formatUsd(record.data.feeAmount + record.transferFee + record.withdrawFee)}
          <span className="muted">
            &nbsp;({formatUsd(record.data.feeAmount)} + {formatUsd(record.transferFee)} +{' '}
            {formatUsd(record.withdrawFee)})
          </span>
        </dd>
        <dt>To</dt>
        <dd>
          <Address address={record.data.destinationAddress} />
        </dd>
        {record.data.txHash ? (
          <>
            <dt>Transaction</dt>
            <dd className="with-copy">
              <span className="mono">{shortAddress(record.data.txHash, 8, 6)}</span>
              <CopyButton text={record.data.txHash} label="Copy transaction hash" />
            </dd>
          </>
        ) : null}
        <dt>New balance</dt>
        <dd className="num" data-testid="withdraw-new-balance">
          {balance === null ? '…' : formatUsd(balance)}
        </dd>
      </dl>
    </div>
  );
}

/** Copy wallets and the embedded wallet: balances, PnL, withdrawals. */
export function WalletsPage(): ReactElement {
  const session = useSession(selectSession);
  const known = useSession(selectSessionKnown);
  const go = useNavigation((s) => s.go);
  const wallets = useChannel('wallets:list', session ? EMPTY_REQUEST : null);
  const withdrawals = useChannel('withdrawals:list', session ? EMPTY_REQUEST : null);
  useReloadOn('wallets', wallets.reload);
  useReloadOn('wallets', withdrawals.reload);
  const last = useWithdraw((s) => s.last);
  const offline = useConnection(selectOffline);
  const [sourceId, setSourceId] = useState<string | null>(null);

  const embedded = useMemo(() => (wallets.data?.embedded ?? []) as WalletRecord[], [wallets.data]);
  const copyWallets = useMemo(() => (wallets.data?.copyWallets ?? []) as WalletRecord[], [wallets.data]);
  const withdrawable = embedded.filter((w) => embeddedAddressOf(w) !== null);
  const source = withdrawable.find((w) => w.id === sourceId) ?? withdrawable[0] ?? null;
  const sourceAddress = source ? embeddedAddressOf(source) : null;
  const receiptWallet = last
    ? (embedded.find((w) => embeddedAddressOf(w)?.toLowerCase() === last.sourceAddress.toLowerCase()) ?? null)
    : null;

  const header = (
    <header className="page-header page-header-row">
      <div>
        <h1 id="page-title">Wallets</h1>
        <p className="page-lede">The wallets that fund your copy trades, their balances and withdrawals.</p>
      </div>
      <div className="page-header-end">
        <button
          type="button"
          className="button button-small"
          onClick={() => go('wallet')}
          data-testid="wallets-login-wallet-link"
        >
          <KeyIcon />
          Login wallet
        </button>
      </div>
    </header>
  );

  if (!known || !session) {
    return (
      <section className="page" aria-labelledby="page-title">
        {header}
        {known ? <LoginFirst what="your wallets" /> : <SkeletonLines lines={3} />}
      </section>
    );
  }

  let body: ReactElement;
  if (wallets.error && !wallets.data) {
    body = (
      <div className="panel">
        <ReadFailed
          title="Your wallets could not be loaded"
          message={wallets.error.message}
          retrying={wallets.loading}
          onRetry={wallets.reload}
        />
      </div>
    );
  } else if (!wallets.data) {
    body = (
      <div className="panel panel-body" aria-busy="true">
        <SkeletonLines lines={5} />
      </div>
    );
  } else {
    body = (
      <>
        <div className="wallets-layout">
          <div className="wallets-main">
            {embedded.length === 0 ? (
              <div className="panel">
                <EmptyState title="No embedded wallet" icon={<WalletsIcon />}>
                  <p>
                    The service gives every account an embedded wallet at its first login. Log out and in
                    again, or check the service.
                  </p>
                </EmptyState>
              </div>
            ) : (
              embedded.map((w) => (
                <EmbeddedWalletCard
                  key={w.id}
                  wallet={w}
                  selected={withdrawable.length > 1 && w.id === source?.id}
                  onWithdraw={
                    withdrawable.length > 1 && embeddedAddressOf(w) ? () => setSourceId(w.id) : null
                  }
                />
              ))
            )}
          </div>
          <section className="panel withdraw-panel" aria-labelledby="withdraw-title">
            <header className="panel-header">
              <h2 id="withdraw-title">Withdraw</h2>
              {source ? <span className="panel-count">from {source.name}</span> : null}
            </header>
            <div className="panel-body">
              {last ? <Receipt record={last} balance={receiptWallet?.balance ?? null} /> : null}
              {source && sourceAddress ? (
                <WithdrawForm
                  key={source.id}
                  wallet={source}
                  sourceAddress={sourceAddress}
                  offline={offline}
                />
              ) : (
                <p className="panel-text">Only an embedded wallet can be withdrawn from here.</p>
              )}
            </div>
          </section>
        </div>

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
              <Freshness freshness={wallets.freshness} testId="wallets-freshness" />
            </div>
          </header>
          <DataTable
            rows={copyWallets}
            columns={walletColumns}
            rowKey={(w) => w.id}
            empty={
              <EmptyState title="No copy wallets">
                <p>
                  Copy wallets pay the margin of your copy trades. The embedded wallet above is one of them
                  once the service lists it.
                </p>
              </EmptyState>
            }
            height={260}
            testId="copy-wallets-table"
            ariaLabel="Copy wallets"
          />
        </section>
      </>
    );
  }

  return (
    <section className="page page-wide" aria-labelledby="page-title">
      {header}
      {body}
      {wallets.data ? (
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
                  <p>
                    Money you withdraw from the embedded wallet is listed here with its fees and transaction.
                  </p>
                </EmptyState>
              }
              height={320}
              testId="withdrawals-table"
              ariaLabel="Withdrawals"
            />
          )}
        </section>
      ) : null}
      <p className="panel-footnote">
        Your login wallet — the address that signs you in, its key, and logging out — is on the{' '}
        <a href="#/wallet">Wallet page</a>.
      </p>
    </section>
  );
}
