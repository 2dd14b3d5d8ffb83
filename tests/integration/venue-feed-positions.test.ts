// The Hyperliquid feed's fills → positions: a flip closes one position and opens the other, and the
// venue's closedPnl agrees with our realised PnL on generated histories (the recorded 2023 account,
// fill by fill: venue-feed-closed-pnl.test.ts).
import { getAddress } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { HYPERLIQUID_PROTOCOL, hyperliquidIndexToken } from '../../src/shared/api/feed';
import { toUnits, unitsToNumber } from '../../src/service/positions/units';
import type { ServiceDb } from '../../src/service/store/database';
import { FakeHyperliquid, recordedFills, type VenueFill } from '../support/fake-hyperliquid';
import { generateFills } from '../support/hyperliquid-fills';
import { allBackfilled, startFeedService, waitForFeed } from '../support/feed-service';
import {
  DAY,
  byCoin,
  fillsOf,
  ordersOf,
  positionsOf,
  venueFill,
  venueFillKeys,
} from '../support/feed-checks';
import type { RunningService } from '../support/service';

let venue: FakeHyperliquid | null = null;
let service: RunningService | null = null;

afterEach(async () => {
  await service?.close();
  await venue?.close();
  service = null;
  venue = null;
});

const close = (value: number) => expect.closeTo(value, 9);

describe('Hyperliquid feed: a flip fill', () => {
  it('closes one position and opens the other at the fill, by backfill and live', async () => {
    const account = getAddress('0x' + 'a1'.repeat(20));
    const t0 = Date.now() - 2 * DAY;
    venue = await FakeHyperliquid.start();
    venue.setFills(account, [
      venueFill({
        coin: 'BTC',
        px: '30000.0',
        sz: '0.5',
        side: 'B',
        time: t0,
        startPosition: '0.0',
        dir: 'Open Long',
        fee: '5.25',
      }),
      venueFill({
        coin: 'BTC',
        px: '31000.0',
        sz: '1.25',
        side: 'A',
        time: t0 + 60_000,
        startPosition: '0.5',
        dir: 'Long > Short',
        closedPnl: '500.0',
        fee: '13.5625',
      }),
    ]);
    service = await startFeedService(venue, { track: [account] });
    const db = service.service.db;
    await waitForFeed(
      service,
      (s) => s.accounts[0]?.backfilled === true && s.accounts[0].live === 'websocket',
    );

    const token = hyperliquidIndexToken('BTC');
    expect(positionsOf(db, account)).toEqual([
      expect.objectContaining({
        index_token: token,
        is_long: 1,
        status: 'CLOSE',
        open_time_ms: t0,
        close_time_ms: t0 + 60_000,
        size: close(15_000),
        size_in_token: 0,
        average_price: close(30_000),
        realised_pnl: close(500),
        // The flip's fee is split by tokens: 0.5 of 1.25 closes.
        fee: close(5.25 + 5.425),
        order_count: 2,
      }),
      expect.objectContaining({
        index_token: token,
        is_long: 0,
        status: 'OPEN',
        open_time_ms: t0 + 60_000,
        close_time_ms: null,
        size: close(23_250),
        size_in_token: close(0.75),
        average_price: close(31_000),
        realised_pnl: 0,
        fee: close(8.1375),
        order_count: 1,
      }),
    ]);
    const orders = () =>
      ordersOf(db, account).map((o) => [
        o.is_long,
        o.type,
        o.size_delta_in_token,
        o.size_in_token,
        o.price,
        o.realised_pnl,
      ]);
    expect(orders()).toEqual([
      [1, 'OPEN', 0.5, 0.5, 30_000, 0],
      [1, 'CLOSE', 0.5, 0, 31_000, close(500)],
      [0, 'OPEN', 0.75, 0.75, 31_000, 0],
    ]);

    // Live, by WebSocket: the short flips back to a long.
    const t1 = Date.now();
    venue.pushFill(
      account,
      venueFill({
        coin: 'BTC',
        px: '30500.0',
        sz: '2.0',
        side: 'B',
        time: t1,
        startPosition: '-0.75',
        dir: 'Short > Long',
        closedPnl: '375.0',
      }),
    );
    await waitForFeed(service, (s) => s.accounts[0]?.fills === 3);
    expect(orders().slice(3)).toEqual([
      [0, 'CLOSE', 0.75, 0, 30_500, close(375)],
      [1, 'OPEN', 1.25, 1.25, 30_500, 0],
    ]);
    const positions = positionsOf(db, account);
    expect(
      positions.map((p) => [p.is_long, p.status, p.open_time_ms, p.close_time_ms, p.size_in_token]),
    ).toEqual([
      [1, 'CLOSE', t0, t0 + 60_000, 0],
      [0, 'CLOSE', t0 + 60_000, t1, 0],
      [1, 'OPEN', t1, null, 1.25],
    ]);
    expect(positions[1]?.realised_pnl).toBeCloseTo(375, 9);
    expect(positions[2]?.average_price).toBe(30_500);
  });
});

