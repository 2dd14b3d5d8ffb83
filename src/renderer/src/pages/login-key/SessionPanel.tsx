import type { ReactElement } from 'react';
import { Address } from '@renderer/components/Address';
import { CopyButton } from '@renderer/components/CopyButton';
import { ReadFailed } from '@renderer/components/EmptyState';
import { SkeletonLines } from '@renderer/components/Skeleton';
import { formatInteger } from '@renderer/format/number';
import { formatTimestamp } from '@renderer/format/time';
import {
  selectSession,
  selectSessionKnown,
  selectSessionPending,
  useSession,
} from '@renderer/stores/session';
import { selectHasWallet, selectWalletKnown, useWallet } from '@renderer/stores/wallet';

/** The session with the service: log in with the login key, see who you are, log out. */
export function SessionPanel(): ReactElement {
  const known = useSession(selectSessionKnown);
  const session = useSession(selectSession);
  const pending = useSession(selectSessionPending);
  const login = useSession((s) => s.login);
  const logout = useSession((s) => s.logout);
  const error = useSession((s) => s.error);
  const status = useSession((s) => s.status);
  const refresh = useSession((s) => s.refresh);
  const loading = useSession((s) => s.loading);
  const walletKnown = useWallet(selectWalletKnown);
  const walletError = useWallet((s) => s.error);
  const hasWallet = useWallet(selectHasWallet);

  let body: ReactElement;
  if (!status && error) {
    body = (
      <ReadFailed
        title="The session could not be read"
        message={error.message}
        retrying={loading}
        onRetry={() => void refresh()}
      />
    );
  } else if (!known || (!walletKnown && !walletError)) {
    body = <SkeletonLines lines={4} />;
  } else if (session) {
    body = (
      <>
        <dl className="facts" data-testid="auth-session">
          <dt>Address</dt>
          <dd>
            <Address address={session.address} full />
          </dd>
          <dt>User id</dt>
          <dd className="with-copy">
            <span className="mono">{session.userId}</span>
            <CopyButton text={session.userId} label="Copy user id" />
          </dd>
          <dt>Role</dt>
          <dd>
            <span className="tag">{session.role}</span>
          </dd>
          <dt>Copy-trade quota</dt>
          <dd className="num">{formatInteger(session.copyTradeQuota)} copy trades</dd>
          <dt>Plan</dt>
          <dd className="num">Level {session.plan}</dd>
          {session.referralCode ? (
            <>
              <dt>Referral code</dt>
              <dd className="with-copy">
                <span className="mono">{session.referralCode}</span>
                <CopyButton text={session.referralCode} label="Copy referral code" />
              </dd>
            </>
          ) : null}
          <dt>Logged in</dt>
          <dd className="num">{formatTimestamp(session.loggedInAt)}</dd>
        </dl>
        <div className="panel-actions">
          <button
            type="button"
            className="button"
            onClick={() => void logout()}
            disabled={pending !== null}
            data-testid="auth-logout"
          >
            {pending === 'logout' ? 'Logging out…' : 'Log out'}
          </button>
        </div>
      </>
    );
  } else {
    body = (
      <>
        <p className="panel-text">
          {hasWallet
            ? 'Not logged in. Logging in signs a one-time message with the login key — no transaction, no fee — and opens a session with the service.'
            : 'Not logged in. Logging in needs a login key: create one or import a private key first.'}
        </p>
        <div className="panel-actions">
          <button
            type="button"
            className="button button-primary"
            onClick={() => void login()}
            disabled={!hasWallet || pending !== null}
            data-testid="auth-login"
          >
            {pending === 'login' ? 'Logging in…' : 'Log in'}
          </button>
        </div>
      </>
    );
  }

  return (
    <section className="panel" aria-labelledby="session-title">
      <header className="panel-header">
        <h2 id="session-title">Session</h2>
        {session ? <span className="tag tag-good">Logged in</span> : null}
      </header>
      <div className="panel-body">{body}</div>
    </section>
  );
}
