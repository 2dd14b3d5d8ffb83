// The terminal's data sources through the real core: the local service (a child process) runs the
// Hyperliquid feed against a fake venue on 127.0.0.1 and the fixture world; Settings → Data sources
// restarts it with other flags while the user stays logged in; the feed's status and tracked
// accounts go through the feed channels.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_PRIVATE_KEY } from '../../src/service/fixture/seed';
import type { FeedStatus } from '../../src/shared/api/feed';
import { startTestCore } from '../support/core';
import { coreDriver } from '../support/core-driver';
import { FakeHyperliquid, type LeaderboardRow } from '../support/fake-hyperliquid';
import { generateAccounts, generateFills } from '../support/hyperliquid-fills';
import { requireKeychainSession } from '../support/keychain';
import { venueEnv } from '../support/offline-venue';

const DAY = 86_400_000;
let venue: FakeHyperliquid;
let t: Awaited<ReturnType<typeof startTestCore>>;
const { call, listen } = coreDriver(() => t.core, { timeout: 20_000, interval: 50 });
const [leader, other, added] = generateAccounts(3, 1414) as [string, string, string];

/** A leaderboard file row with volume in every window, so discovery keeps it. */
const row = (ethAddress: string, pnl: number): LeaderboardRow => ({
  ethAddress,
  accountValue: '100000.0',
  displayName: null,
  prize: 0,
  windowPerformances: (['day', 'week', 'month', 'allTime'] as const).map((w) => [
    w,
    { pnl: String(pnl), roi: '0.1', vlm: '250000.0' },
  ]),
});

beforeAll(async () => {
  requireKeychainSession();
  venue = await FakeHyperliquid.start({ pageCap: 100 });
  const now = Date.now();
  [leader, other, added].forEach((account, i) =>
    venue.setFills(
      account,
      generateFills({ account, seed: 7 + i, count: 120, startMs: now - 40 * DAY, endMs: now - 1000 }),
    ),
  );
  venue.setLeaderboard([row(leader, 5000), row(other, 3000)]);
  t = await startTestCore({ serviceEnv: venueEnv(venue) });
  listen();
  await call('wallet:import', { privateKey: DEMO_PRIVATE_KEY });
  await call('auth:login');
});
afterAll(async () => {
  await t?.close();
  await venue?.close();
});

const status = async (): Promise<FeedStatus> => (await call<{ data: FeedStatus }>('feed:status')).data;
const has = (s: FeedStatus, account: string) => s.accounts.find((a) => a.account.toLowerCase() === account);

/** The local service's flags for the data sources (the log folder it is also given is the same every time). */
function sourceFlags(): string[] {
  const args = [...(t.core.localServiceArgs() ?? [])];
  const log = args.indexOf('--log-dir');
  expect(log).toBeGreaterThan(-1);
  expect(args[log + 1]).toMatch(/logs$/);
  return [...args.slice(0, log), ...args.slice(log + 2)];
}

describe('a fresh install', () => {
  it('has both data sources on: the fixture world moves and the feed follows the venue', async () => {
    expect(await call('settings:get')).toMatchObject({ dataSources: { demo: true, hyperliquid: true } });
    expect(sourceFlags()).toEqual(['--live', '--feed', 'hyperliquid']);
    const backfilled = await vi.waitFor(
      async () => {
        const s = await status();
        expect(s.state).not.toBe('off');
        expect(s.accounts.map((a) => a.account.toLowerCase()).sort()).toEqual([leader, other].sort());
        expect(s.accounts.map((a) => [a.backfilled, a.fills])).toEqual([
          [true, 120],
          [true, 120],
        ]);
        return s;
      },
      { timeout: 30_000, interval: 250 },
    );
    expect(has(backfilled, leader)?.reasons).toEqual(['leaderboard']);
    expect(backfilled.budget.weightPerMinute).toBeGreaterThan(0);
  });
});

describe('feed:accounts', () => {
  it('tracks an account the user adds, and stops tracking it', async () => {
    const after = await call<FeedStatus>('feed:accounts', { add: [added] });
    expect(has(after, added)?.reasons).toContain('user');
    await vi.waitFor(async () => expect(has(await status(), added)?.backfilled).toBe(true), {
      timeout: 30_000,
      interval: 250,
    });
    const removed = await call<FeedStatus>('feed:accounts', { remove: [added] });
    expect(has(removed, added)?.reasons ?? []).not.toContain('user');
    await call('feed:accounts', { add: [added] });
  });

  it('refuses what is not an account, naming the field', async () => {
    expect(await t.core.invoke('feed:accounts', { add: ['0x12'] })).toEqual({
      ok: false,
      error: { code: 'VALIDATION_FAILED', message: expect.stringMatching(/add\[0\] must be a 0x address/) },
    });
    expect(await t.core.invoke('feed:accounts', {})).toMatchObject({
      ok: false,
      error: {
        code: 'VALIDATION_FAILED',
        message: expect.stringMatching(/add must be at least one account/),
      },
    });
    expect(await t.core.invoke('feed:accounts', { add: [added], extra: 1 })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_FAILED', message: expect.stringMatching(/extra/) },
    });
  });
});

describe('changing the data sources', () => {
  it('restarts the local service with their flags, on a new port, and the user stays logged in', async () => {
    const before = { pid: t.core.localServicePid(), url: t.core.profile().baseUrl };
    const answer = await call('settings:update', { dataSources: { demo: false } });
    expect(answer).toMatchObject({ dataSources: { demo: false, hyperliquid: true } });
    // Answered once the new service runs: its flags, its process, its port.
    expect(sourceFlags()).toEqual(['--empty', '--feed', 'hyperliquid']);
    expect(t.core.localServicePid()).not.toBe(before.pid);
    await call('tokens:list');
    expect(t.core.profile().baseUrl).not.toBe(before.url);
    // The same database: the session and the user's data are there, the fixture traders too.
    expect(await call('auth:status')).toMatchObject({ loggedIn: true });
    expect(await call('copyTrades:list', {})).toMatchObject({ data: expect.any(Array) });
    // The feed's data and tracked accounts are in the database too.
    const s = await status();
    expect(has(s, added)?.reasons).toContain('user');
    expect(has(s, leader)?.fills).toBe(120);
  });

  it('turns the feed off and on', async () => {
    await call('settings:update', { dataSources: { hyperliquid: false } });
    expect(sourceFlags()).toEqual(['--empty']);
    expect((await status()).state).toBe('off');
    expect(await t.core.invoke('feed:accounts', { add: [added] })).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/turn it on in Settings → Data sources/) },
    });
    await call('settings:update', { dataSources: { demo: true, hyperliquid: true } });
    expect(sourceFlags()).toEqual(['--live', '--feed', 'hyperliquid']);
    await vi.waitFor(async () => expect((await status()).state).not.toBe('off'), { timeout: 10_000 });
    expect(await call('settings:get')).toMatchObject({ dataSources: { demo: true, hyperliquid: true } });
    expect(await call('auth:status')).toMatchObject({ loggedIn: true });
  });

  it('refuses a malformed change, naming the field, and restarts nothing', async () => {
    const pid = t.core.localServicePid();
    expect(await t.core.invoke('settings:update', { dataSources: { demo: 'off' } })).toEqual({
      ok: false,
      error: {
        code: 'VALIDATION_FAILED',
        message: expect.stringMatching(/dataSources\.demo must be true or false/),
      },
    });
    expect(t.core.localServicePid()).toBe(pid);
  });
});
