import { create } from 'zustand';
import { HYPERLIQUID_PROTOCOL, type FeedStatus } from '@shared/api/feed';
import type { Freshness } from '@shared/ipc/schemas/freshness';
import type { AppError } from '@shared/result';
import { shortAddress } from '@renderer/format/address';
import { call, failureOf } from '@renderer/ipc/call';
import { toast } from './toasts';
import { useTokens } from './tradable-tokens';
import { selectLoggedIn, useSession } from './session';
import { selectHasWallet, selectWalletKnown, useWallet } from './wallet';

/** How often the feed's status is read while the window is visible. */
export const FEED_POLL_MS = 5_000;
/** At most this often the token list is read again while it lacks the feed's protocol. */
const TOKENS_RETRY_MS = 30_000;

interface FeedStore {
  /** The last `feed:status`; null until it answers. */
  status: FeedStatus | null;
  /**
   * The leverage the feed assumes where the venue reports none, as last reported: the figures
   * computed with it stay after the feed is turned off.
   */
  assumedLeverage: number | null;
  freshness: Freshness | null;
  error: AppError | null;
  /** The account being added or removed, as it was given. */
  pending: string | null;
  load(): Promise<void>;
  /** Tracks `account` on the venue feed; true when the service took it. */
  track(account: string): Promise<boolean>;
  /** Stops tracking `account` (its data stays); true when the service took it. */
  untrack(account: string): Promise<boolean>;
}

let loading: Promise<void> | null = null;
let tokensAskedAt = 0;

/**
 * The active service's venue feed (`feed:status`), read every few seconds while the window is
 * visible (the top bar shows it on every page), and the tracked accounts' changes
 * (`feed:accounts`).
 */
export const useFeed = create<FeedStore>()((set, get) => {
  const change = async (
    pending: string,
    request: { add?: string[]; remove?: string[] },
    done: { title: string; message: string },
  ): Promise<boolean> => {
    if (get().pending) return false;
    set({ pending });
    try {
      if (!(await loggedIn())) return false;
      const status = await call('feed:accounts', request);
      set({ status, assumedLeverage: status.assumedLeverage ?? get().assumedLeverage, error: null });
      toast({ tone: 'success', ...done });
      return true;
    } catch {
      return false;
    } finally {
      set({ pending: null });
    }
  };
  return {
    status: null,
    assumedLeverage: null,
    freshness: null,
    error: null,
    pending: null,
    load() {
      // One read at a time: the poll and a page asking at once share it.
      loading ??= (async () => {
        try {
          const answer = await call('feed:status', {}, { quiet: true });
          set({
            status: answer.data,
            assumedLeverage: answer.data.assumedLeverage ?? get().assumedLeverage,
            freshness: answer.freshness,
            error: null,
          });
          followProtocol(answer.data);
        } catch (error) {
          set({ error: failureOf(error) });
        } finally {
          loading = null;
        }
      })();
      return loading;
    },
    track: (account) =>
      change(
        account,
        { add: [account] },
        {
          title: `Tracking ${shortAddress(account)}`,
          message:
            'Its history of fills is being fetched, newest first; Settings → Data sources shows how far.',
        },
      ),
    untrack: (account) =>
      change(
        account,
        { remove: [account] },
        {
          title: `Stopped tracking ${shortAddress(account)}`,
          message: 'Its new fills are no longer fetched; what was fetched stays.',
        },
      ),
  };
});

/**
 * The service takes tracking requests from a logged-in user: log in first with the login key there
 * is (signing a message; no transaction), or say how to get one.
 */
async function loggedIn(): Promise<boolean> {
  if (selectLoggedIn(useSession.getState())) return true;
  const wallet = useWallet.getState();
  if (selectWalletKnown(wallet) && !selectHasWallet(wallet)) {
    toast({
      tone: 'info',
      title: 'Log in to track traders',
      message:
        'The service takes tracking requests from a logged-in user: create or import a login key on the Login key page, then log in.',
    });
    return false;
  }
  return useSession.getState().login();
}

/**
 * The leaderboard takes its protocols from the token list, which lists HYPERLIQUID only once the
 * feed has stored the venue's tokens: while it is missing and the feed runs, the list is read
 * again now and then (cache-first, so the fresh answer follows as `data:fresh`).
 */
function followProtocol(status: FeedStatus): void {
  if (status.state === 'off') return;
  const tokens = useTokens.getState();
  if (!tokens.list || tokens.list.groups.some((g) => g.protocol === HYPERLIQUID_PROTOCOL)) return;
  if (Date.now() - tokensAskedAt < TOKENS_RETRY_MS) return;
  tokensAskedAt = Date.now();
  void tokens.load();
}

let polling = false;

/** Reads the feed's status now and every FEED_POLL_MS while the window is visible. */
export function startFeedPolling(): void {
  if (polling) return;
  polling = true;
  const tick = (): void => {
    if (document.visibilityState === 'visible') void useFeed.getState().load();
  };
  window.setInterval(tick, FEED_POLL_MS);
  document.addEventListener('visibilitychange', tick);
  tick();
}

export const selectFeedStatus = (s: FeedStore): FeedStatus | null => s.status;
