import type * as KeytarModule from 'keytar';
import { KeychainUnavailableError, type SecretStore } from './secret-store';

type Keytar = typeof KeytarModule;

/** The keychain service name under which Copydesk keeps its items. */
export const KEYCHAIN_SERVICE = 'Copydesk';

/**
 * The OS keychain through keytar (libsecret on Linux, Keychain on macOS, Credential Vault on
 * Windows). Every failure becomes a KeychainUnavailableError naming the cause.
 */
export class KeytarSecretStore implements SecretStore {
  private keytar: Promise<Keytar> | null = null;

  constructor(private readonly service: string = KEYCHAIN_SERVICE) {}

  async get(account: string): Promise<string | null> {
    return this.run((k) => k.getPassword(this.service, account));
  }

  async set(account: string, value: string): Promise<void> {
    await this.run((k) => k.setPassword(this.service, account, value));
  }

  async delete(account: string): Promise<boolean> {
    return this.run((k) => k.deletePassword(this.service, account));
  }

  private async run<T>(op: (k: Keytar) => Promise<T>): Promise<T> {
    let keytar: Keytar;
    try {
      keytar = await (this.keytar ??= import('keytar').then((m) => (m.default ?? m) as Keytar));
    } catch (error) {
      this.keytar = null;
      throw new KeychainUnavailableError(
        `The OS keychain library could not be loaded (${(error as Error).message}). On Linux install libsecret-1-0.`,
      );
    }
    try {
      return await op(keytar);
    } catch (error) {
      throw explainKeychainError(error);
    }
  }
}

/** Maps the platform's raw keychain errors to a sentence that says what is wrong and what to do. */
export function explainKeychainError(error: unknown): KeychainUnavailableError {
  const raw = error instanceof Error ? error.message : String(error);
  if (
    /autolaunch D-Bus|DBUS_SESSION_BUS_ADDRESS|Failed to connect to socket|dbus/i.test(raw) &&
    !/secrets/.test(raw)
  ) {
    return new KeychainUnavailableError(
      `The OS keychain is not reachable: there is no D-Bus session (${raw}). Start Copydesk from a desktop session, or with npm start, which starts a private keychain.`,
    );
  }
  if (/org\.freedesktop\.secrets was not provided|ServiceUnknown|secret service/i.test(raw)) {
    return new KeychainUnavailableError(
      `The OS keychain is not running: no Secret Service provider answered (${raw}). Install and start gnome-keyring or KWallet.`,
    );
  }
  if (/locked|prompt|dismissed|Object does not exist at path|unlock/i.test(raw)) {
    return new KeychainUnavailableError(
      `The OS keychain is locked (${raw}). Unlock it (log in to the desktop, or unlock the "login" keyring) and try again.`,
    );
  }
  return new KeychainUnavailableError(`The OS keychain refused the operation: ${raw}`);
}
