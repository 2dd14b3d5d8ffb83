// The venue feed's candles (docs/venue-feed.md, Candles) against a fake venue on 127.0.0.1: each
// window fetched once and stored, pages within the venue's cap and the feed's budget, a malformed
// answer refused whole, the stored candles served offline, the candles endpoint and the backtest
// on the venue's candles (a stop the candles show between two orders, missed on fills only).
import { afterEach, describe, expect, it } from 'vitest';
import type { BacktestResponse } from '../../src/shared/api/backtest';
import type { CandlesResponse } from '../../src/shared/api/candles';
import type { BudgetClock } from '../../src/service/venues/hyperliquid/request-budget';
import type { VenueCandles } from '../../src/service/venues/hyperliquid/venue-candles';
import { FakeHyperliquid, type VenueCandle } from '../support/fake-hyperliquid';
import { apiKeyOf, call } from '../support/copy-session';
import { allBackfilled, startFeedService, waitForFeed } from '../support/feed-service';
import { venueFill } from '../support/feed-checks';
import type { RunningService } from '../support/service';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const TRADER = '0x00000000000000000000000000000000000c4a11';

let venue: FakeHyperliquid | null = null;
let service: RunningService | null = null;

afterEach(async () => {
  await service?.close();
  await venue?.close();
  service = null;
  venue = null;
});

/** 1m candles of `coin` opening at each minute of [fromMs, toMs), flat at `price` unless `shape` says. */
function minuteCandles(
  coin: string,
  fromMs: number,
  toMs: number,
  price: number,
  shape: (t: number) => Partial<Pick<VenueCandle, 'o' | 'h' | 'l' | 'c'>> = () => ({}),
): VenueCandle[] {
  const candles: VenueCandle[] = [];
  for (let t = fromMs; t < toMs; t += MINUTE) {
    const p = String(price);
    candles.push({
      t,
      T: t + MINUTE - 1,
      s: coin,
      i: '1m',
      o: p,
      h: p,
      l: p,
      c: p,
      v: '12.5',
      n: 7,
      ...shape(t),
    });
  }
  return candles;
}

/** The opening of the minute `minutes` before the current one (its candle has closed). */
const minutesAgo = (minutes: number) => Math.floor(Date.now() / MINUTE) * MINUTE - minutes * MINUTE;

const candleRequests = () => (venue?.requests ?? []).filter((r) => r.type === 'candleSnapshot');
const storedCount = (coin: string) =>
  (
    service?.service.db.prepare('SELECT count(*) AS n FROM venue_candles WHERE coin = ?').get(coin) as {
      n: number;
    }
  ).n;
const candlesOf = (): VenueCandles => {
  const candles = service?.service.feed?.candles;
  if (!candles) throw new Error('the service has no feed');
  return candles;
};

