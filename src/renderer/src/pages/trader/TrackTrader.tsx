import type { ReactElement } from 'react';
import { HYPERLIQUID_PROTOCOL } from '@shared/api/feed';
import { FEED_NAME, trackedAccount } from '@renderer/components/feed-text';
import { formatInteger } from '@renderer/format/number';
import { selectFeedStatus, useFeed } from '@renderer/stores/feed';
import { useNavigation, type TraderRef } from '@renderer/stores/navigation';
import { useService } from '@renderer/stores/service';
import { useSettings } from '@renderer/stores/settings';

const EVM_ACCOUNT = /^0x[0-9a-fA-F]{40}$/;

/**
 * Why the trader cannot be tracked now, or null when it can: the feed must run on the active
 * service (for the local service, the Hyperliquid data source is on).
 */
function blockedReason(
  feedState: string | null,
  sourceOn: boolean | null,
  remoteName: string | null,
): string | null {
  if (feedState !== null && feedState !== 'off') return null;
  if (remoteName) return `${remoteName} runs no ${FEED_NAME} feed.`;
  if (sourceOn === false) return `Turn ${FEED_NAME} on in Settings → Data sources to track traders.`;
  if (feedState === null) return `Waiting for the ${FEED_NAME} feed’s status…`;
  return `The ${FEED_NAME} feed is not running yet; it starts with the local service.`;
}

/**
 * "Track this trader": follows any 0x account on the Hyperliquid feed (its history fills in, then
 * its new fills), "Tracked" once it is; disabled with the reason when the feed is off.
 */
export function TrackTrader({ trader }: { trader: TraderRef }): ReactElement | null {
  const status = useFeed(selectFeedStatus);
  const pending = useFeed((s) => s.pending);
  const track = useFeed((s) => s.track);
  const sourceOn = useSettings((s) => s.settings?.dataSources.hyperliquid ?? null);
  const info = useService((s) => s.info);
  const openTrader = useNavigation((s) => s.openTrader);
  if (!EVM_ACCOUNT.test(trader.account)) return null;
  const tracked = trackedAccount(status, trader.account);
  const reason = blockedReason(
    status?.state ?? null,
    sourceOn,
    info?.profile.kind === 'remote' ? info.profile.name : null,
  );
  const onFeedPage = trader.protocol === HYPERLIQUID_PROTOCOL;
  if (tracked) {
    return (
      <>
        <button
          type="button"
          className="button"
          disabled
          title={`Tracked on ${FEED_NAME}: ${formatInteger(tracked.fills)} fills stored${tracked.backfilled ? ', whole history in' : ', history filling in'}.`}
          data-testid="track-trader"
        >
          ✓ Tracked
        </button>
        {onFeedPage ? null : (
          <button
            type="button"
            className="button"
            onClick={() => openTrader({ protocol: HYPERLIQUID_PROTOCOL, account: trader.account })}
            data-testid="track-open-feed"
          >
            See on {FEED_NAME}
          </button>
        )}
      </>
    );
  }
  return (
    <>
      <button
        type="button"
        className="button"
        onClick={() => void track(trader.account)}
        disabled={reason !== null || pending !== null}
        title={
          reason ??
          `Follow this account on ${FEED_NAME}: its whole history of fills is fetched, then its new fills. Needs a login (signing a message; no transaction).`
        }
        aria-describedby={reason ? 'track-trader-reason' : undefined}
        data-testid="track-trader"
      >
        {pending?.toLowerCase() === trader.account.toLowerCase() ? 'Tracking…' : 'Track this trader'}
      </button>
      {reason ? (
        <span id="track-trader-reason" className="track-reason" data-testid="track-trader-reason">
          {reason}
        </span>
      ) : null}
    </>
  );
}
