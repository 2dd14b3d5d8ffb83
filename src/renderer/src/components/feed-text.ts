import type { FeedAccount, FeedReason, FeedStatus } from '@shared/api/feed';
import { dateFormat } from '@renderer/format/locale';
import { formatInteger } from '@renderer/format/number';
import { formatShortTime } from '@renderer/format/time';

/** The feed's protocol id (src/shared/api/feed.ts HYPERLIQUID_PROTOCOL), as the pages show it. */
export const FEED_NAME = 'Hyperliquid';

export type FeedTone = 'good' | 'warn' | 'bad';

/** What the top bar says of the feed: a short value, a tone, and a sentence for the tooltip. */
export interface FeedBadge {
  value: string;
  tone: FeedTone;
  detail: string;
}

/** `12:03` today, `21 Nov, 12:03` on another day (local time, in the user's locale). */
export function sinceText(iso: string, now: number = Date.now()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const today = new Date(now);
  const sameDay =
    d.getFullYear() === today.getFullYear() &&
    d.getMonth() === today.getMonth() &&
    d.getDate() === today.getDate();
  return sameDay ? dateFormat({ hour: '2-digit', minute: '2-digit' }).format(d) : formatShortTime(iso);
}

/** Accounts fully backfilled / tracked: the service's count, else counted from the list. */
export function feedProgress(status: FeedStatus): { backfilled: number; accounts: number } {
  return (
    status.progress ?? {
      backfilled: status.accounts.filter((a) => a.backfilled).length,
      accounts: status.accounts.length,
    }
  );
}

/** `340 / 1,200 weight a minute`. */
export const budgetText = (status: FeedStatus): string =>
  `${formatInteger(Math.round(status.budget.usedLastMinute))} / ${formatInteger(Math.round(status.budget.weightPerMinute))} weight a minute`;

/**
 * The feed's state in words, or null when there is no feed (the source is off):
 * offline first (nothing moves then), then the backfill while it runs ("filling in 12/100"),
 * then how new fills arrive: "live" over the WebSocket, "polling" over HTTP only.
 */
export function feedBadge(status: FeedStatus | null, now: number = Date.now()): FeedBadge | null {
  if (!status || status.state === 'off') return null;
  const { backfilled, accounts } = feedProgress(status);
  const counts = `${formatInteger(backfilled)} of ${formatInteger(accounts)} accounts backfilled; requests ${budgetText(status)}.`;
  if (status.state === 'offline') {
    return {
      value: `offline since ${sinceText(status.since, now)}`,
      tone: 'bad',
      detail: `The venue cannot be reached; the feed retries with a growing wait, and everything already fetched keeps working. ${counts}`,
    };
  }
  if (accounts === 0 || backfilled < accounts) {
    return {
      value:
        accounts === 0 ? 'filling in' : `filling in ${formatInteger(backfilled)}/${formatInteger(accounts)}`,
      tone: 'warn',
      detail:
        accounts === 0
          ? 'Finding the traders to follow (the venue’s leaderboard, the accounts you track).'
          : `Fetching each tracked trader’s history of fills, newest first, so the 7- and 30-day statistics are right first. ${counts}`,
    };
  }
  return status.state === 'connected'
    ? { value: 'live', tone: 'good', detail: `New fills arrive as they happen. ${counts}` }
    : {
        value: 'polling',
        tone: 'warn',
        detail: `The venue’s WebSocket is not connected: new fills are asked for over HTTP${status.pollIntervalMs ? ` every ${formatSeconds(status.pollIntervalMs)}` : ''}. ${counts}`,
      };
}

/** `12 s`, `1.5 s`, `2 min`. */
export function formatSeconds(ms: number): string {
  if (ms < 10_000) return `${Math.round(ms / 100) / 10} s`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  return `${Math.round(ms / 60_000)} min`;
}

/** The tracked entry of `account` (addresses compared without case), or null. */
export function trackedAccount(status: FeedStatus | null, account: string): FeedAccount | null {
  const wanted = account.toLowerCase();
  return status?.accounts.find((a) => a.account.toLowerCase() === wanted) ?? null;
}

/** Why an account is tracked, in words. */
export const REASON_TEXT: Record<FeedReason, string> = {
  leaderboard: 'venue leaderboard',
  user: 'added by you',
  copy: 'running copy trade',
};

/** A 0x account typed to be tracked: null when it is one, else what is wrong. */
export function accountProblem(text: string): string | null {
  const value = text.trim();
  if (value === '') return 'Type an account.';
  if (!/^0x/i.test(value)) return 'An account starts with 0x.';
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) return 'An account is 0x and 40 hex digits.';
  return null;
}

/** The trader page's note on figures that rest on an assumed leverage. */
export function assumedLeverageNote(leverage: number | undefined): string {
  const n = leverage === undefined ? 'a default leverage' : `${Number(leverage.toFixed(2))}×`;
  return `ROI and leverage assume ${n} where the venue did not report it.`;
}
