import type { ReactElement } from 'react';
import type { WithdrawalRecord } from '@shared/ipc/schemas/wallets';
import { Address } from '@renderer/components/Address';
import { CopyButton } from '@renderer/components/CopyButton';
import { CloseIcon } from '@renderer/components/icons';
import { shortAddress } from '@renderer/format/address';
import { formatUsd } from '@renderer/format/number';
import { useWithdraw } from '@renderer/stores/withdraw';
import { embeddedAddressOf, type WalletRecord } from './wallet-view';
import { WithdrawForm } from './WithdrawForm';
import { STATUS_TONE } from './WithdrawalsPanel';

/** The last withdrawal made here: its status, what arrived, the fees, and the balance after it. */
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

/**
 * The Withdraw panel: the form for the chosen embedded wallet (`source`), above it the receipt of
 * the last withdrawal with the new balance of the wallet it left.
 */
export function WithdrawPanel({
  source,
  embedded,
  offline,
}: {
  source: WalletRecord | null;
  embedded: readonly WalletRecord[];
  offline: boolean;
}): ReactElement {
  const last = useWithdraw((s) => s.last);
  const sourceAddress = source ? embeddedAddressOf(source) : null;
  const receiptWallet = last
    ? (embedded.find((w) => embeddedAddressOf(w)?.toLowerCase() === last.sourceAddress.toLowerCase()) ?? null)
    : null;
  return (
    <section className="panel withdraw-panel" aria-labelledby="withdraw-title">
      <header className="panel-header">
        <h2 id="withdraw-title">Withdraw</h2>
        {source ? <span className="panel-count">from {source.name}</span> : null}
      </header>
      <div className="panel-body">
        {last ? <Receipt record={last} balance={receiptWallet?.balance ?? null} /> : null}
        {source && sourceAddress ? (
          <WithdrawForm key={source.id} wallet={source} sourceAddress={sourceAddress} offline={offline} />
        ) : (
          <p className="panel-text">Only an embedded wallet can be withdrawn from here.</p>
        )}
      </div>
    </section>
  );
}
