import { randomUUID } from 'node:crypto';
import { KeytarSecretStore } from '../../src/main/core/secrets/keytar-store';

/**
 * A real keychain store under a service name of its own, so tests never see each other's items
 * (npm test runs them in a private D-Bus session with an unlocked gnome-keyring).
 */
export function isolatedKeychain(): { store: KeytarSecretStore; service: string } {
  const service = `Copydesk test ${randomUUID()}`;
  return { store: new KeytarSecretStore(service), service };
}

/** Fails loudly (never skips) when the test runs without a keychain session. */
export function requireKeychainSession(): void {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) {
    throw new Error(
      'Keychain tests need the OS keychain: run them with npm test (it starts a private gnome-keyring).',
    );
  }
}
