import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCore, type Core, type CoreOptions } from '../../src/main/core/core';
import { isolatedKeychain } from './keychain';
import { OFFLINE_VENUE_ENV } from './offline-venue';

/**
 * A real core: its own data folder, its own keychain items, the local service (fixture world) as
 * a child process unless `options` name a remote profile. Its venue feed points at a closed port
 * on 127.0.0.1 unless `options.serviceEnv` names a fake venue (offline-venue.ts).
 */
export async function startTestCore(options: Partial<CoreOptions> = {}): Promise<{
  core: Core;
  dataDir: string;
  keychainService: string;
  close(): Promise<void>;
}> {
  const dataDir = mkdtempSync(join(tmpdir(), 'copydesk-core-'));
  const { store, service } = isolatedKeychain();
  const core = await startCore({
    dataDir,
    shell: 'web',
    secrets: store,
    appVersion: '0.0.0-test',
    ephemeralKeychain: true,
    world: 'fixture',
    ...options,
    serviceEnv: { ...OFFLINE_VENUE_ENV, ...options.serviceEnv },
  });
  await core.ready();
  return {
    core,
    dataDir,
    keychainService: service,
    close: async () => {
      await core.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
