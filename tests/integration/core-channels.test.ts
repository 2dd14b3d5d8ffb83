// Every channel of the terminal (but the statistics ones, tested with their handlers) through
// core.invoke, against the real local service over HTTP with the fixture world, as the demo user
// who owns copy trades. Then the service goes away: reads answer from the cache marked stale,
// writes answer OFFLINE; it comes back and the probe notices. Then the service revokes every
// token and the core signs in again by itself.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_ADDRESS, DEMO_PRIVATE_KEY } from '../../src/service/fixture/seed';
import { requestKey, type Channel } from '../../src/shared';
import { coreDriver } from '../support/core-driver';
import { exchangeOf } from '../../src/shared/profile';
import { requireKeychainSession } from '../support/keychain';
import { FixtureService, startRemoteCore } from '../support/fixture-service';
import { expectAll } from '../support/expect-all';

let remote: FixtureService;
let t: Awaited<ReturnType<typeof startRemoteCore>>;
const { seen, listen, call, eventAfter } = coreDriver(() => t.core, { timeout: 10_000, interval: 20 });

beforeAll(async () => {
  requireKeychainSession();
  remote = await new FixtureService().start();
  t = await startRemoteCore(remote);
  listen();
});
afterAll(async () => {
  await t?.close();
  await remote?.close();
});

interface Page<T> {
  data: { data: T[]; meta: { total: number } };
  freshness: { fromCache: boolean; stale: boolean; fetchedAt: string };
}
type Row = Record<string, unknown>;

// Requests every read channel is asked with; the offline test asks them again.
const reads: [Channel, unknown][] = [];
const read = async <T = Row>(channel: Channel, request: unknown = {}): Promise<T> => {
  reads.push([channel, request]);
  return call<T>(channel, request);
};

let walletId = '';
let embeddedAddress = '';

