// The Hyperliquid feed under the venue's per-IP weight limit: a storm of 429s lowers its budget, it
// never takes the venue over the limit in any sliding minute, and the backfill still finishes.
// The feed's budget and the fake venue's sliding minute run on one clock 40 times faster than
// real time (a minute is 1.5 s), so that minutes of throttling fit in a test.
import { getAddress } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import type { BudgetClock } from '../../src/service/venues/hyperliquid/request-budget';
import { FakeHyperliquid } from '../support/fake-hyperliquid';
import { generateAccounts, generateFills } from '../support/hyperliquid-fills';
import { allBackfilled, startFeedService, waitForFeed } from '../support/feed-service';
import { DAY, fillsOf } from '../support/feed-checks';
import type { RunningService } from '../support/service';

const SPEED = 40;

/** Real time, SPEED times faster, from now on. */
function fastClock(): BudgetClock {
  const start = Date.now();
  return {
    now: () => start + (Date.now() - start) * SPEED,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms / SPEED)),
  };
}

let venue: FakeHyperliquid | null = null;
let service: RunningService | null = null;

afterEach(async () => {
  await service?.close();
  await venue?.close();
  service = null;
  venue = null;
});

describe('Hyperliquid feed: the request budget', () => {
  it('never takes the venue over its limit in a 429 storm, and the backfill still finishes', async () => {
    const LIMIT = 600;
    const STORM = 6;
    const clock = fastClock();
    venue = await FakeHyperliquid.start({ pageCap: 40, weightPerMinute: LIMIT, nowMs: clock.now });
    const now = Date.now();
    const accounts = generateAccounts(3, 21);
    const histories = accounts.map((account, i) =>
      generateFills({
        account,
        seed: 900 + i,
        count: 260 + 30 * i,
        startMs: now - 60 * DAY,
        endMs: now - 1000,
      }),
    );
    accounts.forEach((a, i) => venue?.setFills(a, histories[i] ?? []));
    // The first requests meet a storm of 429s.
    venue.failNext(STORM);
    service = await startFeedService(venue, {
      track: accounts,
      weightPerMinute: LIMIT,
      budgetClock: clock,
      rateLimitPauseMs: 4_000, // 0.1 s of real time
    });
    await waitForFeed(service, allBackfilled(3), 40_000);

    const db = service.service.db;
    for (const [i, account] of accounts.entries())
      expect(fillsOf(db, account)).toHaveLength(histories[i]?.length ?? -1);
    const requests = venue.requests;
    // The storm was met and weathered: exactly the forced 429s, none for going over the limit.
    expect(requests.filter((r) => r.status === 429)).toHaveLength(STORM);
    expect(requests.slice(0, STORM).map((r) => r.status)).toEqual(Array(STORM).fill(429));
    expect(requests.filter((r) => r.status !== 200 && r.status !== 429)).toEqual([]);
    // The backfill needed more than a minute's budget, so the budget paced it, and never past the limit.
    const total = requests.reduce((sum, r) => sum + r.weight, 0);
    expect(total).toBeGreaterThan(LIMIT);
    expect(venue.maxWeightInAnyMinute()).toBeLessThanOrEqual(LIMIT);
    // The budget shown was lowered by the 429s (it recovers a tenth a quiet minute).
    const status = service.service.feed?.status();
    expect(status?.budget.weightPerMinute).toBeLessThanOrEqual(LIMIT);
    expect(status?.accounts.map((a) => a.account).sort()).toEqual(accounts.map((a) => getAddress(a)).sort());
  }, 60_000);

  it('without 429s, fills minutes up to the venue limit and no further', async () => {
    const LIMIT = 300;
    const clock = fastClock();
    venue = await FakeHyperliquid.start({ pageCap: 40, weightPerMinute: LIMIT, nowMs: clock.now });
    const now = Date.now();
    const accounts = generateAccounts(3, 22);
    const histories = accounts.map((account, i) =>
      generateFills({ account, seed: 950 + i, count: 500, startMs: now - 60 * DAY, endMs: now - 1000 }),
    );
    accounts.forEach((a, i) => venue?.setFills(a, histories[i] ?? []));
    service = await startFeedService(venue, { track: accounts, weightPerMinute: LIMIT, budgetClock: clock });
    await waitForFeed(service, allBackfilled(3), 40_000);
    const db = service.service.db;
    for (const [i, account] of accounts.entries())
      expect(fillsOf(db, account)).toHaveLength(histories[i]?.length ?? -1);
    const requests = venue.requests;
    expect(requests.filter((r) => r.status !== 200)).toEqual([]);
    const total = requests.reduce((sum, r) => sum + r.weight, 0);
    expect(total).toBeGreaterThan(2 * LIMIT);
    const largest = venue.maxWeightInAnyMinute();
    expect(largest).toBeLessThanOrEqual(LIMIT);
    // The budget reserves a full page's weight before each request: it fills a minute to within one.
    expect(largest).toBeGreaterThan(LIMIT - 120);
  }, 60_000);
});
