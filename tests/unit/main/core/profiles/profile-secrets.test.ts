import { describe, expect, it } from 'vitest';
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-db';
import { KeyValueTable } from '../../../../../src/main/core/cache/key-value';
import { CoreError } from '../../../../../src/main/core/errors';
import { ProfileManager } from '../../../../../src/main/core/profiles/profile-manager';
import { apiKeyAccount, ProfileStore } from '../../../../../src/main/core/profiles/profile-store';
import type { SecretStore } from '../../../../../src/main/core/secrets/secret-store';
import type { Wallet } from '../../../../../src/main/core/wallet/wallet';
import type { ServiceProfile } from '../../../../../src/shared/profile';

class MemorySecrets implements SecretStore {
  readonly items = new Map<string, string>();
  get(account: string) {
    return Promise.resolve(this.items.get(account) ?? null);
  }
  set(account: string, value: string) {
    this.items.set(account, value);
    return Promise.resolve();
  }
  delete(account: string) {
    return Promise.resolve(this.items.delete(account));
  }
}

const remote = (baseUrl: string): ServiceProfile => ({
  id: 'prod',
  name: 'Prod',
  kind: 'remote',
  baseUrl,
  serviceName: 'Prod',
  venue: 'perpx',
  graphqlNamespace: 'local',
});

function manager() {
  const secrets = new MemorySecrets();
  const store = new ProfileStore(new KeyValueTable(openCacheDatabase(':memory:')));
  const profiles = new ProfileManager({
    store,
    wallet: {} as Wallet,
    secrets,
    local: null,
    onSessionChange: () => undefined,
    onProfileReset: () => undefined,
    onActiveChange: () => undefined,
    onListChange: () => undefined,
  });
  return { profiles, secrets };
}

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CoreError);
  return error as CoreError;
};

describe('remote profiles and their API keys (docs/security.md, Secrets and files)', () => {
  it('drops the stored API key when the base URL changes and no key is given again', async () => {
    const { profiles, secrets } = manager();
    await profiles.save(remote('https://a.example.com'), 'key-for-a');
    expect(secrets.items.get(apiKeyAccount('prod'))).toBe('key-for-a');
    // Same URL, other name: the key stays.
    await profiles.save({ ...remote('https://a.example.com'), name: 'Renamed' }, undefined);
    expect(secrets.items.get(apiKeyAccount('prod'))).toBe('key-for-a');
    // Another host: the key of the first must not be sent there.
    const view = await profiles.save(remote('https://b.example.com'), undefined);
    expect(secrets.items.has(apiKeyAccount('prod'))).toBe(false);
    expect(view.profiles.find((p) => p.id === 'prod')?.hasApiKey).toBe(false);
    expect(await profiles.context('prod').apiKey()).toBeNull();
  });

  it('keeps a key given again with the new base URL', async () => {
    const { profiles, secrets } = manager();
    await profiles.save(remote('https://a.example.com'), 'key-for-a');
    await profiles.save(remote('https://b.example.com'), 'key-for-b');
    expect(secrets.items.get(apiKeyAccount('prod'))).toBe('key-for-b');
  });

  it('allows http:// only for 127.0.0.1 and localhost, naming the field otherwise', async () => {
    const { profiles } = manager();
    await profiles.save(remote('http://127.0.0.1:8787'), undefined);
    await profiles.save(remote('http://localhost:8787/api'), undefined);
    await profiles.save(remote('https://copy.example.com'), undefined);
    for (const url of ['http://copy.example.com', 'http://10.0.0.5:8787', 'http://127.0.0.1.nip.io']) {
      const error = await refusal(profiles.save(remote(url), 'k'));
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.message).toContain('profile.baseUrl');
      expect(error.message).toContain('https://');
    }
  });
});
