// The saved session is read back from the keychain when the terminal starts (session.ts). These
// run the SessionManager over a keychain whose reads are slow or fail, as under load at startup.
import { describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../../../src/main/core/client/service-client';
import { KeychainUnavailableError, type SecretStore } from '../../../../src/main/core/secrets/secret-store';
import { SessionManager, sessionAccount } from '../../../../src/main/core/session';
import { Wallet } from '../../../../src/main/core/wallet/wallet';

const ADDRESS_KEY = `0x${'11'.repeat(32)}`;

/** A keychain in memory whose reads wait for `release()` and can be told to fail. */
class SlowKeychain implements SecretStore {
  readonly items = new Map<string, string>();
  failReads = 0;
  private waiting: (() => void)[] = [];
  held = false;

  async get(account: string): Promise<string | null> {
    if (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve));
    if (this.failReads > 0) {
      this.failReads -= 1;
      throw new KeychainUnavailableError('The OS keychain refused the operation: D-Bus timeout');
    }
    return this.items.get(account) ?? null;
  }
  async set(account: string, value: string): Promise<void> {
    this.items.set(account, value);
  }
  async delete(account: string): Promise<boolean> {
    return this.items.delete(account);
  }
  release(): void {
    this.held = false;
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}

/** A JWT-shaped token that expires in a week (the core reads `exp` only). */
function token(): string {
  const payload = Buffer.from(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + 7 * 86_400 })).toString(
    'base64url',
  );
  return `e30.${payload}.sig`;
}

async function savedSession(keychain: SlowKeychain): Promise<SessionManager> {
  const wallet = new Wallet(keychain);
  const { address } = await wallet.import(ADDRESS_KEY);
  const session = {
    address: address!,
    userId: 'u1',
    role: 'user',
    copyTradeQuota: 5,
    plan: 0,
    referralCode: 'R',
    loggedInAt: '2026-11-21T00:00:00.000Z',
  };
  keychain.items.set(sessionAccount('local'), JSON.stringify({ token: token(), session }));
  // A fresh manager over the same keychain, as after a restart; its wallet has read nothing yet.
  const noClient = async (): Promise<ServiceClient> => {
    throw new Error('no service in this test');
  };
  return new SessionManager('local', noClient, new Wallet(keychain), keychain);
}

describe('restoring the saved session', () => {
  it('answers every caller that arrives during a slow keychain read with the restored session', async () => {
    const keychain = new SlowKeychain();
    const manager = await savedSession(keychain);
    keychain.held = true;
    const first = manager.status();
    const second = manager.status();
    const third = manager.currentToken();
    keychain.release();
    await expect(first).resolves.toMatchObject({ loggedIn: true });
    await expect(second).resolves.toMatchObject({ loggedIn: true });
    await expect(third).resolves.toMatch(/^e30\./);
  });

  it('keeps the saved session when the keychain fails a read, and restores it on the next call', async () => {
    const keychain = new SlowKeychain();
    const manager = await savedSession(keychain);
    keychain.failReads = 1;
    await expect(manager.status()).rejects.toBeInstanceOf(KeychainUnavailableError);
    expect(keychain.items.has(sessionAccount('local'))).toBe(true);
    await expect(manager.status()).resolves.toMatchObject({ loggedIn: true });
  });

  it('drops a saved value that is not a session', async () => {
    const keychain = new SlowKeychain();
    const manager = await savedSession(keychain);
    keychain.items.set(sessionAccount('local'), '{"token": 3}');
    await expect(manager.status()).resolves.toEqual({ loggedIn: false, session: null });
    expect(keychain.items.has(sessionAccount('local'))).toBe(false);
  });
});
