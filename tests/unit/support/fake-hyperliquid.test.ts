// The fake Hyperliquid venue and its fill generator, checked on their own: the feed's tests and
// benchmark trust them, so a fake that pages, limits or tells a position's story wrongly would make
// those tests prove nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { expectAll } from '../../support/expect-all';
import {
  FakeHyperliquid,
  infoWeight,
  recordedFills,
  recordedMeta,
  recordedMids,
  type FakeHyperliquidOptions,
  type VenueFill,
} from '../../support/fake-hyperliquid';
import {
  FEE_RATE,
  generateAccounts,
  generateFills,
  leaderboardRowsFor,
} from '../../support/hyperliquid-fills';

const START = Date.UTC(2024, 0, 1);
const END = START + 30 * 86_400_000;
const ACCOUNT = '0x1111111111111111111111111111111111111111';

let venue: FakeHyperliquid | undefined;
afterEach(async () => {
  await venue?.close();
  venue = undefined;
});

async function startVenue(options: FakeHyperliquidOptions = {}): Promise<FakeHyperliquid> {
  venue = await FakeHyperliquid.start(options);
  return venue;
}

async function info(fake: FakeHyperliquid, body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${fake.baseUrl}/info`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  const json = response.headers.get('content-type') === 'application/json';
  return { status: response.status, body: json ? JSON.parse(text) : text };
}

/** A size as an integer of 10^-decimals, exactly (the strings must be exact decimals). */
function units(text: string, decimals: number): number {
  const [whole = '', fraction = ''] = text.replace('-', '').split('.');
  expect(fraction.replace(/0+$/, '').length).toBeLessThanOrEqual(Math.max(decimals, 0));
  const value =
    Number(whole) * 10 ** decimals + Number(fraction.padEnd(decimals, '0').slice(0, decimals) || '0');
  return text.startsWith('-') ? -value : value;
}

describe('generateFills', () => {
  const options = { account: ACCOUNT, seed: 42, count: 3_000, startMs: START, endMs: END, flipShare: 0.1 };

  it('gives the same fills for the same seed, and others for another', () => {
    expect(generateFills(options)).toEqual(generateFills(options));
    expect(generateFills({ ...options, seed: 43 })).not.toEqual(generateFills(options));
  });

  it("tells each coin's position story as the venue does", () => {
    const fills = generateFills(options);
    const decimals = new Map(recordedMeta().universe.map((asset) => [asset.name, asset.szDecimals]));
    const books = new Map<string, { units: number; average: number }>();
    const dirs = new Set<string>();
    expect(fills).toHaveLength(3_000);
    fills.forEach((fill, index) => {
      const d = decimals.get(fill.coin) as number;
      const book = books.get(fill.coin) ?? { units: 0, average: 0 };
      books.set(fill.coin, book);
      const size = units(fill.sz, d);
      const start = units(fill.startPosition, d);
      expect(size).toBeGreaterThan(0);
      expect(start).toBe(book.units);
      const price = Number(fill.px);
      const opening = start === 0 || start > 0 === (fill.side === 'B');
      const closed = opening ? 0 : Math.min(size, Math.abs(start));
      const expectedDir = opening
        ? fill.side === 'B'
          ? 'Open Long'
          : 'Open Short'
        : size > Math.abs(start)
          ? start > 0
            ? 'Long > Short'
            : 'Short > Long'
          : start > 0
            ? 'Close Long'
            : 'Close Short';
      expect(fill.dir).toBe(expectedDir);
      dirs.add(fill.dir);
      const realised = ((price - book.average) * closed * Math.sign(start)) / 10 ** d;
      expect(Number(fill.closedPnl)).toBeCloseTo(realised, 5);
      expect(Number(fill.fee)).toBeCloseTo(((price * size) / 10 ** d) * FEE_RATE, 5);
      if (opening) book.average = (book.average * Math.abs(start) + price * size) / (Math.abs(start) + size);
      else if (size > Math.abs(start)) book.average = price;
      book.units = start + (fill.side === 'B' ? size : -size);
      expect(fill.time).toBeGreaterThan(START);
      expect(fill.time).toBeLessThan(END);
      expect(fill.hash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(Number.isSafeInteger(fill.oid)).toBe(true);
      expect(fill.feeToken).toBe('USDC');
      const previous = fills[index - 1];
      if (previous) {
        expect(fill.time).toBeGreaterThanOrEqual(previous.time);
        expect(fill.tid as number).toBeGreaterThan(previous.tid as number);
      }
    });
    expect([...dirs].sort()).toEqual(
      ['Close Long', 'Close Short', 'Long > Short', 'Open Long', 'Open Short', 'Short > Long'].sort(),
    );
  });

  it('fills one order against several makers: one time, hash and oid', () => {
    const fills = generateFills(options);
    const legs = new Map<string, VenueFill[]>();
    for (const fill of fills) legs.set(fill.hash, [...(legs.get(fill.hash) ?? []), fill]);
    const multi = [...legs.values()].filter((group) => group.length > 1);
    expect(multi.length).toBeGreaterThan(50);
    for (const group of multi) {
      expect(new Set(group.map((fill) => `${fill.time}/${fill.oid}/${fill.coin}/${fill.side}`)).size).toBe(1);
    }
  });

  it("writes the 2023 shape without tid and feeToken on request, and the chosen coins' sizes", () => {
    const fills = generateFills({ ...options, count: 200, withTid: false, coins: ['BTC', 'DOGE'] });
    expect(Object.keys(fills[0] as VenueFill).sort()).toEqual(
      Object.keys(recordedFills().fills[0] as VenueFill).sort(),
    );
    expect(new Set(fills.map((fill) => fill.coin))).toEqual(new Set(['BTC', 'DOGE']));
    for (const fill of fills.filter((f) => f.coin === 'DOGE')) expect(fill.sz).toMatch(/^\d+\.0$/);
  });

  it('makes distinct addresses and leaderboard rows in the venue shape', () => {
    const accounts = generateAccounts(50, 1);
    expect(new Set(accounts).size).toBe(50);
    for (const account of accounts) expect(account).toMatch(/^0x[0-9a-f]{40}$/);
    const rows = leaderboardRowsFor(accounts, 1);
    expect(rows.map((row) => row.ethAddress)).toEqual(accounts);
    expect(rows[0]?.windowPerformances.map(([name]) => name)).toEqual(['day', 'week', 'month', 'allTime']);
    expect(rows.some((row) => row.windowPerformances[2]?.[1].vlm === '0.0')).toBe(true);
  });
});

describe('the info API', () => {
  it('answers userFills as recorded: the most recent fills, newest first, execution order inside a millisecond', async () => {
    const fake = await startVenue({ pageCap: 500 });
    const { account, fills } = recordedFills();
    // Given newest first, as recorded: ties keep the given order, which is execution order.
    fake.setFills(account.toUpperCase().replace('0X', '0x'), fills);
    expect(await info(fake, { type: 'userFills', user: account })).toEqual({ status: 200, body: fills });
    // A smaller cap keeps the latest executions, even when it cuts a millisecond.
    fake.pageCap = 10;
    const latest = [...fills].sort((a, b) => a.time - b.time).slice(-10);
    const page = (await info(fake, { type: 'userFills', user: account })).body;
    expect(page).toEqual(latest.sort((a, b) => b.time - a.time));
  });

  it('pages userFillsByTime forward from the largest time, repeating the fills of a shared millisecond', async () => {
    for (const pageOrder of ['oldest-first', 'newest-first'] as const) {
      const fake = await startVenue({ pageCap: 7, pageOrder });
      const history = generateFills({
        account: ACCOUNT,
        seed: 5,
        count: 300,
        startMs: START,
        endMs: START + 600,
      });
      fake.setFills(ACCOUNT, history);
      const seen = new Map<number, VenueFill>();
      let startTime = 0;
      let repeated = 0;
      for (;;) {
        const page = (await info(fake, { type: 'userFillsByTime', user: ACCOUNT, startTime }))
          .body as VenueFill[];
        const times = page.map((fill) => fill.time);
        expect(times).toEqual([...times].sort((a, b) => (pageOrder === 'oldest-first' ? a - b : b - a)));
        for (const fill of page) {
          if (seen.has(fill.tid as number)) repeated += 1;
          seen.set(fill.tid as number, fill);
        }
        if (page.length < 7) break;
        startTime = Math.max(...times);
      }
      expect(repeated).toBeGreaterThan(0);
      expect([...seen.values()].sort((a, b) => (a.tid as number) - (b.tid as number))).toEqual(history);
      await fake.close();
    }
    venue = undefined;
  });

  it('bounds userFillsByTime by an inclusive endTime', async () => {
    const fake = await startVenue();
    const history = generateFills({ account: ACCOUNT, seed: 6, count: 100, startMs: START, endMs: END });
    fake.setFills(ACCOUNT, history);
    const [from, to] = [history[10] as VenueFill, history[60] as VenueFill];
    const page = await info(fake, {
      type: 'userFillsByTime',
      user: ACCOUNT,
      startTime: from.time,
      endTime: to.time,
    });
    expect(page.body).toEqual(history.filter((fill) => fill.time >= from.time && fill.time <= to.time));
  });

  it('serves meta, mids, contexts, clearinghouse state, candles, funding and the leaderboard', async () => {
    const fake = await startVenue();
    expect((await info(fake, { type: 'meta' })).body).toEqual(recordedMeta());
    expect((await info(fake, { type: 'allMids' })).body).toEqual(recordedMids());
    const [meta, contexts] = (await info(fake, { type: 'metaAndAssetCtxs' })).body as [
      unknown,
      { markPx: string }[],
    ];
    expect(meta).toEqual(recordedMeta());
    expect(contexts[0]?.markPx).toBe(recordedMids().BTC);
    const state = (await info(fake, { type: 'clearinghouseState', user: ACCOUNT })).body;
    expect(state).toMatchObject({ assetPositions: [], withdrawable: '0.0' });
    const candles = await info(fake, {
      type: 'candleSnapshot',
      req: { coin: 'kPEPE', interval: '1h', startTime: 1684702007000, endTime: 1684784807000 },
    });
    expect(candles.body).toHaveLength(23);
    expect((await info(fake, { type: 'userFunding', user: ACCOUNT, startTime: 0 })).body).toEqual([]);
    fake.setLeaderboard(leaderboardRowsFor([ACCOUNT], 2));
    const board = (await (await fetch(fake.leaderboardUrl)).json()) as { leaderboardRows: unknown[] };
    expect(board.leaderboardRows).toHaveLength(1);
  });

  it('answers 422 with a text body to an unknown type or a bad body, charging the base weight', async () => {
    const fake = await startVenue();
    for (const body of [
      { type: 'nope' },
      { type: 'userFills' },
      { type: 'userFillsByTime', user: ACCOUNT },
      '{',
    ]) {
      const answer = await info(fake, body);
      expect(answer.status).toBe(422);
      expect(answer.body).toMatch(/^Failed to deserialize/);
    }
    expect(fake.requests.map((request) => request.weight)).toEqual([20, 20, 20, 20]);
  });

  it('replaces the next fills pages by a malformed one, then serves the real ones', async () => {
    const fake = await startVenue();
    fake.setFills(
      ACCOUNT,
      generateFills({ account: ACCOUNT, seed: 7, count: 5, startMs: START, endMs: END }),
    );
    fake.malformNext(ACCOUNT, (page) => page.map((fill) => ({ ...fill, px: 'abc' })), 2);
    for (let i = 0; i < 2; i += 1) {
      const page = (await info(fake, { type: 'userFills', user: ACCOUNT })).body as VenueFill[];
      expect(page.map((fill) => fill.px)).toEqual(Array(5).fill('abc'));
    }
    const page = (await info(fake, { type: 'userFills', user: ACCOUNT })).body as VenueFill[];
    expectAll(page, (fill) => fill.px !== 'abc');
    expectAll(fake.fillsOf(ACCOUNT), (fill) => fill.px !== 'abc');
  });
});

describe('the weight limit and faults', () => {
  it('answers 429 past the weight per minute, charges refused requests their base weight, and forgets after 60 s', async () => {
    let now = 1_000_000;
    const fake = await startVenue({ weightPerMinute: 100, nowMs: () => now });
    for (let i = 0; i < 50; i += 1) expect((await info(fake, { type: 'allMids' })).status).toBe(200);
    expect((await info(fake, { type: 'allMids' })).status).toBe(429);
    expect(fake.requests.at(-1)).toMatchObject({ type: 'allMids', weight: 2, status: 429 });
    expect(fake.maxWeightInAnyMinute()).toBe(102);
    now += 60_000;
    expect((await info(fake, { type: 'meta' })).status).toBe(200);
  });

  it('weighs a fills page by what it holds', async () => {
    const fake = await startVenue();
    fake.setFills(
      ACCOUNT,
      generateFills({ account: ACCOUNT, seed: 8, count: 2_500, startMs: START, endMs: END }),
    );
    await info(fake, { type: 'userFills', user: ACCOUNT });
    expect(fake.requests[0]).toMatchObject({ type: 'userFills', user: ACCOUNT, weight: 120, status: 200 });
    expect(infoWeight('clearinghouseState')).toBe(2);
    expect(infoWeight('candleSnapshot', 130)).toBe(22);
    expect(infoWeight('userRole')).toBe(60);
  });

  it('fails the next requests on demand, and resets connections while offline', async () => {
    const fake = await startVenue();
    fake.failNext(2, 500);
    expect((await info(fake, { type: 'meta' })).status).toBe(500);
    expect((await info(fake, { type: 'meta' })).status).toBe(500);
    expect((await info(fake, { type: 'meta' })).status).toBe(200);
    fake.setOffline(true);
    await expect(info(fake, { type: 'meta' })).rejects.toThrow();
    fake.setOffline(false);
    expect((await info(fake, { type: 'meta' })).status).toBe(200);
  });
});

/** A WebSocket client that queues what it receives. */
async function connect(fake: FakeHyperliquid) {
  const socket = new WebSocket(fake.wsUrl);
  const inbox: unknown[] = [];
  const waiting: ((message: unknown) => void)[] = [];
  socket.on('message', (data: Buffer) => {
    const message: unknown = JSON.parse(data.toString('utf8'));
    const wake = waiting.shift();
    if (wake) wake(message);
    else inbox.push(message);
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return {
    socket,
    send: (message: unknown) => socket.send(JSON.stringify(message)),
    next: () =>
      inbox.length > 0
        ? Promise.resolve(inbox.shift())
        : new Promise<unknown>((resolve) => waiting.push(resolve)),
  };
}

describe('the WebSocket', () => {
  it('acknowledges a userFills subscription, sends a snapshot, then pushed fills', async () => {
    const fake = await startVenue({ pageCap: 3 });
    const history = generateFills({ account: ACCOUNT, seed: 9, count: 10, startMs: START, endMs: END });
    fake.setFills(ACCOUNT, history.slice(0, 8));
    const client = await connect(fake);
    const subscription = { type: 'userFills', user: ACCOUNT };
    client.send({ method: 'subscribe', subscription });
    expect(await client.next()).toEqual({
      channel: 'subscriptionResponse',
      data: { method: 'subscribe', subscription },
    });
    const snapshot = (await client.next()) as { data: { isSnapshot: boolean; fills: VenueFill[] } };
    expect(snapshot.data.isSnapshot).toBe(true);
    expect(snapshot.data.fills.map((fill) => fill.tid)).toEqual(
      history
        .slice(5, 8)
        .sort((a, b) => b.time - a.time) // newest first, execution order inside a millisecond
        .map((f) => f.tid),
    );
    fake.pushFill(ACCOUNT, ...history.slice(8));
    expect(await client.next()).toEqual({
      channel: 'userFills',
      data: { user: ACCOUNT, isSnapshot: false, fills: history.slice(8) },
    });
    expect(fake.fillsOf(ACCOUNT)).toEqual(history);
    expect(fake.subscriptions()).toEqual([subscription]);
  });

  it('sends mids, answers ping, unsubscribes, and refuses an eleventh user', async () => {
    const fake = await startVenue();
    const client = await connect(fake);
    client.send({ method: 'subscribe', subscription: { type: 'allMids' } });
    await client.next();
    expect(await client.next()).toEqual({ channel: 'allMids', data: { mids: recordedMids() } });
    fake.pushMids({ BTC: '1.0' });
    expect(await client.next()).toEqual({ channel: 'allMids', data: { mids: { BTC: '1.0' } } });
    client.send({ method: 'ping' });
    expect(await client.next()).toEqual({ channel: 'pong' });
    for (const user of generateAccounts(10, 3)) {
      client.send({ method: 'subscribe', subscription: { type: 'userFills', user } });
      await client.next();
      await client.next();
    }
    client.send({ method: 'subscribe', subscription: { type: 'userFills', user: ACCOUNT } });
    expect(await client.next()).toMatchObject({ channel: 'error' });
    client.send({ method: 'unsubscribe', subscription: { type: 'allMids' } });
    expect(await client.next()).toMatchObject({ data: { method: 'unsubscribe' } });
    expect(fake.subscriptions()).toHaveLength(10);
    expect(fake.wsMessagesReceived).toHaveLength(14);
  });

  it('drops connections on demand and refuses them while offline', async () => {
    const fake = await startVenue();
    const client = await connect(fake);
    const closed = new Promise((resolve) => client.socket.once('close', resolve));
    client.send({ method: 'subscribe', subscription: { type: 'allMids' } });
    await client.next();
    fake.dropWebSockets();
    expect(fake.subscriptions()).toEqual([]);
    expect(await closed).toBe(1006);
    fake.setOffline(true);
    await expect(connect(fake)).rejects.toThrow();
    fake.setOffline(false);
    await connect(fake);
  });
});
