import { subscribe, subscribeLink } from '../ipc/events';
import { followHash } from './navigation';
import { useService } from './service';
import { useSession } from './session';
import { useTokens } from './tokens';
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
  subscribe('service:state', (state) => useService.getState().applyServiceState(state));
  subscribe('session:changed', (status) => useSession.getState().apply(status));

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
}

async function refreshAll(): Promise<void> {
  const tokens = useTokens.getState();
  await Promise.all([
    useService.getState().loadInfo(),
    useWallet.getState().refresh(),
    useSession.getState().refresh(),
    // Tokens load when their page opens; refresh them only if they were loaded.
    tokens.list || tokens.error ? tokens.load() : Promise.resolve(),
  ]);
}
