// The Hyperliquid feed live: a WebSocket that drops mid-stream reconnects, the fills it missed come
// by fills-by-time, and no fill is lost or booked twice.
import { getAddress } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeHyperliquid, type VenueFill } from '../support/fake-hyperliquid';
import { generateFills } from '../support/hyperliquid-fills';
import { startFeedService, waitForFeed } from '../support/feed-service';
import {
  DAY,
  expectedPositions,
  fillsOf,
  ordersOf,
  positionSummary,
  positionsOf,
} from '../support/feed-checks';
import type { RunningService } from '../support/service';
import type { FeedStatus } from '../../src/shared/api/feed';

let venue: FakeHyperliquid | null = null;
let service: RunningService | null = null;

afterEach(async () => {
  await service?.close();
  await venue?.close();
  service = null;
  venue = null;
});

/** The first index at or after `index` that starts a new millisecond (orders are not split). */
function msBoundary(fills: VenueFill[], index: number): number {
  let i = index;
  while (i < fills.length && (fills[i] as VenueFill).time === (fills[i - 1] as VenueFill).time) i += 1;
  return i;
}

const onSocket = (s: FeedStatus) =>
  s.state === 'connected' && s.accounts[0]?.backfilled === true && s.accounts[0].live === 'websocket';

describe('Hyperliquid feed: a WebSocket drop mid-stream', () => {
  it('fills the gap by fills-by-time after reconnecting, and books nothing twice', async () => {
    // A page (and a WebSocket snapshot) holds 6 fills (more than an order's legs, which share a
    // millisecond): the snapshot on reconnecting cannot cover the gap.
    venue = await FakeHyperliquid.start({ pageCap: 6 });
    const account = '0x' + 'c4'.repeat(20);
    const now = Date.now();
    const story = generateFills({ account, seed: 314, count: 70, startMs: now - 5 * DAY, endMs: now - 1 });
    const gapStart = msBoundary(story, 40);
    const liveStart = msBoundary(story, 58);
    expect(liveStart).toBeLessThan(story.length - 1);
    const before = story.slice(0, gapStart);
    const gap = story.slice(gapStart, liveStart);
    const live = story.slice(liveStart);
    expect(gap.length).toBeGreaterThan(12);
    venue.setFills(account, before);
    service = await startFeedService(venue, { track: [account] });
    const db = service.service.db;
    await waitForFeed(service, onSocket);
    await waitForFeed(service, (s) => s.accounts[0]?.fills === before.length);
    expect(positionSummary(positionsOf(db, account))).toEqual(
      positionSummary(expectedPositions(account, before)),
    );

    // The connection drops; the account trades while it is down.
    const requestsBefore = venue.requests.length;
    venue.dropWebSockets();
    venue.setFills(account, [...before, ...gap]);
    await waitForFeed(service, (s) => s.accounts[0]?.fills === before.length + gap.length);
    await waitForFeed(service, onSocket);
    const lastBefore = (before.at(-1) as VenueFill).time;
    const gapRequests = venue.requests
      .slice(requestsBefore)
      .filter(
        (r) => r.type === 'userFillsByTime' && (r.body as { startTime: number }).startTime <= lastBefore,
      );
    expect(gapRequests.length).toBeGreaterThan(0);
    const soFar = [...before, ...gap];
    expect(fillsOf(db, account)).toHaveLength(soFar.length);
    expect(positionSummary(positionsOf(db, account))).toEqual(
      positionSummary(expectedPositions(account, soFar)),
    );
    // Each fill booked once: one order per fill, two for a flip.
    const flips = (fills: VenueFill[]) => fills.filter((f) => f.dir.includes('>')).length;
    expect(ordersOf(db, account)).toHaveLength(soFar.length + flips(soFar));

    // Back on the WebSocket: new fills arrive once.
    venue.pushFill(account, ...live);
    await waitForFeed(service, (s) => s.accounts[0]?.fills === story.length);
    // Longer than a poll interval: a second way in (a poll, a snapshot) would have doubled something by now.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const status = service.service.feed?.status();
    expect(status?.accounts).toEqual([
      expect.objectContaining({ account: getAddress(account), fills: story.length, live: 'websocket' }),
    ]);
    expect(fillsOf(db, account)).toHaveLength(story.length);
    expect(ordersOf(db, account)).toHaveLength(story.length + flips(story));
    expect(positionSummary(positionsOf(db, account))).toEqual(
      positionSummary(expectedPositions(account, story)),
    );
  });
});
