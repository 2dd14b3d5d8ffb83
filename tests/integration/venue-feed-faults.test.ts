// The Hyperliquid feed when the venue misbehaves: a malformed page is refused whole, reported on
// its account and retried; a venue that cannot be reached leaves the feed offline while the service
// keeps answering, and it catches up once the venue is back.
import { createServer } from 'node:net';
import { getAddress } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import type { FeedStatus } from '../../src/shared/api/feed';
import { FakeHyperliquid, type VenueFill } from '../support/fake-hyperliquid';
import { generateFills } from '../support/hyperliquid-fills';
import { allBackfilled, startFeedService, waitForFeed } from '../support/feed-service';
import { DAY, expectedPositions, fillsOf, positionSummary, positionsOf } from '../support/feed-checks';
import { apiKeyFor } from '../support/credentials';
import { startTestService, type RunningService } from '../support/service';

let venue: FakeHyperliquid | null = null;
let service: RunningService | null = null;

afterEach(async () => {
  await service?.close();
  await venue?.close();
  service = null;
  venue = null;
});

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('Hyperliquid feed: a malformed page', () => {
  it('is refused whole, reported on the account with its reason, and retried until it is whole', async () => {
    venue = await FakeHyperliquid.start({ pageCap: 40 });
    const account = '0x' + 'd5'.repeat(20);
    const now = Date.now();
    const history = generateFills({
      account,
      seed: 808,
      count: 150,
      startMs: now - 20 * DAY,
      endMs: now - 1000,
    });
    venue.setFills(account, history);
    // The account's next three pages each break one rule, differently.
    let served = 0;
    const breaks = [
      (page: VenueFill[]) => Object.assign(page[3] as VenueFill, { px: 'abc' }),
      (page: VenueFill[]) => delete (page[5] as Partial<VenueFill>).sz,
      (page: VenueFill[]) => Object.assign(page[7] as VenueFill, { dir: 'Sideways' }),
    ];
    venue.malformNext(
      account,
      (page) => {
        breaks[served]?.(page);
        served += 1;
        return page;
      },
      breaks.length,
    );
    service = await startFeedService(venue, { track: [account], retryMinMs: 200 });
    const db = service.service.db;
    const errors: string[] = [];
    const storedWhileRefused: number[] = [];
    const status = await waitForFeed(service, (s: FeedStatus) => {
      const error = s.accounts[0]?.error;
      if (error !== undefined && errors.at(-1) !== error) {
        errors.push(error);
        storedWhileRefused.push(fillsOf(db, account).length);
      }
      return allBackfilled(1)(s);
    });
    expect(served).toBe(3);
    // Each refusal was shown, with the fill and the field at fault.
    expect(errors).toEqual([
      expect.stringMatching(/^fill #4: px: 'abc'/),
      expect.stringMatching(/^fill #6: sz: /),
      expect.stringMatching(/^fill #8: dir: "Sideways" is not a known direction/),
    ]);
    // Nothing of a refused page was stored: the three were the first page, asked again.
    expect(storedWhileRefused).toEqual([0, 0, 0]);
    expect(status.refusedPages).toBe(3);
    expect(status.accounts[0]?.error).toBeUndefined();
    // Retried later: the same page asked four times, each wait longer than the one before.
    const firstPage = venue.requests.filter(
      (r) =>
        r.type === 'userFillsByTime' &&
        (r.body as { startTime: number }).startTime ===
          (venue?.requests.find((q) => q.type === 'userFillsByTime')?.body as { startTime: number })
            .startTime,
    );
    expect(firstPage.length).toBeGreaterThanOrEqual(4);
    const waits = firstPage.slice(1, 4).map((r, i) => r.atMs - (firstPage[i] as { atMs: number }).atMs);
    expect(waits[0]).toBeGreaterThanOrEqual(200);
    expect(waits[1]).toBeGreaterThanOrEqual(400);
    expect(waits[2]).toBeGreaterThanOrEqual(800);
    // And then the backfill completed, exactly.
    expect(fillsOf(db, account)).toHaveLength(history.length);
    expect(positionSummary(positionsOf(db, account))).toEqual(
      positionSummary(expectedPositions(account, history)),
    );
  });
});

describe('Hyperliquid feed: no network', () => {
  it('says offline since when, and the service keeps answering', async () => {
    const port = await closedPort();
    const account = getAddress('0x' + 'd6'.repeat(20));
    const startedAt = Date.now();
    service = await startTestService({
      seedFixture: false,
      now: () => new Date(),
      feed: {
        infoUrl: `http://127.0.0.1:${port}`,
        wsUrl: `ws://127.0.0.1:${port}/ws`,
        leaderboardUrl: `http://127.0.0.1:${port}/leaderboard`,
        track: [account],
        trackTop: 0,
        leverage: 5,
        weightPerMinute: 1_000_000,
      },
    });
    const status = await waitForFeed(service, (s) => s.state === 'offline');
    expect(Date.parse(status.since)).toBeGreaterThanOrEqual(startedAt);
    expect(Date.parse(status.since)).toBeLessThanOrEqual(Date.now());
    expect(status.accounts).toEqual([expect.objectContaining({ account, backfilled: false, fills: 0 })]);
    // Still offline a while later (it retries with backoff), and the service answers the while.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const key = apiKeyFor(service);
    const answer = await fetch(`${service.url}/feed/status`, { headers: { 'x-api-key': key } });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { data: FeedStatus };
    expect(body.data).toMatchObject({ state: 'offline', since: status.since });
    expect((await fetch(`${service.url}/health`)).status).toBe(200);
    const tokens = await fetch(`${service.url}/pairs/tokens`);
    expect(tokens.status).toBe(200);
  });

  it('catches up once the venue is back', async () => {
    venue = await FakeHyperliquid.start({ pageCap: 40 });
    const account = '0x' + 'd7'.repeat(20);
    const now = Date.now();
    const history = generateFills({
      account,
      seed: 809,
      count: 90,
      startMs: now - 20 * DAY,
      endMs: now - 1000,
    });
    venue.setFills(account, history);
    venue.setOffline(true);
    service = await startFeedService(venue, { track: [account] });
    await waitForFeed(service, (s) => s.state === 'offline');
    expect(venue.requests).toEqual([]);
    venue.setOffline(false);
    await waitForFeed(service, allBackfilled(1));
    await waitForFeed(service, (s) => s.state === 'connected');
    expect(fillsOf(service.service.db, account)).toHaveLength(history.length);
  });
});