/** Each closing order with the closedPnl the venue reported for its fill (found by the fill's seq). */
function closingOrders(db: ServiceDb, account: string, venueFills: readonly VenueFill[]) {
  const owner = getAddress(account);
  const keys = venueFillKeys(owner, venueFills);
  const venueByKey = new Map(venueFills.map((f, i) => [keys[i] as string, f]));
  const rows = db
    .prepare(
      `SELECT o.position_id, o.type, o.realised_pnl, f.key, f.closed_pnl FROM orders o
       JOIN fills f ON f.seq = o.log_id AND f.account = o.account AND f.protocol = o.protocol
       WHERE o.account = ? AND o.protocol = ? AND o.type IN ('DECREASE', 'CLOSE')`,
    )
    .all(owner, HYPERLIQUID_PROTOCOL) as {
    position_id: string;
    type: string;
    realised_pnl: number;
    key: string;
    closed_pnl: number;
  }[];
  return rows.map((r) => {
    const fill = venueByKey.get(r.key);
    if (!fill) throw new Error(`stored fill ${r.key} is not one of the venue's`);
    return { ...r, fill };
  });
}

/** The venue's position in each coin after its last fill: the last millisecond's start plus its fills. */
function venuePositions(fills: readonly VenueFill[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const [coin, series] of byCoin(fills)) {
    const lastTime = (series.at(-1) as VenueFill).time;
    const last = series.filter((f) => f.time === lastTime);
    let units = toUnits((last[0] as VenueFill).startPosition);
    for (const f of last) units += (f.side === 'B' ? 1n : -1n) * toUnits(f.sz);
    out.set(coin, unitsToNumber(units));
  }
  return out;
}

/** Our net position in each coin: the open position's signed size, or 0. */
function ourPositions(db: ServiceDb, account: string, coins: Iterable<string>): Map<string, number> {
  const open = positionsOf(db, account).filter((p) => p.status === 'OPEN');
  return new Map(
    [...coins].map((coin) => {
      const p = open.find((row) => row.index_token === hyperliquidIndexToken(coin));
      return [coin, p ? (p.is_long ? p.size_in_token : -p.size_in_token) : 0];
    }),
  );
}

