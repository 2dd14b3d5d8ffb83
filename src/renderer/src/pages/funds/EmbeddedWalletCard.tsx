import type { ReactElement } from 'react';
import { Address } from '@renderer/components/Address';
import { formatUsd, signClass } from '@renderer/format/number';
import { embeddedAddressOf, marginInUse, numberField, type WalletRecord } from './wallet-view';

/** One embedded wallet: its address, balance, margin in use and PnL, and "Withdraw from this wallet" when there are several. */
export function EmbeddedWalletCard({
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