describe('venue candles: fetched once, stored, within the budget', () => {
  it('fetches a window once, and only the part of a wider window not stored yet', async () => {
    venue = await FakeHyperliquid.start();
    const from = minutesAgo(600);
    venue.setCandles('BTC', minuteCandles('BTC', from - 60 * MINUTE, from + 600 * MINUTE, 30_000));
    service = await startFeedService(venue);

    const first = await candlesOf().ensure('BTC', '1m', from, from + 300 * MINUTE, 10_000);
    expect(first).toEqual({ coin: 'BTC', interval: '1m', state: 'fetched', complete: true });
    expect(storedCount('BTC')).toBe(300);
    const again = await candlesOf().ensure('BTC', '1m', from + 10 * MINUTE, from + 200 * MINUTE, 10_000);
    expect(again.state).toBe('stored');
    expect(candleRequests()).toHaveLength(1);

    // Wider on both sides: two requests, for the two missing parts only.
    const wider = await candlesOf().ensure('BTC', '1m', from - 60 * MINUTE, from + 400 * MINUTE, 10_000);
    expect(wider.state).toBe('fetched');
    const asked = candleRequests().map((r) => (r.body as { req: Record<string, unknown> }).req);
    expect(asked).toEqual([
      { coin: 'BTC', interval: '1m', startTime: from, endTime: from + 300 * MINUTE - 1 },
      { coin: 'BTC', interval: '1m', startTime: from - 60 * MINUTE, endTime: from - 1 },
      { coin: 'BTC', interval: '1m', startTime: from + 300 * MINUTE, endTime: from + 400 * MINUTE - 1 },
    ]);
    expect(storedCount('BTC')).toBe(460);
    const stored = candlesOf().stored('BTC', '1m', from - 60 * MINUTE, from + 400 * MINUTE);
    expect(stored.complete).toBe(true);
    expect(stored.candles[0]).toEqual({
      timeMs: from - 60 * MINUTE,
      open: 30_000,
      high: 30_000,
      low: 30_000,
      close: 30_000,
      volume: 12.5,
      trades: 7,
    });
  });

  it('pages at 5,000 candles and keeps the venue under the budget, counting each page’s weight', async () => {
    const SPEED = 10;
    const start = Date.now();
    const clock: BudgetClock = {
      now: () => start + (Date.now() - start) * SPEED,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms / SPEED)),
    };
    const LIMIT = 250;
    // The clock runs 10 times faster, so 50 ms of network delay is half a second of the venue's minute:
    // its own limit gets a margin over the feed's budget, which the pacing is checked against.
    venue = await FakeHyperliquid.start({ weightPerMinute: LIMIT + 50, nowMs: clock.now });
    const from = minutesAgo(12_000);
    venue.setCandles('ETH', minuteCandles('ETH', from, from + 12_000 * MINUTE, 2_000));
    service = await startFeedService(venue, { weightPerMinute: LIMIT, budgetClock: clock });

    const fetched = await candlesOf().ensure('ETH', '1m', from, from + 12_000 * MINUTE, 30_000);
    expect(fetched.state).toBe('fetched');
    expect(storedCount('ETH')).toBe(12_000);
    const pages = candleRequests();
    expect(pages.map((r) => r.status)).toEqual([200, 200, 200]);
    // The venue's weight: 20 + 1 per 60 candles of each answer (5,000, 5,000, 2,000).
    expect(pages.map((r) => r.weight)).toEqual([103, 103, 53]);
    // 259 with the feed's first request (meta, 20) is more than a minute's 250: the third page
    // waited for the first to leave the minute.
    expect(pages[2]!.atMs - pages[0]!.atMs).toBeGreaterThanOrEqual(MINUTE - 3_000);
    expect(venue.maxWeightInAnyMinute()).toBeLessThanOrEqual(LIMIT + 50);
    expect(service.service.feed?.status().budget.usedLastMinute).toBeGreaterThanOrEqual(53);
  }, 30_000);

  it('stops waiting when the budget holds a fetch back, and the fetch goes on to serve the next ask', async () => {
    const SPEED = 20;
    const start = Date.now();
    const clock: BudgetClock = {
      now: () => start + (Date.now() - start) * SPEED,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms / SPEED)),
    };
    venue = await FakeHyperliquid.start({ weightPerMinute: 1_000, nowMs: clock.now });
    const from = minutesAgo(6_000);
    venue.setCandles('BTC', minuteCandles('BTC', from, from + 5_000 * MINUTE, 30_000));
    venue.setCandles('ETH', minuteCandles('ETH', from, from + 60 * MINUTE, 2_000));
    service = await startFeedService(venue, { weightPerMinute: 130, budgetClock: clock });

    // 5,000 candles weigh 103: with the feed's first request (20), the minute has 7 left.
    const btc = await candlesOf().ensure('BTC', '1m', from, from + 5_000 * MINUTE, 10_000);
    expect(btc.state).toBe('fetched');
    const asked = Date.now();
    const eth = await candlesOf().ensure('ETH', '1m', from, from + 60 * MINUTE, 200);
    expect(Date.now() - asked).toBeLessThan(1_500);
    expect(eth).toMatchObject({ state: 'waiting', complete: false });
    expect(candleRequests()).toHaveLength(1);
    // A minute later (3 s here) the budget lets it go, and its candles are stored.
    for (let i = 0; i < 200 && !candlesOf().stored('ETH', '1m', from, from + 60 * MINUTE).complete; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(candlesOf().stored('ETH', '1m', from, from + 60 * MINUTE).candles).toHaveLength(60);
    expect(candleRequests()).toHaveLength(2);
    expect(candleRequests()[1]!.atMs - candleRequests()[0]!.atMs).toBeGreaterThanOrEqual(MINUTE - 3_000);
  }, 30_000);

  it('refuses a malformed answer whole, and fetches the window again once the venue is right', async () => {
    venue = await FakeHyperliquid.start();
    const from = minutesAgo(120);
    const good = minuteCandles('SOL', from, from + 60 * MINUTE, 20);
    const bad = good.map((c, i) => (i === 30 ? { ...c, h: '19' } : c));
    venue.setCandles('SOL', bad);
    service = await startFeedService(venue);

    const refused = await candlesOf().ensure('SOL', '1m', from, from + 60 * MINUTE, 10_000);
    expect(refused).toMatchObject({ state: 'refused', complete: false });
    expect(refused.message).toMatch(/candle #31: h: the low and high do not hold the open and close/);
    expect(storedCount('SOL')).toBe(0);

    venue.setCandles('SOL', good);
    const fetched = await candlesOf().ensure('SOL', '1m', from, from + 60 * MINUTE, 10_000);
    expect(fetched).toMatchObject({ state: 'fetched', complete: true });
    expect(storedCount('SOL')).toBe(60);
  });

  it('offline: the stored candles serve, and what is not stored says the venue is offline', async () => {
    venue = await FakeHyperliquid.start();
    const from = minutesAgo(240);
    venue.setCandles('BTC', minuteCandles('BTC', from, from + 240 * MINUTE, 30_000));
    service = await startFeedService(venue);
    const key = apiKeyOf(service);
    const candles = (fromMs: number, toMs: number) =>
      call<CandlesResponse>(
        service as RunningService,
        'GET',
        `/prices/HYPERLIQUID/HYPERLIQUID-BTC/candles?from=${fromMs}&to=${toMs}&interval=1m`,
        { headers: { 'x-api-key': key } },
      );
    await waitForFeed(service, () => storedTokens(service as RunningService) > 0);

    const online = await candles(from, from + 60 * MINUTE);
    expect(online.status).toBe(200);
    expect(online.body.source).toBe('venue');
    expect(online.body.venue).toEqual({ state: 'fetched', complete: true });

    venue.setOffline(true);
    const asked = candleRequests().length;
    const stored = await candles(from + 10 * MINUTE, from + 50 * MINUTE);
    expect(stored.body).toMatchObject({ source: 'venue', venue: { state: 'stored', complete: true } });
    expect(stored.body.candles).toHaveLength(40);
    // Half stored, half never fetched: the stored half is served, and the answer says why it stops.
    const half = await candles(from + 30 * MINUTE, from + 90 * MINUTE);
    expect(half.body.source).toBe('venue');
    expect(half.body.venue).toMatchObject({ state: 'offline', complete: false });
    expect(half.body.venue?.message).toMatch(/cannot be reached/);
    expect(half.body.candles.map((c) => c.time)).toEqual(
      Array.from({ length: 30 }, (_, i) => from + (30 + i) * MINUTE),
    );
    // Nothing stored at all: the stored fills (none here), saying the venue is offline.
    const none = await candles(from + 120 * MINUTE, from + 180 * MINUTE);
    expect(none.body).toMatchObject({
      source: 'none',
      candles: [],
      venue: { state: 'offline', complete: false },
    });
    expect(candleRequests()).toHaveLength(asked);
  });
});

