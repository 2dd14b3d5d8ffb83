// Copying real traders: a live fill of an account a RUNNING copy trade follows opens a copy
// position in the user's embedded wallet at the mark, and its event reaches the user's stream; an
// allMids move through the stop loss closes it.
import { getAddress } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import type { CopyPosition } from '../../src/shared/api/copy-positions';
import { HYPERLIQUID_PROTOCOL, hyperliquidIndexToken } from '../../src/shared/api/feed';
import { FakeHyperliquid, recordedMids } from '../support/fake-hyperliquid';
import { startFeedService, waitForFeed } from '../support/feed-service';
import { DAY, venueFill } from '../support/feed-checks';
import { call, loginCopyUser, tradeBody, type CopyUser } from '../support/copy-session';
import type { RunningService } from '../support/service';

let venue: FakeHyperliquid | null = null;
let service: RunningService | null = null;
const streams: AbortController[] = [];

afterEach(async () => {
  for (const s of streams.splice(0)) s.abort();
  await service?.close();
  await venue?.close();
  service = null;
  venue = null;
});

/** Opens `GET /events` for `token` and collects its frames as they arrive. */
async function openStream(svc: RunningService, token: string) {
  const controller = new AbortController();
  streams.push(controller);
  const res = await fetch(`${svc.url}/events`, {
    headers: { authorization: token },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  const frames: { event: string; data: Record<string, unknown> }[] = [];
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.+)$/m.exec(block)?.[1];
        const data = /^data: (.+)$/m.exec(block)?.[1];
        if (event && data) frames.push({ event, data: JSON.parse(data) as Record<string, unknown> });
      }
    }
  })();
  return frames;
}

const WHALE = getAddress('0x' + 'f1'.repeat(20));
const MARK = 30_000;

async function copyPositions(svc: RunningService, user: CopyUser, status: 'OPEN' | 'CLOSE') {
  const page = await call<{ data: CopyPosition[] }>(svc, 'POST', `/copy-positions/page?status=${status}`, {
    token: user.token,
    body: {},
  });
  expect(page.status).toBe(200);
  return page.body.data;
}