describe('the core over a real service, as the demo user', () => {
  it('imports the demo wallet and logs in; app:info shows the active profile', async () => {
    await call('wallet:import', { privateKey: DEMO_PRIVATE_KEY });
    expect(await call('auth:login')).toMatchObject({ address: DEMO_ADDRESS });
    expect(await call('app:info')).toMatchObject({
      profile: { id: 'fixture', kind: 'remote', baseUrl: remote.url, name: 'Fixture deployment' },
    });
    // The fixture deployment's tokens, grouped by protocol: NOVA_ARB among them, none empty.
    const { groups } = (await call('tokens:list')) as { groups: { protocol: string; tokens: unknown[] }[] };
    expect(groups.map((g) => g.protocol)).toContain('NOVA_ARB');
    expectAll(groups, (g) => g.tokens.length > 0);
  });

  it('composes the statistics channels: leaderboard, trader pages, pnl series', async () => {
    const board = await read<{ data: { rows: Row[]; origin: string } }>('leaderboard:page', {
      protocols: ['NOVA_ARB'],
      limit: 5,
    });
    expect(board.data.origin).toBe('service');
    expect(board.data.rows).toHaveLength(5);
    const account = board.data.rows[0]!.account as string;
    const trader = { protocol: 'NOVA_ARB', account };
    expect(await read('trader:statistics', trader)).toMatchObject({ data: { FULL: { account } } });
    expect(await read('trader:positions', { ...trader, limit: 5 })).toMatchObject({
      data: { data: expect.any(Array) },
    });
    expect(await read('trader:orders', { ...trader, limit: 5 })).toMatchObject({
      data: { data: expect.any(Array) },
    });
    expect(await read('statistics:pnl', { accounts: [trader] })).toMatchObject({
      data: { [account]: { date: expect.any(Array) } },
    });
    expect(await call('downloads:list')).toEqual([]);
  });

  it('live:top answers the largest open positions, filtered by protocols, side and size', async () => {
    const all = await read<Page<Row>>('live:top', { limit: 50 });
    expect(all.freshness).toMatchObject({ fromCache: false, stale: false });
    expect(all.data.data.length).toBeGreaterThan(0);
    expectAll(all.data.data, (p) => p.status === 'OPEN');
    const sizes = all.data.data.map((p) => p.size as number);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));

    const minSize = sizes[Math.floor(sizes.length / 2)]!;
    const longs = await read<Page<Row>>('live:top', { side: 'LONG', minSize, protocols: ['NOVA_ARB'] });
    expect(longs.data.data.length).toBeGreaterThan(0);
    for (const p of longs.data.data) {
      expect(p).toMatchObject({ isLong: true, protocol: 'NOVA_ARB', status: 'OPEN' });
      expect(p.size).toBeGreaterThanOrEqual(minSize);
    }
    const pair = all.data.data[0]!.pair as string;
    const byPair = await read<Page<Row>>('live:top', { pair });
    expectAll(byPair.data.data, (p) => p.pair === pair);
  });

  it('live:positions and live:orders answer with their filters as GraphQL conditions', async () => {
    const positions = await read<Page<Row>>('live:positions', { side: 'SHORT', limit: 20 });
    expect(positions.data.data.length).toBeGreaterThan(0);
    expectAll(positions.data.data, (p) => p.isLong === false);
    const orders = await read<Page<Row>>('live:orders', {
      protocols: ['NOVA_ARB', 'HELIX_ARB'],
      minSize: 100,
    });
    expect(orders.data.data.length).toBeGreaterThan(0);
    for (const o of orders.data.data) {
      expect(['NOVA_ARB', 'HELIX_ARB']).toContain(o.protocol);
      expect(o.sizeDeltaNumber).toBeGreaterThanOrEqual(100);
    }
  });

  it('answers a cached read at once and pushes the refreshed answer under the key of the request sent', async () => {
    const first = await read<{ data: Row[]; freshness: { fromCache: boolean } }>('copyTrades:list', {});
    expect(first.freshness.fromCache).toBe(false);
    expect(first.data).toHaveLength(3);
    expect(first.data.map((trade) => trade.status).sort()).toEqual(['RUNNING', 'RUNNING', 'STOPPED']);
    const from = seen.length;
    const again = await call<{ data: Row[]; freshness: { fromCache: boolean; stale: boolean } }>(
      'copyTrades:list',
      {},
    );
    expect(again.freshness).toMatchObject({ fromCache: true, stale: false });
    const fresh = await eventAfter(
      from,
      'data:fresh',
      (p: { channel: string }) => p.channel === 'copyTrades:list',
    );
    expect(fresh.key).toBe(requestKey('copyTrades:list', {}));
  });

  it('lists the copy wallets and the embedded wallet', async () => {
    const wallets = await read<{ data: { copyWallets: Row[]; embedded: Row[] } }>('wallets:list');
    expect(wallets.data.embedded).toHaveLength(1);
    const embedded = wallets.data.embedded[0]!;
    walletId = embedded.id as string;
    embeddedAddress = (embedded[remote.service!.config.venue] as { embeddedWallet: string }).embeddedWallet;
    expect(embeddedAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });

  it('creates, updates, stops and restarts a copy trade', async () => {
    const created = await call<Row>('copyTrades:create', {
      title: 'Core test trade',
      volume: 50,
      account: '0x1111111111111111111111111111111111111111',
      leverage: 5,
      protocol: 'NOVA_ARB',
      exchange: exchangeOf(remote.service!.config.venue),
      copyWalletId: walletId,
      type: 'COPY_TRADER',
      excludingTokenAddresses: [],
      tokenAddresses: [],
    });
    expect(created).toMatchObject({ title: 'Core test trade', status: 'RUNNING' });
    const updated = await call<Row>('copyTrades:update', { id: created.id, changes: { title: 'Renamed' } });
    expect(updated).toMatchObject({ id: created.id, title: 'Renamed', volume: 50 });
    expect(await call('copyTrades:setStatus', { id: created.id, status: 'STOPPED' })).toMatchObject({
      status: 'STOPPED',
    });
    // The write dropped the cached list: the next read asks the service and sees the change.
    const list = await call<{ data: Row[]; freshness: { fromCache: boolean } }>('copyTrades:list', {});
    expect(list.freshness.fromCache).toBe(false);
    expect(list.data.find((trade) => trade.id === created.id)).toMatchObject({ status: 'STOPPED' });
    expect(
      await t.core.invoke('copyTrades:update', { id: 'no-such-trade', changes: { title: 'x' } }),
    ).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
  });

  it('pages copy positions, lists their orders, closes one and unlinks another, with copy:activity events', async () => {
    const open = await read<Page<Row>>('copyPositions:page', { query: { status: 'OPEN', limit: 10 } });
    expect(open.data.data).toHaveLength(2);
    const both = await read<Page<Row>>('copyPositions:page', {
      query: { status: 'OPEN,CLOSE', isLong: 'true' },
    });
    expectAll(both.data.data, (p) => p.isLong === true);
    const [first, second] = open.data.data as [Row, Row];
    const orders = await read<{ data: Row[] }>('copyPositions:orders', { id: first.id });
    expect(orders.data.length).toBeGreaterThan(0);

    const from = seen.length;
    expect(await call('copyPositions:close', { id: first.id })).toMatchObject({
      id: first.id,
      status: 'CLOSE',
    });
    const activity = await eventAfter(
      from,
      'copy:activity',
      (p: { kind: string; action: string }) => p.kind === 'copyPosition' && p.action === 'closed',
    );
    expect(activity).toMatchObject({ data: { id: first.id, status: 'CLOSE' }, at: expect.any(String) });
    expect(await call('copyPositions:unlink', { id: second.id })).toMatchObject({
      id: second.id,
      closeType: 'FORCE_CLOSE',
    });
    expect(await t.core.invoke('copyPositions:close', { id: first.id })).toMatchObject({
      ok: false,
      error: { code: 'CONFLICT' },
    });
  });

  it('pages activity logs', async () => {
    const logs = await read<Page<Row>>('activityLogs:page', { pagination: { limit: 5, offset: 0 } });
    expect(logs.data.data.length).toBeGreaterThan(0);
    expect(logs.data.meta.total).toBeGreaterThanOrEqual(logs.data.data.length);
  });

  it('previews a withdrawal with the service fees, and says what is wrong with an amount', async () => {
    const preview = await call<Row>('withdraw:preview', { sourceAddress: embeddedAddress, amount: 10 });
    expect(preview).toMatchObject({
      amount: 10,
      feeAmount: 1,
      transferFee: 1,
      withdrawFee: 1,
      withdrawAmount: 8,
      receiveAmount: 7,
      minimum: 8,
      problem: null,
      feeSource: 'service',
    });
    expect(preview.availableBalance).toBeGreaterThan(10);
    const low = await call<Row>('withdraw:preview', { sourceAddress: embeddedAddress, amount: 7.5 });
    expect(low.problem).toMatch(/at least the minimum withdrawal 8/);
    const high = await call<Row>('withdraw:preview', { sourceAddress: embeddedAddress, amount: 1e9 });
    expect(high.problem).toMatch(/exceeds the available balance/);
    const elsewhere = await call<Row>('withdraw:preview', {
      sourceAddress: '0x2222222222222222222222222222222222222222',
      amount: 10,
    });
    expect(elsewhere.problem).toMatch(/not one of your embedded wallets/);
  });

  it('withdraws with an idempotency key, records it, and lists it per profile', async () => {
    const before = await call<Row>('withdraw:preview', { sourceAddress: embeddedAddress, amount: 10 });
    const from = seen.length;
    const record = await call<Row>('withdraw:submit', {
      sourceAddress: embeddedAddress,
      destinationAddress: '0x3333333333333333333333333333333333333333',
      amount: 10,
    });
    expect(record).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'SUCCESSFUL',
      sourceAddress: embeddedAddress,
      transferFee: 1,
      withdrawFee: 1,
      data: { amount: 10, receiveAmount: 7 },
    });
    await eventAfter(from, 'copy:activity', (p: { kind: string }) => p.kind === 'withdrawal');
    const list = await read<{ data: Row[]; freshness: { stale: boolean } }>('withdrawals:list');
    expect(list.data.map((w) => w.id)).toEqual([record.id]);
    const after = await call<Row>('withdraw:preview', { sourceAddress: embeddedAddress, amount: 10 });
    expect(after.availableBalance).toBeCloseTo((before.availableBalance as number) - 10, 6);
  });

  it('keeps settings with their defaults, and enforces the cache limit', async () => {
    const dataSources = { demo: true, hyperliquid: true };
    expect(await call('settings:get')).toEqual({
      theme: 'system',
      notifications: false,
      cacheLimitMb: 512,
      dataSources,
    });
    expect(await call('settings:update', { theme: 'light', notifications: true })).toEqual({
      theme: 'light',
      notifications: true,
      cacheLimitMb: 512,
      dataSources,
    });
    const stats = await call<Row>('cache:stats');
    expect(stats).toMatchObject({ limitBytes: 512 * 1024 * 1024, path: join(t.dataDir, 'cache') });
    expect(stats.entries).toBeGreaterThan(5);
    expect(await t.core.invoke('settings:update', { cacheLimitMb: 1 })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_FAILED', message: 'cacheLimitMb must be at least 16' },
    });
    expect(await call('settings:get')).toMatchObject({ theme: 'light', cacheLimitMb: 512 });
  });

  it('exports a table as RFC 4180 CSV into the exports folder, under a unique name', async () => {
    const request = {
      suggestedName: 'positions.csv',
      columns: ['trader', 'note', 'pnl', 'open'],
      rows: [
        ['0xabc', 'has, a comma', 12.5, true],
        ['0xdef', 'says "hi"\nand more', -3, false],
        ['0x123', null, 0, null],
      ],
    };
    const first = await call<{ path: string; rows: number }>('export:csv', request);
    expect(first).toEqual({ path: join(t.dataDir, 'exports', 'positions.csv'), rows: 3 });
    // A UTF-8 byte-order mark first, so that spreadsheets read non-ASCII text.
    expect(readFileSync(first.path, 'utf8')).toBe(
      '\uFEFFtrader,note,pnl,open\r\n' +
        '0xabc,"has, a comma",12.5,true\r\n' +
        '0xdef,"says ""hi""\nand more",-3,false\r\n' +
        '0x123,,0,\r\n',
    );
    const second = await call<{ path: string }>('export:csv', request);
    expect(second.path).toBe(join(t.dataDir, 'exports', 'positions (2).csv'));
    expect(await t.core.invoke('export:csv', { ...request, rows: [['only one']] })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_FAILED', message: 'rows[0] must have 4 cells, one per column' },
    });
  });

  it('reports progress while exporting a large table', async () => {
    const from = seen.length;
    const rows = Array.from({ length: 5000 }, (_, i) => [i, `row ${i}`]);
    expect(
      await call('export:csv', { suggestedName: 'big.csv', columns: ['n', 'label'], rows }),
    ).toMatchObject({
      rows: 5000,
    });
    const progress = seen
      .slice(from)
      .filter((e) => e.event === 'export:progress')
      .map((e) => e.payload);
    expect(progress[0]).toEqual({ done: 0, total: 5000 });
    expect(progress.at(-1)).toEqual({ done: 5000, total: 5000 });
  });
});

