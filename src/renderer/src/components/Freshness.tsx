import type { ReactElement } from 'react';
import { useEffect, useState } from 'react';
import type { Freshness as FreshnessValue } from '@shared/ipc/schemas/freshness';
import { formatTimestamp } from '@renderer/format/time';
import { describeFreshness } from './freshness-text';

interface FreshnessProps {
  /** The `freshness` of a cache-first answer; null while the first answer is awaited. */
  freshness: FreshnessValue | null;
  /** `downloaded` when a dataset saved for offline use answered (leaderboard). */
  origin?: 'service' | 'downloaded';
  testId?: string;
}

// Ages are shown in minutes: re-reading the clock twice a minute keeps "3 min ago" honest.
const TICK_MS = 30_000;

/** "Live", "Cached 3 min ago" or "Offline · as of 2 h ago", with the exact time as a tooltip. */
export function Freshness({ freshness, origin, testId = 'freshness' }: FreshnessProps): ReactElement {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), TICK_MS);
    return () => window.clearInterval(timer);
  }, []);
  const text = describeFreshness(freshness, { origin, now });
  const title = freshness ? `${text.detail} (${formatTimestamp(freshness.fetchedAt)})` : text.detail;
  return (
    <span
      className={`freshness freshness-${text.tone}`}
      title={title}
      data-testid={testId}
      data-tone={text.tone}
      role="status"
    >
      <span className="freshness-dot" aria-hidden="true" />
      {text.label}
    </span>
  );
}
