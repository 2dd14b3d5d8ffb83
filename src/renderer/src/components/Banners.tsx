import type { ReactElement } from 'react';
import {
  selectEphemeralKeychain,
  selectLink,
  selectServiceBadge,
  selectServiceMessage,
  useService,
} from '../stores/service';
import { WarningIcon } from './icons';

function Banner({
  tone,
  testId,
  children,
}: {
  tone: 'warn' | 'bad';
  testId: string;
  children: ReactElement;
}): ReactElement {
  return (
    <div className={`banner banner-${tone}`} role="status" data-testid={testId}>
      <WarningIcon />
      {children}
    </div>
  );
}

/** Conditions that stay true for the whole run, or until fixed: never a toast that fades away. */
export function Banners(): ReactElement | null {
  const ephemeral = useService(selectEphemeralKeychain);
  const link = useService(selectLink);
  const badge = useService(selectServiceBadge);
  const message = useService(selectServiceMessage);

  const linkProblem = link === 'down' || link === 'no-token' || link === 'rejected';
  if (!ephemeral && !linkProblem && badge !== 'failed') return null;
  return (
    <div className="banners">
      {link === 'no-token' ? (
        <Banner tone="bad" testId="link-banner">
          <p>
            <strong>This page has no access token.</strong> Open the address the terminal printed when it
            started; it ends in ?token=….
          </p>
        </Banner>
      ) : null}
      {link === 'rejected' ? (
        <Banner tone="bad" testId="link-banner">
          <p>
            <strong>The terminal refused this page’s access token.</strong> It was probably restarted since
            this page opened: open the address it printed this time.
          </p>
        </Banner>
      ) : null}
      {link === 'down' ? (
        <Banner tone="bad" testId="link-banner">
          <p>
            <strong>The terminal core is not reachable.</strong> This window keeps retrying; what it shows may
            be out of date until the core answers again.
          </p>
        </Banner>
      ) : null}
      {badge === 'failed' ? (
        <Banner tone="bad" testId="service-failed-banner">
          <p>
            <strong>The local service failed.</strong> {message ?? 'It stopped without saying why.'} Pages
            that need fresh data show what was cached.
          </p>
        </Banner>
      ) : null}
      {ephemeral ? (
        <Banner tone="warn" testId="ephemeral-banner">
          <p>
            <strong>Temporary keychain.</strong> No OS keychain was running, so this run uses a private one
            that is deleted when the terminal stops: a wallet created or imported now is lost then. Import
            only a key you have a copy of.
          </p>
        </Banner>
      ) : null}
    </div>
  );
}
