import { beforeAll, describe, expect, it } from 'vitest';
import { setLocale } from '@renderer/format/locale';
import type { FeedAccount, FeedStatus } from '@shared/api/feed';
import {
  accountProblem,
  assumedLeverageNote,
  feedBadge,
  feedProgress,
  formatSeconds,
  sinceText,
  trackedAccount,
} from '@renderer/components/feed-text';

const account = (over: Partial<FeedAccount> = {}): FeedAccount => ({
  account: '0xAbCd000000000000000000000000000000000001',
  backfilled: true,
  fills: 10,
  firstFillTime: null,
  lastFillTime: null,
  ...over,
});

const status = (over: Partial<FeedStatus> = {}): FeedStatus => ({
  venue: 'hyperliquid',
  state: 'connected',
  since: new Date(2026, 10, 26, 12, 3).toISOString(),
  budget: { weightPerMinute: 1200, usedLastMinute: 340 },
  accounts: [account()],
  ...over,
});
const NOW = new Date(2026, 10, 26, 15, 0).getTime();

// Times are written in the user's locale; these expectations are British English's.
beforeAll(() => {
  setLocale('en-GB');
});

describe('the feed in the top bar', () => {
  it('is hidden without a feed', () => {
    expect(feedBadge(null, NOW)).toBeNull();
    expect(feedBadge(status({ state: 'off', accounts: [] }), NOW)).toBeNull();
  });

  it('says it is filling in while accounts are backfilled, with how many are done', () => {
    const progress = { backfilled: 12, accounts: 100 };
    expect(feedBadge(status({ progress }), NOW)).toMatchObject({ value: 'filling in 12/100', tone: 'warn' });
    // Without the service's count, counted from the list.
    const list = [account(), account({ backfilled: false }), account({ backfilled: false })];
    expect(feedBadge(status({ accounts: list }), NOW)?.value).toBe('filling in 1/3');
    // A fresh install before the first traders are found.
    expect(feedBadge(status({ accounts: [], state: 'polling' }), NOW)?.value).toBe('filling in');
  });

  it('says live or polling once every account is in', () => {
    expect(feedBadge(status(), NOW)).toMatchObject({ value: 'live', tone: 'good' });
    expect(feedBadge(status({ state: 'polling', pollIntervalMs: 12_000 }), NOW)).toMatchObject({
      value: 'polling',
      tone: 'warn',
      detail: expect.stringContaining('every 12 s'),
    });
  });

  it('says since when it is offline, first of all', () => {
    const offline = status({ state: 'offline', progress: { backfilled: 3, accounts: 100 } });
    expect(feedBadge(offline, NOW)).toMatchObject({ value: 'offline since 12:03', tone: 'bad' });
    const yesterday = status({ state: 'offline', since: new Date(2026, 10, 25, 9, 5).toISOString() });
    expect(feedBadge(yesterday, NOW)?.value).toBe('offline since 25 Nov, 09:05');
  });

  it('tells the budget and the progress in the tooltip', () => {
    expect(feedBadge(status({ progress: { backfilled: 2, accounts: 4 } }), NOW)?.detail).toContain(
      '2 of 4 accounts backfilled; requests 340 / 1,200 weight a minute.',
    );
  });
});

describe('feed helpers', () => {
  it('counts progress from the service or from the list', () => {
    expect(feedProgress(status({ progress: { backfilled: 1, accounts: 9 } }))).toEqual({
      backfilled: 1,
      accounts: 9,
    });
    expect(feedProgress(status({ accounts: [account(), account({ backfilled: false })] }))).toEqual({
      backfilled: 1,
      accounts: 2,
    });
  });

  it('finds a tracked account whatever the case of its letters', () => {
    const s = status();
    expect(trackedAccount(s, '0xabcd000000000000000000000000000000000001')?.fills).toBe(10);
    expect(trackedAccount(s, '0xabcd000000000000000000000000000000000002')).toBeNull();
    expect(trackedAccount(null, '0xabcd000000000000000000000000000000000001')).toBeNull();
  });

  it('checks an account typed to be tracked', () => {
    expect(accountProblem('')).toBe('Type an account.');
    expect(accountProblem('abc')).toBe('An account starts with 0x.');
    expect(accountProblem('0x12')).toBe('An account is 0x and 40 hex digits.');
    expect(accountProblem(' 0xAbCd000000000000000000000000000000000001 ')).toBeNull();
  });

  it('says which leverage the figures assume', () => {
    expect(assumedLeverageNote(5)).toBe('ROI and leverage assume 5× where the venue did not report it.');
    expect(assumedLeverageNote(2.5)).toBe('ROI and leverage assume 2.5× where the venue did not report it.');
    expect(assumedLeverageNote(undefined)).toBe(
      'ROI and leverage assume a default leverage where the venue did not report it.',
    );
  });

  it('writes times and intervals short', () => {
    expect(sinceText(new Date(2026, 10, 26, 8, 7).toISOString(), NOW)).toBe('08:07');
    expect(formatSeconds(1_500)).toBe('1.5 s');
    expect(formatSeconds(21_000)).toBe('21 s');
    expect(formatSeconds(300_000)).toBe('5 min');
  });
});