describe('offline', () => {
  // Service writes: each must fail with OFFLINE and change nothing.
  const writes: [Channel, () => unknown][] = [
    [
      'copyTrades:create',
      () => ({
        title: 'Offline trade',
        volume: 50,
        account: '0x1111111111111111111111111111111111111111',
        leverage: 5,
        protocol: 'NOVA_ARB',
        exchange: exchangeOf(remote.service?.config.venue ?? 'perpx'),
        copyWalletId: walletId,
        type: 'COPY_TRADER',
        excludingTokenAddresses: [],
        tokenAddresses: [],
      }),
    ],
    ['copyTrades:update', () => ({ id: 'any', changes: { title: 'x' } })],
    ['copyTrades:setStatus', () => ({ id: 'any', status: 'STOPPED' })],
    ['copyPositions:close', () => ({ id: 'any' })],
    ['copyPositions:unlink', () => ({ id: 'any' })],
    [
      'withdraw:submit',
      () => ({
        sourceAddress: embeddedAddress,
        destinationAddress: '0x3333333333333333333333333333333333333333',
        amount: 10,
      }),
    ],
  ];

  it('answers every read from the cache marked stale, and every write OFFLINE, while the service is gone', async () => {
    // Writes dropped some answers from the cache: read everything once more while online.
    for (const [channel, request] of reads) await call(channel, request);
    await call('withdraw:preview', { sourceAddress: embeddedAddress, amount: 10 });
    const from = seen.length;
    await remote.stop();
    // The first read still answers from the cache; its refresh finds the service gone.
    await call('copyTrades:list', {});
    await eventAfter(from, 'connection:state', (p: { state: string }) => p.state === 'offline');

    for (const [channel, request] of reads) {
      const answer = await call<{ freshness: { stale: boolean; fromCache: boolean } }>(channel, request);
      expect(answer.freshness, `${channel} ${JSON.stringify(request)}`).toMatchObject({
        stale: true,
        fromCache: true,
      });
    }
    expect(await call('tokens:list')).toMatchObject({ groups: expect.any(Array) });
    // The preview answers from the cached balance and fees.
    expect(await call('withdraw:preview', { sourceAddress: embeddedAddress, amount: 10 })).toMatchObject({
      feeSource: 'service',
      problem: null,
    });
    // Nothing cached for this one: a clear OFFLINE.
    expect(await t.core.invoke('live:top', { limit: 7 })).toMatchObject({
      ok: false,
      error: { code: 'OFFLINE', message: expect.stringMatching(/not been cached yet/) },
    });

    for (const [channel, request] of writes) {
      expect(await t.core.invoke(channel, request()), channel).toMatchObject({
        ok: false,
        error: { code: 'OFFLINE', message: expect.stringMatching(/is offline; nothing was changed/) },
      });
    }
  });

  it('notices the service came back, and answers fresh again', async () => {
    const from = seen.length;
    await remote.start();
    await eventAfter(from, 'connection:state', (p: { state: string }) => p.state === 'online');
    const list = await call<{ freshness: { stale: boolean } }>('copyTrades:list', {});
    expect(list.freshness.stale).toBe(false);
    // The offline writes changed nothing.
    const trades = await call<{ data: Row[] }>('copyTrades:list', { status: 'RUNNING' });
    expect(trades.data.length, 'the running trades are listed').toBeGreaterThan(0);
    expect(trades.data.some((trade) => trade.title === 'Offline trade')).toBe(false);
    // The event stream is back too: the service has a subscriber, and its events arrive.
    const subscribers = () =>
      (remote.service!.ctx.events as unknown as { listeners: Map<string, Set<unknown>> }).listeners;
    await vi.waitFor(() => expect(subscribers().size).toBe(1), { timeout: 5_000 });
    const at = seen.length;
    await call('withdraw:submit', {
      sourceAddress: embeddedAddress,
      destinationAddress: '0x3333333333333333333333333333333333333333',
      amount: 9,
    });
    await eventAfter(at, 'copy:activity', (p: { kind: string }) => p.kind === 'withdrawal');
    expect((await call<{ data: Row[] }>('withdrawals:list')).data).toHaveLength(2);
  });
});

