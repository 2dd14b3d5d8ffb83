import { loginMessage } from '../../shared/api/auth';
import type { AuthStatus, Session } from '../../shared/ipc/contract';
import type { ServiceClient } from './client/service-client';
import type { SecretStore } from './secrets/secret-store';
import type { Wallet } from './wallet/wallet';
import { CoreError } from './errors';

/**
 * The login to one profile's service: sign the service's message on the device, keep the token
 * in memory and in the keychain (so a restart stays logged in), never hand it to the renderer.
 */
export class SessionManager {
  private session: Session | null = null;
  private token: string | null = null;

  constructor(
    private readonly profileId: string,
    private readonly client: () => Promise<ServiceClient>,
    private readonly wallet: Wallet,
    private readonly secrets: SecretStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private get tokenAccount(): string {
    return `session.${this.profileId}`;
  }

  /** Logged in or not, as the renderer may see it. */
  async status(): Promise<AuthStatus> {
    if (this.session === null) await this.restore();
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
    await this.secrets.set(this.tokenAccount, JSON.stringify({ token: this.token, session: this.session }));
    return this.session;
  }

  /** Forgets the token here and in the keychain. */
  async logout(): Promise<AuthStatus> {
    this.token = null;
    this.session = null;
    await this.secrets.delete(this.tokenAccount);
    return { loggedIn: false, session: null };
  }

  /** The token for authenticated calls, or null when logged out. */
  accessToken(): string | null {
    return this.token;
  }

  private async restore(): Promise<void> {
    const saved = await this.secrets.get(this.tokenAccount);
    if (!saved) return;
    try {
      const parsed = JSON.parse(saved) as { token: string; session: Session };
      if (tokenExpired(parsed.token, this.now())) return void (await this.secrets.delete(this.tokenAccount));
      const { address } = await this.wallet.status();
      // A token of another wallet (deleted and replaced since) is not this user's session.
      if (address?.toLowerCase() !== parsed.session.address.toLowerCase()) return;
      this.token = parsed.token;
      this.session = parsed.session;
    } catch {
      await this.secrets.delete(this.tokenAccount);
    }
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
