// Profiles over the real local service (a child process, as the terminal runs it) and a second
// service standing in for a remote deployment: the local profile's own API key, saving and
// switching profiles (each with its own session and cache), refusals, and the local service
// being restarted after it dies.
import keytar from 'keytar';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiKey } from '../../src/service/auth/api-keys';
import { ServiceClient } from '../../src/main/core/client/service-client';
import { staticCredentials } from '../../src/main/core/client/credentials';
import { requireKeychainSession } from '../support/keychain';
import { startTestCore } from '../support/core';
import { coreDriver } from '../support/core-driver';
import { FixtureService } from '../support/fixture-service';

let t: Awaited<ReturnType<typeof startTestCore>>;
let remote: FixtureService;
let remoteKey: string;
const { seen, listen, call, eventAfter } = coreDriver(() => t.core, { timeout: 20_000, interval: 25 });

beforeAll(async () => {
  requireKeychainSession();
  [t, remote] = await Promise.all([startTestCore(), new FixtureService('Second deployment').start()]);
  remoteKey = createApiKey(remote.service!.db, new Date(), 'core test');
  listen();
});
afterAll(async () => {
  await t?.close();
  await remote?.close();
});

type Profiles = { profiles: { id: string; hasApiKey: boolean; baseUrl: string }[]; activeId: string };
type Cached = { freshness: { fromCache: boolean } };

describe('the local profile', () => {
  it('provisions an API key for itself in the keychain, so that search-after works', async () => {
    const key = await vi.waitFor(
      async () => {
        const stored = await keytar.getPassword(t.keychainService, 'apiKey.local');
        if (!stored) throw new Error('no key yet');
        return stored;
      },
      { timeout: 20_000, interval: 100 },
    );
    const client = new ServiceClient(t.core.profile(), { credentials: staticCredentials({ apiKey: key }) });
    expect((await client.searchAfter({ size: 2 })).data).toHaveLength(2);
    const list = await call<Profiles>('profiles:list');
    expect(list).toEqual({
      activeId: 'local',
      profiles: [
        expect.objectContaining({
          id: 'local',
          kind: 'local',
          hasApiKey: true,
          baseUrl: t.core.profile().baseUrl,
        }),
      ],
    });
    expect(JSON.stringify(list)).not.toContain(key);
  });
});