describe('Hyperliquid feed: closedPnl beside our realised PnL', () => {
  it('agree on every closing fill of generated histories, with and without tid', async () => {
    venue = await FakeHyperliquid.start({ pageCap: 50 });
    const now = Date.now();
    const accounts = ['0x' + 'b1'.repeat(20), '0x' + 'b2'.repeat(20)];
    const histories = accounts.map((account, i) =>
      generateFills({
        account,
        seed: 500 + i,
        count: 300,
        startMs: now - 20 * DAY,
        endMs: now - 1000,
        flipShare: 0.2,
        withTid: i === 0,
      }),
    );
    accounts.forEach((a, i) => venue?.setFills(a, histories[i] as VenueFill[]));
    service = await startFeedService(venue, { track: accounts });
    await waitForFeed(service, allBackfilled(2));
    const db = service.service.db;
    for (const [i, account] of accounts.entries()) {
      const history = histories[i] as VenueFill[];
      expect(history.some((f) => f.dir.includes('>'))).toBe(true);
      const closing = closingOrders(db, account, history);
      expect(closing.length).toBeGreaterThan(50);
      expect(closing.some((c) => c.fill.dir.includes('>'))).toBe(true);
      for (const c of closing) {
        expect(c.closed_pnl).toBe(Number(c.fill.closedPnl));
        // The venue writes closedPnl to 6 decimals.
        expect(c.realised_pnl, `${c.fill.dir} ${c.key}`).toBeCloseTo(Number(c.fill.closedPnl), 5);
      }
      // Every position's realised PnL is the sum of its closing fills' closedPnl.
      const venueSum = new Map<string, number>();
      for (const c of closing)
        venueSum.set(c.position_id, (venueSum.get(c.position_id) ?? 0) + Number(c.fill.closedPnl));
      const positions = positionsOf(db, account);
      expect(positions.length).toBeGreaterThan(10);
      for (const p of positions) expect(p.realised_pnl).toBeCloseTo(venueSum.get(p.id) ?? 0, 4);
      expect(ourPositions(db, account, byCoin(history).keys())).toEqual(venuePositions(history));
    }
  });

  it('a history that starts inside a position is followed from where the venue position crosses zero', async () => {
    venue = await FakeHyperliquid.start({ pageCap: 50 });
    const now = Date.now();
    const account = '0x' + 'b3'.repeat(20);
    const whole = generateFills({
      account,
      seed: 77,
      count: 400,
      startMs: now - 20 * DAY,
      endMs: now - 1000,
      flipShare: 0.2,
      coins: ['ETH', 'SOL'],
    });
    // The venue's reach ends inside positions: its first fills are gone.
    const history = whole.slice(57);
    const firsts = [...byCoin(history).values()].map((series) =>
      Number((series[0] as VenueFill).startPosition),
    );
    expect(firsts.filter((start) => start !== 0).length).toBeGreaterThan(0);
    venue.setFills(account, history);
    service = await startFeedService(venue, { track: [account] });
    await waitForFeed(service, allBackfilled(1));
    const db = service.service.db;
    expect(fillsOf(db, account)).toHaveLength(history.length);
    expect(ourPositions(db, account, ['ETH', 'SOL'])).toEqual(venuePositions(history));
    const closing = closingOrders(db, account, history);
    expect(closing.length).toBeGreaterThan(50);
    for (const c of closing)
      expect(c.realised_pnl, `${c.fill.dir} ${c.key}`).toBeCloseTo(Number(c.fill.closedPnl), 5);
    // The fills before the first crossing made no position: the first one opens where the venue's does.
    for (const [coin, series] of byCoin(history)) {
      const start = Number((series[0] as VenueFill).startPosition);
      if (start === 0) continue;
      const crossing = series.find((f) => {
        const end = Number(f.startPosition) + (f.side === 'B' ? 1 : -1) * Number(f.sz);
        return (
          Number(f.startPosition) !== 0 &&
          (end === 0 || Math.sign(end) !== Math.sign(Number(f.startPosition)))
        );
      }) as VenueFill;
      const first = positionsOf(db, account).find((p) => p.index_token === hyperliquidIndexToken(coin));
      expect(first?.open_time_ms).toBeGreaterThanOrEqual(crossing.time);
    }
  });

  it('the recorded 2023 account (newest-first pages, no tid): stored closedPnl and positions as the venue has them', async () => {
    const { account, fills } = recordedFills();
    venue = await FakeHyperliquid.start({ pageCap: 40, pageOrder: 'newest-first' });
    venue.setFills(account, fills);
    service = await startFeedService(venue, { track: [account] });
    await waitForFeed(service, allBackfilled(1));
    const db = service.service.db;
    const stored = fillsOf(db, account);
    expect(stored).toHaveLength(fills.length);
    const owner = getAddress(account);
    const byKey = new Map(stored.map((f) => [f.key, f]));
    const keys = venueFillKeys(owner, fills);
    for (const [i, f] of fills.entries()) {
      const row = byKey.get(keys[i] as string);
      expect(row?.key, `${f.hash} ${f.time}`).toBe(keys[i]);
      expect(row?.closed_pnl).toBe(Number(f.closedPnl));
      expect(row?.start_position).toBe(f.startPosition);
    }
    // Every coin's history starts inside a position (no fill has startPosition 0): our positions
    // follow the venue's from the first crossing of zero, and end where the venue's do.
    const coins = byCoin(fills);
    expect(coins.size).toBe(15);
    expect(ourPositions(db, account, coins.keys())).toEqual(venuePositions(fills));
    const closing = closingOrders(db, account, fills);
    expect(closing.length).toBeGreaterThan(100);
  });
});
