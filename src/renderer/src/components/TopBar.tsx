import type { ReactElement } from 'react';
import { pageEntry } from '@renderer/pages/registry';
import { selectPage, useNavigation } from '@renderer/stores/navigation';
import {
  selectProfileName,
  selectServiceBadge,
  selectServiceMessage,
  useService,
  type ServiceBadge,
} from '@renderer/stores/service';
import {
  selectSession,
  selectSessionKnown,
  selectSessionPending,
  useSession,
} from '@renderer/stores/session';
import { toast } from '@renderer/stores/toasts';
import { selectHasWallet, selectWalletKnown, useWallet } from '@renderer/stores/wallet';
import { selectConnection, useConnection } from '@renderer/stores/connection';
import { selectFeedStatus, useFeed } from '@renderer/stores/feed';
import { useNow } from '@renderer/hooks/use-now';
import { Address } from './Address';
import { FEED_NAME, feedBadge } from './feed-text';
import { ExportProgress, SeedingProgress, seedingOf } from './WorkProgress';

const badgeText: Record<ServiceBadge, string> = {
  starting: 'starting',
  ready: 'ready',
  stopped: 'stopped',
  failed: 'failed',
  remote: 'remote',
  unknown: 'unknown',
};
const badgeTone: Record<ServiceBadge, string> = {
  starting: 'warn',
  ready: 'good',
  stopped: 'muted',
  failed: 'bad',
  remote: 'good',
  unknown: 'muted',
};

function ServiceState(): ReactElement {
  const badge = useService(selectServiceBadge);
  const message = useService(selectServiceMessage);
  const profile = useService(selectProfileName);
  const title = [profile, message].filter(Boolean).join(' — ') || undefined;
  return (
    <div className={`status-badge tone-${badgeTone[badge]}`} title={title} data-testid="service-state">
      <span className={`status-dot${badge === 'starting' ? ' is-pulsing' : ''}`} aria-hidden="true" />
      <span className="status-label">{profile ?? 'Service'}</span>
      <span className="status-value">{badgeText[badge]}</span>
      {badge === 'starting' && message && !seedingOf(message) ? (
        // The first start seeds the demo world for a few seconds: say what is happening.
        <span className="status-detail" role="status">
          {message}
        </span>
      ) : null}
    </div>
  );
}

/**
 * The venue feed beside the service: "filling in 12/100" while it backfills, then "live" or
 * "polling", or "offline since 12:03"; hidden when the service runs no feed (the source is off).
 */
function FeedState(): ReactElement | null {
  const status = useFeed(selectFeedStatus);
  const now = useNow(30_000);
  const badge = feedBadge(status, now);
  const go = useNavigation((s) => s.go);
  if (!badge) return null;
  return (
    <button
      type="button"
      className={`status-badge status-button tone-${badge.tone}`}
      title={`${badge.detail} Open Settings → Data sources for the tracked accounts.`}
      onClick={() => go('settings')}
      data-testid="feed-state"
    >
      <span className={`status-dot${badge.tone === 'warn' ? ' is-pulsing' : ''}`} aria-hidden="true" />
      <span className="status-label">{FEED_NAME}</span>
      <span className="status-value">{badge.value}</span>
    </button>
  );
}

/** Shown only while the active profile's service does not answer: reads come from the cache. */
function ConnectionPill(): ReactElement | null {
  const connection = useConnection(selectConnection);
  if (!connection || connection.state === 'online') return null;
  const offline = connection.state === 'offline';
  return (
    <div
      className={`status-badge tone-${offline ? 'bad' : 'warn'}`}
      title={connection.message ?? undefined}
      data-testid="connection-state"
    >
      <span className={`status-dot${offline ? '' : ' is-pulsing'}`} aria-hidden="true" />
      <span className="status-value">{offline ? 'offline · cached data' : 'connecting…'}</span>
    </div>
  );
}

function SessionControl(): ReactElement {
  const known = useSession(selectSessionKnown);
  const session = useSession(selectSession);
  const pending = useSession(selectSessionPending);
  const login = useSession((s) => s.login);
  const hasWallet = useWallet(selectHasWallet);
  const walletKnown = useWallet(selectWalletKnown);
  const go = useNavigation((s) => s.go);

  if (!known) return <span className="skeleton session-skeleton" aria-hidden="true" />;

  if (session) {
    return (
      <div className="session-chip" data-testid="topbar-session">
        <span className="status-dot tone-good" aria-hidden="true" />
        <span className="visually-hidden">Logged in as</span>
        <Address address={session.address} />
      </div>
    );
  }

  const onLogin = (): void => {
    // Only send the trader to the Login key page when it is known that there is no login key.
    if (walletKnown && !hasWallet) {
      go('login-key');
      toast({
        tone: 'info',
        title: 'No login key yet',
        message: 'Create a login key or import a private key, then log in.',
      });
      return;
    }
    void login();
  };

  return (
    <button
      type="button"
      className="button button-primary button-small"
      onClick={onLogin}
      disabled={pending !== null}
      data-testid="topbar-login"
    >
      {pending === 'login' ? 'Logging in…' : 'Log in'}
    </button>
  );
}

/** The top bar: the current page, the local service's state and the session. */
export function TopBar(): ReactElement {
  const page = useNavigation(selectPage);
  return (
    <header className="topbar">
      <div className="topbar-page">{pageEntry(page).label}</div>
      <div className="topbar-right">
        <ExportProgress />
        <SeedingProgress />
        <ConnectionPill />
        <ServiceState />
        <FeedState />
        <span className="topbar-divider" aria-hidden="true" />
        <SessionControl />
      </div>
    </header>
  );
}