describe('profiles', () => {
  it('saves a remote profile with its API key in the keychain, never handing the key back', async () => {
    const from = seen.length;
    const saved = await call<Profiles>('profiles:save', {
      profile: remote.profile('second'),
      apiKey: remoteKey,
    });
    expect(saved.activeId).toBe('local');
    expect(saved.profiles.map((p) => [p.id, p.hasApiKey])).toEqual([
      ['local', true],
      ['second', true],
    ]);
    expect(await keytar.getPassword(t.keychainService, 'apiKey.second')).toBe(remoteKey);
    expect(await eventAfter(from, 'profile:changed')).toEqual(saved);
    expect(JSON.stringify([saved, seen])).not.toContain(remoteKey);
  });

  it('refuses to save over the local profile', async () => {
    for (const profile of [{ ...remote.profile('local') }, { ...remote.profile('other'), kind: 'local' }]) {
      expect(await t.core.invoke('profiles:save', { profile })).toMatchObject({
        ok: false,
        error: { code: 'VALIDATION_FAILED', message: expect.stringMatching(/managed by Copydesk/) },
      });
    }
  });

  it('switches at once: own client, own session, own cache, with events', async () => {
    await call('wallet:create');
    await call('auth:login');
    const onLocal = await call<Cached>('live:orders', { limit: 5 });
    expect(onLocal.freshness.fromCache).toBe(false);
    expect((await call<Cached>('live:orders', { limit: 5 })).freshness.fromCache).toBe(true);

    const from = seen.length;
    const switched = await call<Profiles>('profiles:switch', { id: 'second' });
    expect(switched.activeId).toBe('second');
    expect(await eventAfter(from, 'profile:changed')).toMatchObject({ activeId: 'second' });
    await eventAfter(
      from,
      'connection:state',
      (p: { profileId: string; state: string }) => p.profileId === 'second' && p.state === 'connecting',
    );
    expect(await eventAfter(from, 'session:changed')).toEqual({ loggedIn: false, session: null });
    expect(await call('app:info')).toMatchObject({
      profile: { id: 'second', kind: 'remote', baseUrl: remote.url, name: 'Second deployment' },
    });
    expect(await call('auth:status')).toEqual({ loggedIn: false, session: null });
    // The same request on this profile has no cached answer: the local one's is not its.
    expect((await call<Cached>('live:orders', { limit: 5 })).freshness.fromCache).toBe(false);
    await eventAfter(
      from,
      'connection:state',
      (p: { profileId: string; state: string }) => p.profileId === 'second' && p.state === 'online',
    );
    // Its API key serves the JWT-or-key reads without a login.
    expect(await call('live:top', { limit: 3 })).toMatchObject({ data: { data: expect.any(Array) } });
    expect(await t.core.invoke('copyTrades:list', {})).toMatchObject({
      ok: false,
      error: { code: 'NOT_LOGGED_IN' },
    });

    const login = await call<{ address: string }>('auth:login');
    expect(await call('auth:status')).toMatchObject({ loggedIn: true, session: { address: login.address } });
    await call('profiles:switch', { id: 'local' });
    // The local session is its own (still logged in from before).
    expect(await call('auth:status')).toMatchObject({ loggedIn: true });
    expect((await call<Cached>('live:orders', { limit: 5 })).freshness.fromCache).toBe(true);
    expect(await call('app:info')).toMatchObject({ profile: { id: 'local', kind: 'local' } });
  });

  it('refuses to delete the local or the active profile, and deletes another with its key', async () => {
    expect(await t.core.invoke('profiles:delete', { id: 'local' })).toMatchObject({
      ok: false,
      error: { code: 'CONFLICT', message: expect.stringMatching(/cannot be deleted/) },
    });
    await call('profiles:switch', { id: 'second' });
    expect(await t.core.invoke('profiles:delete', { id: 'second' })).toMatchObject({
      ok: false,
      error: { code: 'CONFLICT', message: expect.stringMatching(/active profile: switch to another/) },
    });
    expect(await t.core.invoke('profiles:switch', { id: 'nowhere' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    await call('profiles:switch', { id: 'local' });
    expect(await call<Profiles>('profiles:delete', { id: 'second' })).toMatchObject({
      activeId: 'local',
      profiles: [expect.objectContaining({ id: 'local' })],
    });
    expect(await keytar.getPassword(t.keychainService, 'apiKey.second')).toBeNull();
    expect(await keytar.getPassword(t.keychainService, 'session.second')).toBeNull();
    expect(await t.core.invoke('profiles:delete', { id: 'second' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
  });
});

describe('the local service process', () => {
  it('is started again on a new free port when it dies, and the core follows it', async () => {
    const pid = t.core.localServicePid();
    expect(pid).toBeGreaterThan(0);
    const oldUrl = t.core.profile().baseUrl;
    const from = seen.length;
    process.kill(pid!, 'SIGKILL');
    expect(
      await eventAfter(from, 'service:state', (p: { state: string }) => p.state === 'starting'),
    ).toMatchObject({
      message: expect.stringMatching(/The local service stopped \(signal SIGKILL\); restarting it in 1 s/),
    });
    const ready = await eventAfter(from, 'service:state', (p: { state: string }) => p.state === 'ready');
    expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(t.core.localServicePid()).not.toBe(pid);
    expect(t.core.profile().baseUrl).toBe(ready.url);
    if (ready.url === oldUrl) console.warn('the restarted service happened to get the same port');
    expect((await call<Cached>('live:orders', { limit: 6 })).freshness.fromCache).toBe(false);
    expect(await call('auth:status')).toMatchObject({ loggedIn: true });
  });
});
