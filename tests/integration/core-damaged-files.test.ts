// Damaged files: a cache or datasets file overwritten with junk does not stop the terminal. It is
// moved aside with the time in its name, a new one is started, the start says so in app:info,
// and the withdrawal record, which lives in a file of its own, is still there.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openCacheDatabase } from '../../src/main/core/cache/cache-db';
import { startCore, type CoreOptions } from '../../src/main/core/core';
import { isolatedKeychain, requireKeychainSession } from '../support/keychain';
import { OFFLINE_VENUE_ENV } from '../support/offline-venue';

const dataDir = mkdtempSync(join(tmpdir(), 'copydesk-damaged-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const keychain = isolatedKeychain();

const options = (): CoreOptions => ({
  dataDir,
  shell: 'web',
  secrets: keychain.store,
  appVersion: '0.0.0-test',
  ephemeralKeychain: true,
  world: 'fixture',
  serviceEnv: OFFLINE_VENUE_ENV,
});

describe('damaged files', () => {
  it('moves a damaged cache and datasets file aside, starts anew, says so, and keeps the withdrawals', async () => {
    requireKeychainSession();
    const first = await startCore(options());
    await first.ready();
    await first.close();
    // A withdrawal in the record, where the terminal keeps it.
    const record = openCacheDatabase(join(dataDir, 'withdrawals.db'));
    record
      .prepare(
        "INSERT INTO withdrawals (profile_id, id, user_id, created_at, json) VALUES ('local', 'k1', 'u1', '2026-03-02T12:00:00.000Z', '{}')",
      )
      .run();
    record.close();
    for (const name of ['core.db', 'datasets.db'])
      writeFileSync(join(dataDir, 'cache', name), randomBytes(16_384));

    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const core = await startCore(options());
    try {
      await core.ready();
      const info = await core.invoke('app:info', {});
      expect(info).toMatchObject({ ok: true });
      const damaged = (info as { value: { damagedFiles: { file: string; movedTo: string }[] } }).value
        .damagedFiles;
      expect(damaged.map((d) => d.file)).toEqual([
        join(dataDir, 'cache', 'core.db'),
        join(dataDir, 'cache', 'datasets.db'),
      ]);
      const aside = readdirSync(join(dataDir, 'cache')).filter((f) => f.includes('.damaged-'));
      expect(aside).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^core\.db\.damaged-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/),
          expect.stringMatching(/^datasets\.db\.damaged-\d{4}-\d\d-\d\dT/),
        ]),
      );
      expect(error).toHaveBeenCalledWith(expect.stringContaining('core.db could not be opened'));
      // The pages work on the new files.
      expect(await core.invoke('settings:get', {})).toMatchObject({ ok: true });
      expect(await core.invoke('cache:stats', {})).toMatchObject({ ok: true, value: { datasets: 0 } });
      expect(await core.invoke('tokens:list', {})).toMatchObject({ ok: true });
    } finally {
      error.mockRestore();
      await core.close();
    }
    const kept = openCacheDatabase(join(dataDir, 'withdrawals.db'));
    expect(kept.prepare('SELECT id FROM withdrawals').pluck().all()).toEqual(['k1']);
    kept.close();
  }, 120_000);
});
