import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import keytar from 'keytar';
import { recoverMessageAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, describe, expect, it } from 'vitest';
import { WALLET_KEY_ACCOUNT, Wallet } from '../../src/main/core/wallet/wallet';
import { CoreError } from '../../src/main/core/errors';
import { isolatedKeychain, requireKeychainSession } from '../support/keychain';

const run = promisify(execFile);
beforeAll(requireKeychainSession);

describe('KeytarSecretStore on the real OS keychain', () => {
  it('sets, gets and deletes an item', async () => {
    const { store, service } = isolatedKeychain();
    expect(await store.get('k')).toBeNull();
    await store.set('k', 'secret value');
    expect(await store.get('k')).toBe('secret value');
    expect(await keytar.getPassword(service, 'k')).toBe('secret value');
    expect(await store.delete('k')).toBe(true);
    expect(await store.get('k')).toBeNull();
  });

  const probe = async (command: string, args: string[], env: NodeJS.ProcessEnv) => {
    const { stdout } = await run(command, args, { env, cwd: process.cwd(), timeout: 20_000 });
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as {
      ok: boolean;
      name?: string;
      message?: string;
    };
  };

  it('names the cause when there is no D-Bus session, and stores nothing elsewhere', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.DBUS_SESSION_BUS_ADDRESS;
    delete env.DISPLAY;
    const result = await probe(process.execPath, ['--import', 'tsx', 'tests/support/keychain-probe.ts'], env);
    expect(result.ok).toBe(false);
    expect(result.name).toBe('KeychainUnavailableError');
    expect(result.message).toMatch(/OS keychain is not reachable: there is no D-Bus session/);
  });

  it('names the cause when the keychain is locked', async () => {
    // A fresh D-Bus session whose gnome-keyring is started by activation and never unlocked.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      XDG_DATA_HOME: mkdtempSync(join(tmpdir(), 'copydesk-locked-')),
    };
    delete env.DBUS_SESSION_BUS_ADDRESS;
    const result = await probe(
      'dbus-run-session',
      ['--', process.execPath, '--import', 'tsx', 'tests/support/keychain-probe.ts'],
      env,
    );
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/OS keychain is locked/);
  });
});

describe('Wallet', () => {
  it('creates a key in the keychain, signs with it, and refuses to overwrite it', async () => {
    const { store, service } = isolatedKeychain();
    const wallet = new Wallet(store);
    expect(await wallet.status()).toEqual({ hasWallet: false, address: null });
    const created = await wallet.create();
    expect(created.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const key = await keytar.getPassword(service, WALLET_KEY_ACCOUNT);
    expect(privateKeyToAccount(key as `0x${string}`).address).toBe(created.address);

    const { address, signature } = await wallet.signMessage('I want to login on X at T. Login code: 123456');
    expect(address).toBe(created.address);
    expect(
      await recoverMessageAddress({ message: 'I want to login on X at T. Login code: 123456', signature }),
    ).toBe(created.address);

    await expect(wallet.create()).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await keytar.getPassword(service, WALLET_KEY_ACCOUNT)).toBe(key);
    // A new Wallet over the same keychain finds the same address (survives a restart).
    expect(await new Wallet(store).status()).toEqual(created);
  });

  it('imports a key with or without 0x and finds its address', async () => {
    const key = generatePrivateKey();
    const expected = privateKeyToAccount(key).address;
    const a = new Wallet(isolatedKeychain().store);
    expect(await a.import(key)).toEqual({ hasWallet: true, address: expected });
    const b = new Wallet(isolatedKeychain().store);
    expect(await b.import(key.slice(2).toUpperCase())).toEqual({ hasWallet: true, address: expected });
  });

  it('refuses an invalid key without echoing it', async () => {
    const wallet = new Wallet(isolatedKeychain().store);
    const bad = '0x' + '0'.repeat(64); // not a valid secp256k1 scalar
    const error = (await wallet.import(bad).catch((e: unknown) => e)) as CoreError;
    expect(error).toBeInstanceOf(CoreError);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).not.toContain('0'.repeat(64));
    expect(await wallet.status()).toEqual({ hasWallet: false, address: null });
  });

  it('deletes only when the address is typed back', async () => {
    const { store, service } = isolatedKeychain();
    const wallet = new Wallet(store);
    const { address } = await wallet.create();
    await expect(wallet.delete('0x' + '1'.repeat(40))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await keytar.getPassword(service, WALLET_KEY_ACCOUNT)).not.toBeNull();
    expect(await wallet.delete(address!.toLowerCase())).toEqual({ hasWallet: false, address: null });
    expect(await keytar.getPassword(service, WALLET_KEY_ACCOUNT)).toBeNull();
    await expect(wallet.signMessage('x')).rejects.toMatchObject({ code: 'NO_WALLET' });
  });
});
