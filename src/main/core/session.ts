import { loginMessage } from '../../shared/api/auth';
import type { AuthStatus, Session } from '../../shared/ipc/contract';
import type { ServiceClient } from './client/service-client';
import type { SecretStore } from './secrets/secret-store';
import type { Wallet } from './wallet/wallet';
import { CoreError } from './errors';

/** The keychain item of a profile's session (token and user). */
export const sessionAccount = (profileId: string): string => `session.${profileId}`;

/**
 * The login to one profile's service: sign the service's message on the device, keep the token
 * in memory and in the keychain (so a restart stays logged in), never hand it to the renderer.
 */
export class SessionManager {
  private session: Session | null = null;
  private token: string | null = null;
  /** True once the saved session was read, or a login or logout made it moot. */
  private restored = false;
  /** The read of the saved session under way, shared by every caller that needs it. */
  private restoring: Promise<void> | null = null;
  private renewing: Promise<string | null> | null = null;
  private readonly listeners = new Set<(status: AuthStatus) => void>();

  constructor(
    private readonly profileId: string,
    private readonly client: () => Promise<ServiceClient>,
    private readonly wallet: Wallet,
    private readonly secrets: SecretStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private get tokenAccount(): string {
    return sessionAccount(this.profileId);
  }

  /** Calls `listener` after each login, re-login or logout; returns the unsubscribe function. */
  onChange(listener: (status: AuthStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Logged in or not, as the renderer may see it. */
  async status(): Promise<AuthStatus> {
    await this.restoreOnce();
    return { loggedIn: this.session !== null, session: this.session };
  }

  /** Logs in by signing the service's login message with the wallet. */
  async login(): Promise<Session> {
    const { address } = await this.wallet.status();
    if (address === null)
      throw new CoreError('NO_WALLET', 'Create or import a wallet first: logging in signs with it.');
    const client = await this.client();
    const verifyCode = await client.login(address);
    const time = this.now().toISOString();
    const message = loginMessage(client.profile.serviceName, time, verifyCode);
    const { address: signer, signature } = await this.wallet.signMessage(message);
    const user = await client.verifyLogin({ address: signer, sign: signature, time });
    this.token = user.access_token;
    this.session = {
      address: signer,
      userId: user.id,
      role: user.role,
      copyTradeQuota: user.copyTradeQuota,
      plan: user.plan,
      referralCode: user.referralCode,
      loggedInAt: time,
    };
    this.restored = true;
    await this.secrets.set(this.tokenAccount, JSON.stringify({ token: this.token, session: this.session }));
    this.announce();
    return this.session;
  }

  /**
   * Signs in again after the service refused the token (expired or revoked), once for all the
   * calls that were refused together. Resolves with the new token, or null when there is no
   * session to renew or the new login failed (the session is then ended here too).
   */
  renew(): Promise<string | null> {
    this.renewing ??= (async () => {
      try {
        await this.restoreOnce();
        // Only a session the user opened is renewed; a logged-out user stays logged out.
        if (this.session === null) return null;
        await this.login();
        return this.token;
      } catch (error) {
        console.error(
          `[copydesk core] signing in again to ${this.profileId} failed: ${(error as Error).message}`,
        );
        // The service refused the new login (or the wallet is gone): the session is over. When
        // it merely could not be reached, the session stays for when it comes back.
        const unreachable =
          error instanceof CoreError && (error.code === 'OFFLINE' || error.code === 'TIMEOUT');
        if (!unreachable) await this.logout().catch(() => undefined);
        return null;
      } finally {
        this.renewing = null;
      }
    })();
    return this.renewing;
  }

  /** Forgets the token here and in the keychain. */
  async logout(): Promise<AuthStatus> {
    const had = this.session !== null;
    this.token = null;
    this.session = null;
    this.restored = true;
    await this.secrets.delete(this.tokenAccount);
    if (had) this.announce();
    return { loggedIn: false, session: null };
  }

  /** The token for authenticated calls, or null when logged out (as known in memory). */
  accessToken(): string | null {
    return this.token;
  }

  /** The token for authenticated calls, restoring a saved session first; null when logged out. */
  async currentToken(): Promise<string | null> {
    await this.restoreOnce();
    return this.token;
  }

  private announce(): void {
    const status: AuthStatus = { loggedIn: this.session !== null, session: this.session };
    for (const listener of this.listeners) listener(status);
  }

  /**
   * Reads the saved session once. Callers that arrive while it is being read wait for that read:
   * answering them "logged out" meanwhile (as a plain flag did) showed a restored session as
   * logged out on a slow start. A read the keychain failed is tried again by the next caller.
   */
  private restoreOnce(): Promise<void> {
    if (this.restored) return Promise.resolve();
    this.restoring ??= this.restore().finally(() => {
      this.restoring = null;
    });
    return this.restoring;
  }

  private async restore(): Promise<void> {
    const saved = await this.secrets.get(this.tokenAccount);
    const { address } = await this.wallet.status();
    // A login or logout while the keychain was read decided the session already.
    if (this.restored) return;
    this.restored = true;
    if (!saved) return;
    let parsed: { token: string; session: Session };
    try {
      parsed = JSON.parse(saved) as { token: string; session: Session };
      if (typeof parsed.token !== 'string' || typeof parsed.session?.address !== 'string')
        throw new Error('not a saved session');
    } catch {
      // Not a session this terminal wrote: it can never be used.
      return void (await this.secrets.delete(this.tokenAccount));
    }
    if (tokenExpired(parsed.token, this.now())) return void (await this.secrets.delete(this.tokenAccount));
    // A token of another wallet (deleted and replaced since) is not this user's session.
    if (address?.toLowerCase() !== parsed.session.address.toLowerCase()) return;
    this.token = parsed.token;
    this.session = parsed.session;
  }
}

/** Reads a JWT's `exp` without verifying it: the service verifies; the client only avoids stale ones. */
function tokenExpired(token: string, now: Date): boolean {
  const payload = token.split('.')[1];
  if (!payload) return true;
  try {
    const { exp } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: number };
    return typeof exp === 'number' && exp * 1000 <= now.getTime();
  } catch {
    return true;
  }
}
