import type { ReactElement } from 'react';
import {
  selectDamagedFiles,
  selectEphemeralKeychain,
  selectLink,
  selectProfileName,
  selectServiceBadge,
  selectServiceMessage,
  useService,
} from '@renderer/stores/service';
import { formatAge } from '@renderer/format/age';
import { formatTimestamp } from '@renderer/format/time';
import { useNow } from '@renderer/hooks/use-now';
import { selectConnection, useConnection } from '@renderer/stores/connection';
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
  const damaged = useService(selectDamagedFiles);
  const link = useService(selectLink);
  const badge = useService(selectServiceBadge);
  const message = useService(selectServiceMessage);
  const profile = useService(selectProfileName);
  const connection = useConnection(selectConnection);
  const now = useNow();

  const linkProblem = link === 'down' || link === 'no-token' || link === 'rejected';
  // With the core itself unreachable its link banner says more than this one could.
  const offline = connection?.state === 'offline' && !linkProblem;
  if (!ephemeral && !linkProblem && badge !== 'failed' && !offline && damaged.length === 0) return null;
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
      {offline ? (
        <Banner tone="warn" testId="offline-banner">
          <p title={connection.message ?? undefined}>
            <strong>Offline: showing cached data.</strong> {profile ?? 'The service'} has not answered since{' '}
            {formatTimestamp(connection.since).slice(11)} ({formatAge(connection.since, now)}). Pages show
            what was last read, marked with its age; changes (copy trades, withdrawals) wait until it is back.
            This window keeps trying.
            {connection.message ? <span className="banner-detail"> {connection.message}</span> : null}
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
      {damaged.length > 0 ? (
        <Banner tone="warn" testId="damaged-files-banner">
          <p>
            <strong>Damaged local data was set aside.</strong> {damaged.length === 1 ? 'A file' : 'Files'} of
            this terminal&apos;s cache could not be opened and {damaged.length === 1 ? 'was' : 'were'} moved
            aside and rebuilt empty: cached pages and offline downloads fill in again as you browse. Your
            wallet key and withdrawal record are kept elsewhere; settings and service profiles kept there
            start again from their defaults.
            {damaged.map((d) => (
              <span className="banner-detail" key={d.movedTo}>
                {' '}
                {d.file} → {d.movedTo}
              </span>
            ))}
          </p>
        </Banner>
      ) : null}
      {ephemeral ? (
        <Banner tone="warn" testId="ephemeral-banner">
          <p>
            <strong>Temporary keychain.</strong> No OS keychain was running, so this run uses a private one
            that is deleted when the terminal stops: a login key created or imported now is lost then. Import
            only a key you have a copy of.
          </p>
        </Banner>
      ) : null}
    </div>
  );
}
