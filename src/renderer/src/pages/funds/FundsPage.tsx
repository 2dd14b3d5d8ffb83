import type { ReactElement } from 'react';
import { useMemo, useState } from 'react';
import { EmptyState, ReadFailed } from '@renderer/components/EmptyState';
import { LoginFirst } from '@renderer/components/LoginFirst';
import { KeyIcon, WalletsIcon } from '@renderer/components/icons';
import { SkeletonLines } from '@renderer/components/Skeleton';
import { useChannel } from '@renderer/ipc/use-channel';
import { selectOffline, useConnection } from '@renderer/stores/connection';
import { useNavigation } from '@renderer/stores/navigation';
import { useReloadOn } from '@renderer/stores/revisions';
import { selectSession, selectSessionKnown, useSession } from '@renderer/stores/session';
import { CopyWalletsPanel } from './CopyWalletsPanel';
import { EmbeddedWalletCard } from './EmbeddedWalletCard';
import { embeddedAddressOf, type WalletRecord } from './wallet-view';
import { WithdrawalsPanel } from './WithdrawalsPanel';
import { WithdrawPanel } from './WithdrawPanel';

const EMPTY_REQUEST = {};

/** Copy wallets and the embedded wallet: balances, PnL, withdrawals. */
export function FundsPage(): ReactElement {
  const session = useSession(selectSession);
  const known = useSession(selectSessionKnown);
  const go = useNavigation((s) => s.go);
  const wallets = useChannel('wallets:list', session ? EMPTY_REQUEST : null);
  const withdrawals = useChannel('withdrawals:list', session ? EMPTY_REQUEST : null);
  useReloadOn('wallets', wallets.reload);
  useReloadOn('wallets', withdrawals.reload);
  const offline = useConnection(selectOffline);
  const [sourceId, setSourceId] = useState<string | null>(null);

  const embedded = useMemo(() => (wallets.data?.embedded ?? []) as WalletRecord[], [wallets.data]);
  const copyWallets = useMemo(() => (wallets.data?.copyWallets ?? []) as WalletRecord[], [wallets.data]);
  const withdrawable = embedded.filter((w) => embeddedAddressOf(w) !== null);
  const source = withdrawable.find((w) => w.id === sourceId) ?? withdrawable[0] ?? null;

  const header = (
    <header className="page-header page-header-row">
      <div>
        <h1 id="page-title">Funds</h1>
        <p className="page-lede">The wallets that fund your copy trades, their balances and withdrawals.</p>
      </div>
      <div className="page-header-end">
        <button
          type="button"
          className="button button-small"
          onClick={() => go('login-key')}
          data-testid="funds-login-key-link"
        >
          <KeyIcon />
          Login key
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
          <WithdrawPanel source={source} embedded={embedded} offline={offline} />
        </div>

        <CopyWalletsPanel copyWallets={copyWallets} freshness={wallets.freshness} />
      </>
    );
  }

  return (
    <section className="page page-wide" aria-labelledby="page-title">
      {header}
      {body}
      {wallets.data ? <WithdrawalsPanel withdrawals={withdrawals} /> : null}
      <p className="panel-footnote">
        Your login key — the address that signs you in, and logging out — is on the{' '}
        <a href="#/login-key">Login key page</a>.
      </p>
    </section>
  );
}
