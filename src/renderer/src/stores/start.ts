import { subscribe, subscribeLink } from '@renderer/ipc/events';
import { useConnection } from './connection';
import { useExportProgress } from './export-progress';
import { startFeedPolling, useFeed } from './feed';
import { followHash } from './navigation';
import { useNotifications } from './notifications';
import { useProfiles } from './profiles';
import { bumpRevision } from './revisions';
import { useService } from './service';
import { useSession } from './session';
import { applyTheme, rememberedTheme, useSettings } from './settings';
import { useTokens } from './tradable-tokens';
import { useWallet } from './wallet';

let started = false;

/**
 * Wires the stores to the core once, before the first render: event listeners, the first reads,
 * and a re-read after the link to the core comes back (what changed meanwhile was not pushed).
 */
export function startStores(): void {
  if (started) return;
  started = true;

  followHash();
  // Paint in the last run's theme before the core answers, so a light theme does not flash dark.
  applyTheme(rememberedTheme());
  subscribe('service:state', (state) => {
    const was = useService.getState().service?.state;
    useService.getState().applyServiceState(state);
    // Ready again after a restart (new data sources, or after it died): it listens on a new
    // port, which the About panel and the profile list show, and its feed may have changed.
    if (state.state === 'ready' && was !== undefined && was !== 'ready') {
      void useService.getState().loadInfo();
      if (useProfiles.getState().profiles) void useProfiles.getState().load();
      void useFeed.getState().load();
    }
  });
  subscribe('session:changed', (status) => {
    useSession.getState().apply(status);
    // Another user (or none): every copy view and wallet reads again.
    bumpRevision('copy', 'wallets', 'session');
  });
  subscribe('connection:state', (state) => {
    const was = useConnection.getState().connection?.state;
    useConnection.getState().apply(state);
    // Back online: what changed meanwhile was not pushed, so the views read again.
    if (was === 'offline' && state.state === 'online') bumpRevision('copy', 'wallets', 'downloads');
  });
  subscribe('profile:changed', (profiles) => {
    useProfiles.getState().apply(profiles);
    // Another service may have another feed (or none).
    void useFeed.getState().load();
  });
  subscribe('export:progress', (progress) => useExportProgress.getState().apply(progress));
  subscribe('copy:activity', (activity) => {
    useNotifications.getState().handle(activity);
    bumpCopyViews();
  });

  let wasDown = false;
  subscribeLink((link) => {
    useService.getState().setLink(link);
    if (link === 'down') wasDown = true;
    if (link === 'up' && wasDown) {
      wasDown = false;
      void refreshAll();
    }
  });

  void refreshAll();
  startFeedPolling();
}

async function refreshAll(): Promise<void> {
  const tokens = useTokens.getState();
  await Promise.all([
    useService.getState().loadInfo(),
    useWallet.getState().refresh(),
    useSession.getState().refresh(),
    useSettings.getState().load(),
    // Tokens load when their page opens; refresh them only if they were loaded.
    tokens.list || tokens.error ? tokens.load() : Promise.resolve(),
  ]);
}

// A copy trade moving several positions at once sends a burst of events: read the views once.
let copyTimer: number | undefined;
function bumpCopyViews(): void {
  window.clearTimeout(copyTimer);
  copyTimer = window.setTimeout(() => bumpRevision('copy', 'wallets'), 400);
}
