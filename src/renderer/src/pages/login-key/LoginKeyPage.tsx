import type { ReactElement } from 'react';
import { useState } from 'react';
import { Address } from '@renderer/components/Address';
import { EmptyState, ReadFailed } from '@renderer/components/EmptyState';
import { KeyIcon } from '@renderer/components/icons';
import { SkeletonLines } from '@renderer/components/Skeleton';
import { selectEphemeralKeychain, useService } from '@renderer/stores/service';
import { selectWalletAddress, selectWalletPending, useWallet } from '@renderer/stores/wallet';
import { DeleteKeyDialog } from './DeleteKeyDialog';
import { ImportKeyForm } from './ImportKeyForm';
import { SessionPanel } from './SessionPanel';

function NoWallet(): ReactElement {
  const pending = useWallet(selectWalletPending);
  const create = useWallet((s) => s.create);
  return (
    <div className="no-wallet">
      <EmptyState title="No login key yet" icon={<KeyIcon />}>
        <p>
          Create a new login key, or import the private key of a wallet you already use, to log in to the
          service.
        </p>
      </EmptyState>
      <div className="wallet-choices">
        <div className="wallet-choice">
          <h3>New key</h3>
          <p className="panel-text">A fresh key is generated and stored in the keychain.</p>
          <button
            type="button"
            className="button button-primary"
            onClick={() => void create()}
            disabled={pending !== null}
            data-testid="wallet-create"
          >
            {pending === 'create' ? 'Creating…' : 'Create key'}
          </button>
        </div>
        <div className="wallet-choice">
          <h3>Existing key</h3>
          <ImportKeyForm />
        </div>
      </div>
    </div>
  );
}

function WalletDetails({ address }: { address: string }): ReactElement {
  const [confirming, setConfirming] = useState(false);
  const ephemeral = useService(selectEphemeralKeychain);
  const pending = useWallet(selectWalletPending);
  return (
    <>
      <dl className="facts">
        <dt>Address</dt>
        <dd>
          <Address address={address} full testId="wallet-address" />
        </dd>
        <dt>Key stored in</dt>
        <dd>
          {ephemeral ? (
            <span className="tag tag-warn">Temporary keychain — lost when the terminal stops</span>
          ) : (
            'OS keychain'
          )}
        </dd>
      </dl>
      <div className="danger-zone">
        <div>
          <p className="danger-title">Delete key</p>
          <p className="panel-text">Removes the private key from the keychain. This cannot be undone.</p>
        </div>
        <button
          type="button"
          className="button button-danger-outline"
          onClick={() => setConfirming(true)}
          disabled={pending !== null}
          data-testid="wallet-delete"
        >
          Delete key…
        </button>
      </div>
      {confirming ? <DeleteKeyDialog address={address} onClose={() => setConfirming(false)} /> : null}
    </>
  );
}

/** The Login key page: create, import or delete the key that signs the login, and log in with it. */
export function LoginKeyPage(): ReactElement {
  const status = useWallet((s) => s.status);
  const error = useWallet((s) => s.error);
  const loading = useWallet((s) => s.loading);
  const refresh = useWallet((s) => s.refresh);
  const address = useWallet(selectWalletAddress);

  let body: ReactElement;
  if (!status && error) {
    body = (
      <ReadFailed
        title="The login key could not be read"
        message={error.message}
        retrying={loading}
        onRetry={() => void refresh()}
      />
    );
  } else if (!status) {
    body = <SkeletonLines lines={3} />;
  } else if (status.hasWallet && address) {
    body = <WalletDetails address={address} />;
  } else {
    body = <NoWallet />;
  }

  return (
    <section className="page" aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">Login key</h1>
        <p className="page-lede">
          The key that signs your login to the service. It stays in the keychain; this window only sees its
          address. It only signs: the wallets that fund your copy trades, and withdrawals, are on the{' '}
          <a href="#/funds" data-testid="login-key-funds-link">
            Funds page
          </a>
          .
        </p>
      </header>
      <div className="wallet-layout">
        <section className="panel" aria-labelledby="wallet-title" aria-busy={!status && !error}>
          <header className="panel-header">
            <h2 id="wallet-title">Key</h2>
          </header>
          <div className="panel-body">{body}</div>
        </section>
        <SessionPanel />
      </div>
    </section>
  );
}