describe('re-login', () => {
  it('signs in again with the wallet when the service refuses the token, and retries the call', async () => {
    const before = (await call<{ session: { loggedInAt: string } }>('auth:status')).session.loggedInAt;
    // Revoking every token: the service signs and checks them with a new secret from now on.
    remote.service!.ctx.secret = `rotated-${Date.now()}-secret-of-some-length`;
    const from = seen.length;
    const preview = await call<Row>('withdraw:preview', { sourceAddress: embeddedAddress, amount: 10 });
    expect(preview.problem).toBeNull();
    const changed = await eventAfter(from, 'session:changed', (p: { loggedIn: boolean }) => p.loggedIn);
    expect((changed.session as { loggedInAt: string }).loggedInAt).not.toBe(before);
    // A write refused for its token is sent again too, once.
    remote.service!.ctx.secret = `rotated-again-${Date.now()}-secret-of-some-length`;
    const trades = (await call<{ data: Row[] }>('copyTrades:list', { status: 'STOPPED' })).data;
    expect(await call('copyTrades:setStatus', { id: trades[0]!.id, status: 'STOPPED' })).toMatchObject({
      status: 'STOPPED',
    });
  });

  it('clears the cache on request and reports it empty', async () => {
    const before = await call<{ bytes: number }>('cache:stats');
    const after = await call<{ bytes: number }>('cache:clear');
    expect(after).toMatchObject({ entries: 0, datasets: 0, datasetRecords: 0 });
    // What stays is the datasets file's own empty pages.
    expect(after.bytes).toBeLessThan(before.bytes);
  });
});
