import { describe, expect, it } from 'vitest';
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-db';
import { KeyValueTable } from '../../../../../src/main/core/cache/key-value';
import { SettingsStore } from '../../../../../src/main/core/settings/settings-store';

describe('the settings store in the cache file', () => {
  it('fills defaults, keeps updates, and survives a damaged value', () => {
    const table = new KeyValueTable(openCacheDatabase(':memory:'));
    const settings = new SettingsStore(table);
    const dataSources = { demo: true, hyperliquid: true };
    expect(settings.get()).toEqual({ theme: 'system', notifications: false, cacheLimitMb: 512, dataSources });
    expect(settings.update({ cacheLimitMb: 64 })).toEqual({
      theme: 'system',
      notifications: false,
      cacheLimitMb: 64,
      dataSources,
    });
    expect(settings.cacheLimitBytes()).toBe(64 * 1024 * 1024);
    table.set('settings', { theme: 'neon', cacheLimitMb: 32 });
    // Settings are read once, at start: the damaged value is seen by the next start, and takes
    // its default alone (the readable limit stays).
    expect(new SettingsStore(table).get()).toEqual({
      theme: 'system',
      notifications: false,
      cacheLimitMb: 32,
      dataSources,
    });
  });
});
