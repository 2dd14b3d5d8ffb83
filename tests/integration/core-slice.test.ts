import keytar from 'keytar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WALLET_KEY_ACCOUNT } from '../../src/main/core/wallet/wallet';
import { channelNames, eventNames } from '../../src/shared';
import { requireKeychainSession } from '../support/keychain';
import { startTestCore } from '../support/core';
import { expectAll } from '../support/expect-all';

let t: Awaited<ReturnType<typeof startTestCore>>;
const seen: unknown[] = [];

beforeAll(async () => {
  requireKeychainSession();
  t = await startTestCore();
  t.core.events.onAny((event, payload) => seen.push({ event, payload }), eventNames);
});
afterAll(() => t.close());

describe('the core end to end: wallet → login → tokens, over the real local service', () => {
  it('reports the local service ready', () => {
    expect(t.core.events.latest('service:state')).toMatchObject({
      state: 'ready',
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    });
  });

  it('refuses to log in without a wallet, in words', async () => {
    expect(await t.core.invoke('auth:login', {})).toEqual({
      ok: false,
      error: { code: 'NO_WALLET', message: expect.stringMatching(/Create or import a wallet first/) },
    });
  });

  it('creates a wallet, logs in by signing on the device, and lists tokens', async () => {
    const created = await t.core.invoke('wallet:create', {});
    expect(created).toMatchObject({ ok: true, value: { hasWallet: true } });
    const address = (created as { value: { address: string } }).value.address;

    const login = await t.core.invoke('auth:login', {});
    expect(login).toMatchObject({ ok: true, value: { address, role: 'user', copyTradeQuota: 5 } });
    expect(await t.core.invoke('auth:status', {})).toMatchObject({ ok: true, value: { loggedIn: true } });
    expect(seen).toContainEqual({
      event: 'session:changed',
      payload: expect.objectContaining({ loggedIn: true }),
    });

    const tokens = await t.core.invoke('tokens:list', {});
    expect(tokens.ok).toBe(true);
    const groups = (tokens as { value: { groups: { protocol: string; tokens: unknown[] }[] } }).value.groups;
    expect(groups.length).toBeGreaterThanOrEqual(8);
    expectAll(groups, (g) => g.tokens.length > 0);
  });

  it('never lets the private key reach anything the renderer can receive', async () => {
    const key = (await keytar.getPassword(t.keychainService, WALLET_KEY_ACCOUNT))!;
    expect(key).toMatch(/^0x[0-9a-f]{64}$/);
    const answers = [];
    for (const channel of channelNames) answers.push(await t.core.invoke(channel, {}));
    const everything = JSON.stringify([answers, seen]).toLowerCase();
    expect(everything).not.toContain(key.slice(2).toLowerCase());
    // The access token stays in the core too.
    expect(everything).not.toMatch(/eyj[\w-]+\.[\w-]+\.[\w-]+/);
  });

  it('answers bad input with a validation error naming the field, and changes nothing', async () => {
    const before = await t.core.invoke('wallet:status', {});
    expect(await t.core.invoke('wallet:import', { privateKey: 'xyz' })).toEqual({
      ok: false,
      error: { code: 'VALIDATION_FAILED', message: 'privateKey must be 64 hex digits, with or without 0x' },
    });
    expect(await t.core.invoke('wallet:create', { extra: 1 })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_FAILED', message: expect.stringContaining('extra') },
    });
    expect(await t.core.invoke('wallet:delete', {})).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_FAILED', message: 'address is required' },
    });
    expect(await t.core.invoke('no:such', {})).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_CHANNEL' },
    });
    expect(await t.core.invoke('wallet:status', {})).toEqual(before);
  });

  it('logs out, and the wallet delete also ends the session', async () => {
    expect(await t.core.invoke('auth:logout', {})).toEqual({
      ok: true,
      value: { loggedIn: false, session: null },
    });
    await t.core.invoke('auth:login', {});
    const { value } = (await t.core.invoke('wallet:status', {})) as { value: { address: string } };
    expect(await t.core.invoke('wallet:delete', { address: value.address })).toEqual({
      ok: true,
      value: { hasWallet: false, address: null },
    });
    expect(await t.core.invoke('auth:status', {})).toEqual({
      ok: true,
      value: { loggedIn: false, session: null },
    });
  });
});

describe('the core while its local service starts', () => {
  it('answers at once, and calls that need the service wait for it', async () => {
    const { startCore } = await import('../../src/main/core/core');
    const { isolatedKeychain } = await import('../support/keychain');
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dataDir = mkdtempSync(join(tmpdir(), 'copydesk-core-'));
    const core = await startCore({
      dataDir,
      shell: 'web',
      secrets: isolatedKeychain().store,
      appVersion: 't',
      ephemeralKeychain: true,
      world: 'fixture',
    });
    try {
      // Not awaited: the first call simply waits until the service answers.
      const tokens = await core.invoke('tokens:list', {});
      expect(tokens).toMatchObject({ ok: true });
      expect(core.profile().baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await core.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('says so in words when the local service cannot start', async () => {
    const { startCore } = await import('../../src/main/core/core');
    const { isolatedKeychain } = await import('../support/keychain');
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dataDir = mkdtempSync(join(tmpdir(), 'copydesk-core-'));
    // A file where the service's folder should be: its database cannot be created.
    writeFileSync(join(dataDir, 'service'), 'not a folder');
    const core = await startCore({
      dataDir,
      shell: 'web',
      secrets: isolatedKeychain().store,
      appVersion: 't',
      ephemeralKeychain: true,
      world: 'empty',
    });
    const answer = await core.invoke('tokens:list', {});
    expect(answer).toMatchObject({
      ok: false,
      error: { code: 'OFFLINE', message: expect.stringMatching(/The local service did not start/) },
    });
    expect(core.events.latest('service:state')).toMatchObject({ state: 'failed' });
    await core.close();
  });
});
