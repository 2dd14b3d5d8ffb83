import type { ReactElement } from 'react';
import { HYPERLIQUID_PROTOCOL } from '@shared/api/feed';
import { useFeed } from '@renderer/stores/feed';
import { assumedLeverageNote } from './feed-text';
import { InfoIcon } from './icons';

/**
 * Where figures of the venue feed's traders are shown (a HYPERLIQUID trader's page, a leaderboard
 * ranking HYPERLIQUID): which of them rest on an assumed leverage, and which leverage (the feed's
 * status says; `--feed-leverage` on the service).
 */
export function AssumedLeverageNote({
  protocols,
  testId = 'assumed-leverage',
}: {
  protocols: readonly string[];
  testId?: string;
}): ReactElement | null {
  const leverage = useFeed((s) => s.assumedLeverage);
  if (!protocols.includes(HYPERLIQUID_PROTOCOL)) return null;
  const only = protocols.length === 1;
  return (
    <p className="assumption-note" data-testid={testId}>
      <InfoIcon />
      <span>
        {only ? '' : `${HYPERLIQUID_PROTOCOL}: `}
        {assumedLeverageNote(leverage ?? undefined)} Fills do not carry a leverage; the venue reports it only
        for positions open now.
      </span>
    </p>
  );
}
