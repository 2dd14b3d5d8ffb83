import type { ReactElement, ReactNode } from 'react';
import { useNavigation } from '@renderer/stores/navigation';
import { selectSessionKnown, selectSessionPending, useSession } from '@renderer/stores/session';
import { selectHasWallet, useWallet } from '@renderer/stores/wallet';
import { EmptyState } from './EmptyState';
import { KeyIcon } from './icons';

interface LoginFirstProps {
  /** What the session unlocks: "your copy trades", "the live market". */
  what: string;
  /** Why it needs a session, when the default sentence does not fit. */
  why?: ReactNode;
  testId?: string;
}

/** What a page shows a visitor without a session: why, and the one button that fixes it. */
export function LoginFirst({ what, why, testId = 'login-first' }: LoginFirstProps): ReactElement {
  const known = useSession(selectSessionKnown);
  const pending = useSession(selectSessionPending);
  const login = useSession((s) => s.login);
  const hasWallet = useWallet(selectHasWallet);
  const go = useNavigation((s) => s.go);
  return (
    <div className="panel">
      <EmptyState
        title={`Log in to see ${what}`}
        icon={<KeyIcon />}
        testId={testId}
        action={
          hasWallet ? (
            <button
              type="button"
              className="button button-primary"
              onClick={() => void login()}
              disabled={!known || pending !== null}
              data-testid={`${testId}-button`}
            >
              {pending === 'login' ? 'Logging in…' : 'Log in'}
            </button>
          ) : (
            <button
              type="button"
              className="button button-primary"
              onClick={() => go('login-key')}
              data-testid={`${testId}-wallet`}
            >
              Set up a login key
            </button>
          )
        }
      >
        <p>
          {why ??
            'It belongs to your account on the service. Logging in signs a message with your login key — no transaction, no fee.'}
        </p>
        {hasWallet ? null : (
          <p>Logging in needs a login key: create one or import one on the Login key page.</p>
        )}
      </EmptyState>
    </div>
  );
}