/** A feed following WHALE (an old closed trade in its history), a user, and their copy trade of WHALE. */
async function followedWhale(trade: Record<string, unknown> = {}) {
  venue = await FakeHyperliquid.start();
  venue.setMids({ ...recordedMids(), BTC: String(MARK) });
  const t0 = Date.now() - 3 * DAY;
  venue.setFills(WHALE, [
    venueFill({
      coin: 'BTC',
      px: '29000.0',
      sz: '0.2',
      side: 'B',
      time: t0,
      startPosition: '0.0',
      dir: 'Open Long',
    }),
    venueFill({
      coin: 'BTC',
      px: '29500.0',
      sz: '0.2',
      side: 'A',
      time: t0 + 3_600_000,
      startPosition: '0.2',
      dir: 'Close Long',
      closedPnl: '100.0',
    }),
  ]);
  const svc = await startFeedService(venue);
  service = svc;
  const user = await loginCopyUser(svc);
  const created = await call<{ id: string }>(svc, 'POST', '/copy-trades', {
    token: user.token,
    body: tradeBody(svc, user, {
      protocol: HYPERLIQUID_PROTOCOL,
      account: WHALE,
      volume: 100,
      leverage: 5,
      ...trade,
    }),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const createdAt = Date.now();
  // Followed because of the copy trade (the feed re-reads RUNNING copy trades when they change), backfilled,
  // on the WebSocket, with the mark in.
  const status = await waitForFeed(
    svc,
    (s) =>
      s.state === 'connected' &&
      s.accounts.some((a) => a.account === WHALE && a.backfilled && a.live === 'websocket'),
  );
  const followedAfterMs = Date.now() - createdAt;
  expect(status.accounts).toEqual([expect.objectContaining({ account: WHALE, reasons: ['copy'], fills: 2 })]);
  // The venue streams allMids; the fake sends them when told (its first message may have come before
  // the feed knew the venue's coins).
  venue.pushMids({ ...recordedMids(), BTC: String(MARK) });
  await waitForFeed(svc, () => {
    const mark = svc.service.db
      .prepare('SELECT price FROM mark_prices WHERE index_token = ?')
      .pluck()
      .get(hyperliquidIndexToken('BTC'));
    return mark === MARK;
  });
  return { svc, user, followedAfterMs, tradeId: created.body.id };
}

describe('Hyperliquid feed: copying real traders', () => {
  it('a live fill of a followed account opens a copy position at the mark and pushes its event', async () => {
    const { svc, user, followedAfterMs, tradeId } = await followedWhale();
    // The feed re-reads the copy trades when they change, not at its 5-second refresh.
    expect(followedAfterMs).toBeLessThan(2_500);
    // The history before the copy trade was not copied.
    expect(await copyPositions(svc, user, 'OPEN')).toEqual([]);
    expect(await copyPositions(svc, user, 'CLOSE')).toEqual([]);
    const frames = await openStream(svc, user.token);

    (venue as FakeHyperliquid).pushFill(
      WHALE,
      venueFill({
        coin: 'BTC',
        px: '30010.0',
        sz: '0.5',
        side: 'B',
        time: Date.now(),
        startPosition: '0.0',
        dir: 'Open Long',
      }),
    );
    await waitForFeed(svc, (s) => s.accounts[0]?.fills === 3);
    await expect.poll(() => frames.map((f) => f.event), { timeout: 5_000 }).toContain('copyPositionOpened');
    const open = await copyPositions(svc, user, 'OPEN');
    expect(open).toEqual([
      expect.objectContaining({
        copyTradeId: tradeId,
        copyAccount: WHALE,
        protocol: HYPERLIQUID_PROTOCOL,
        indexToken: hyperliquidIndexToken('BTC'),
        isLong: true,
        status: 'OPEN',
        entryPrice: MARK, // the mark, not the source's fill price
        leverage: 5,
      }),
    ]);
    const opened = frames.find((f) => f.event === 'copyPositionOpened');
    expect(JSON.stringify(opened?.data)).toContain((open[0] as CopyPosition).id);
    // In the user's embedded wallet.
    expect(
      svc.service.db
        .prepare('SELECT copy_wallet_id FROM copy_positions WHERE id = ?')
        .pluck()
        .get((open[0] as CopyPosition).id),
    ).toBe(user.walletId);
  });

  it('an allMids move through the stop loss closes the copy position', async () => {
    const { svc, user } = await followedWhale({
      enableStopLoss: true,
      stopLossType: 'PERCENT',
      stopLossAmount: 10,
    });
    const frames = await openStream(svc, user.token);
    (venue as FakeHyperliquid).pushFill(
      WHALE,
      venueFill({
        coin: 'BTC',
        px: '30010.0',
        sz: '0.5',
        side: 'B',
        time: Date.now(),
        startPosition: '0.0',
        dir: 'Open Long',
      }),
    );
    await expect
      .poll(async () => (await copyPositions(svc, user, 'OPEN')).length, { timeout: 5_000 })
      .toBe(1);
    const [position] = await copyPositions(svc, user, 'OPEN');
    // 10 % of the margin at 5× leverage: a 2 % fall from the entry.
    expect(position?.stopLossPrice).toBeCloseTo(MARK * 0.98, 6);

    // A move that stays above the stop changes nothing.
    (venue as FakeHyperliquid).pushMids({ ...recordedMids(), BTC: String(MARK * 0.985) });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await copyPositions(svc, user, 'OPEN')).toHaveLength(1);
    // Through it: closed by the stop loss.
    (venue as FakeHyperliquid).pushMids({ ...recordedMids(), BTC: String(MARK * 0.97) });
    await expect
      .poll(async () => (await copyPositions(svc, user, 'CLOSE')).length, { timeout: 5_000 })
      .toBe(1);
    expect(await copyPositions(svc, user, 'OPEN')).toEqual([]);
    expect(await copyPositions(svc, user, 'CLOSE')).toEqual([
      expect.objectContaining({ id: position?.id, status: 'CLOSE', closeType: 'STOP_LOSS' }),
    ]);
    await expect.poll(() => frames.map((f) => f.event), { timeout: 5_000 }).toContain('copyPositionClosed');
  });
});