/** Tokens the feed listed from the venue's meta (it lists them first thing). */
const storedTokens = (svc: RunningService) =>
  (
    svc.service.db.prepare("SELECT count(*) AS n FROM tokens WHERE protocol = 'HYPERLIQUID'").get() as {
      n: number;
    }
  ).n;

describe('venue candles: the candles endpoint and the backtest', () => {
  it('the endpoint answers the venue’s candles for a Hyperliquid token', async () => {
    venue = await FakeHyperliquid.start();
    const from = minutesAgo(5 * 60);
    const hourly: VenueCandle[] = [0, 1, 2, 3].map((h) => ({
      t: from - (from % HOUR) + h * HOUR,
      T: from - (from % HOUR) + (h + 1) * HOUR - 1,
      s: 'BTC',
      i: '1h',
      o: String(30_000 + h),
      h: String(30_100 + h),
      l: String(29_900 + h),
      c: String(30_050 + h),
      v: '3.5',
      n: 40,
    }));
    venue.setCandles('BTC', hourly);
    service = await startFeedService(venue);
    await waitForFeed(service, () => storedTokens(service as RunningService) > 0);
    const t0 = hourly[0]!.t;
    const res = await call<CandlesResponse>(
      service,
      'GET',
      `/prices/HYPERLIQUID/HYPERLIQUID-BTC/candles?from=${t0}&to=${t0 + 4 * HOUR}&interval=1h`,
      { headers: { 'x-api-key': apiKeyOf(service) } },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      protocol: 'HYPERLIQUID',
      indexToken: 'HYPERLIQUID-BTC',
      interval: '1h',
      source: 'venue',
      venue: { state: 'fetched', complete: true },
      candles: hourly.map((c) => ({
        time: c.t,
        open: Number(c.o),
        high: Number(c.h),
        low: Number(c.l),
        close: Number(c.c),
      })),
    });
  });

  it('a feed trader’s backtest walks the candles: a stop between two orders that the fills miss', async () => {
    venue = await FakeHyperliquid.start();
    const open = minutesAgo(300);
    const close = open + 120 * MINUTE;
    const dip = open + 60 * MINUTE;
    // Long at 100, closed at 101 two hours later; between the two, a minute whose low is 85.
    venue.setFills(TRADER, [
      venueFill({
        coin: 'BTC',
        px: '100',
        sz: '10',
        side: 'B',
        time: open,
        startPosition: '0.0',
        dir: 'Open Long',
      }),
      venueFill({
        coin: 'BTC',
        px: '101',
        sz: '10',
        side: 'A',
        time: close,
        startPosition: '10.0',
        dir: 'Close Long',
        closedPnl: '10.0',
      }),
    ]);
    venue.setCandles(
      'BTC',
      minuteCandles('BTC', open - 60 * MINUTE, open + 240 * MINUTE, 100, (t) =>
        t === dip ? { o: '100', h: '100', l: '85', c: '99' } : t === close ? { h: '101', c: '101' } : {},
      ),
    );
    service = await startFeedService(venue, { track: [TRADER] });
    const key = apiKeyOf(service);
    const backtest = () =>
      call<BacktestResponse>(service as RunningService, 'POST', '/HYPERLIQUID/back-testing/multiple-order', {
        headers: { 'x-api-key': key },
        body: {
          accounts: [TRADER],
          balance: 1_000,
          orderVolume: 100,
          leverage: 5,
          fromTime: open - 30 * MINUTE,
          toTime: close + 30 * MINUTE,
          enableStopLoss: true,
          stopLossType: 'PERCENT',
          stopLossAmount: 50,
        },
      });

    // The trader comes in from the venue; then the venue goes away before any candle is fetched.
    await waitForFeed(service, allBackfilled(1));
    venue.setOffline(true);
    const onFills = await backtest();
    expect(onFills.status).toBe(200);
    expect(onFills.body[0]).toMatchObject({ pricePath: 'fills', totalTrade: 1, totalStopLoss: 0 });
    expect(onFills.body[0]!.profit).toBeGreaterThan(0);

    venue.setOffline(false);
    const onCandles = await backtest();
    expect(onCandles.body[0]).toMatchObject({ pricePath: 'marks', totalTrade: 1, totalStopLoss: 1 });
    expect(onCandles.body[0]!.profit).toBeLessThan(-40);
    // The window's candles came in one request (6 hours of 1m candles), and are not asked again.
    expect(candleRequests()).toHaveLength(1);
    await backtest();
    expect(candleRequests()).toHaveLength(1);
  });
});
