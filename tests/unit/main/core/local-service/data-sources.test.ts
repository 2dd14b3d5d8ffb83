// The terminal's data sources (Settings → Data sources): which flags the local service gets for
// them, how they are kept with the other settings, and how the settings channel applies a change
// (restart, and putting the previous sources back when the service does not start with the new).
import { describe, expect, it, vi } from 'vitest';
import type { KeyValueTable } from '../../../../../src/main/core/cache/key-value';
import { serviceArgsFor, sameSources } from '../../../../../src/main/core/local-service/data-sources';
import { createSettingsHandlers } from '../../../../../src/main/core/handlers/settings';
import type { DomainDeps } from '../../../../../src/main/core/handlers/handlers';
import { DEFAULT_SETTINGS, SettingsStore } from '../../../../../src/main/core/settings/settings-store';
import { channels, describeIssues } from '../../../../../src/shared';
import type { DataSources } from '../../../../../src/shared/ipc/schemas/settings';

/** A key-value table in memory, holding what was saved as JSON text would. */
function memoryTable(initial: Record<string, unknown> = {}): KeyValueTable {
  const rows = new Map(Object.entries(initial).map(([k, v]) => [k, JSON.stringify(v)]));
  return {
    get: (key: string) => (rows.has(key) ? (JSON.parse(rows.get(key) as string) as unknown) : null),
    set: (key: string, value: unknown) => void rows.set(key, JSON.stringify(value)),
    delete: (key: string) => void rows.delete(key),
  } as unknown as KeyValueTable;
}

describe('data sources → the local service flags', () => {
  const both: DataSources = { demo: true, hyperliquid: true };

  it('a fresh install runs the moving demo market and the Hyperliquid feed', () => {
    expect(serviceArgsFor(both)).toEqual(['--demo', '--live', '--feed', 'hyperliquid']);
  });

  it('demo off: no demo world, no moving market, and a new database starts empty', () => {
    expect(serviceArgsFor({ demo: false, hyperliquid: true })).toEqual(['--empty', '--feed', 'hyperliquid']);
    expect(serviceArgsFor({ demo: false, hyperliquid: false })).toEqual(['--empty']);
    // Whatever world the shell asked for.
    for (const world of ['demo', 'fixture', 'empty'] as const)
      expect(serviceArgsFor({ demo: false, hyperliquid: false }, { world, live: true })).toEqual(['--empty']);
  });

  it('Hyperliquid off: no feed', () => {
    expect(serviceArgsFor({ demo: true, hyperliquid: false })).toEqual(['--demo', '--live']);
  });

  it('demo on keeps the world and the still market the shell asked for', () => {
    expect(serviceArgsFor(both, { world: 'fixture' })).toEqual(['--live', '--feed', 'hyperliquid']);
    expect(serviceArgsFor(both, { world: 'empty', live: false })).toEqual([
      '--empty',
      '--feed',
      'hyperliquid',
    ]);
    expect(serviceArgsFor({ demo: true, hyperliquid: false }, { world: 'demo', live: false })).toEqual([
      '--demo',
    ]);
  });

  it('compares two sets of sources', () => {
    expect(sameSources(both, { ...both })).toBe(true);
    expect(sameSources(both, { ...both, demo: false })).toBe(false);
  });
});

describe('the settings store', () => {
  it('starts with both sources on', () => {
    expect(new SettingsStore(memoryTable()).get()).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS.dataSources).toEqual({ demo: true, hyperliquid: true });
  });

  it('reads settings saved before the data sources existed, keeping each readable field', () => {
    const saved = { theme: 'light', notifications: true, cacheLimitMb: 64 };
    expect(new SettingsStore(memoryTable({ settings: saved })).get()).toEqual({
      ...saved,
      dataSources: { demo: true, hyperliquid: true },
    });
    // One unreadable field takes its default alone; the others stay.
    const broken = { theme: 'neon', cacheLimitMb: 64, dataSources: { demo: false, hyperliquid: 'yes' } };
    expect(new SettingsStore(memoryTable({ settings: broken })).get()).toEqual({
      theme: 'system',
      notifications: false,
      cacheLimitMb: 64,
      dataSources: { demo: false, hyperliquid: true },
    });
  });

  it('changes one source at a time and keeps them across a restart of the core', () => {
    const table = memoryTable();
    const store = new SettingsStore(table);
    expect(store.update({ dataSources: { demo: false } }).dataSources).toEqual({
      demo: false,
      hyperliquid: true,
    });
    expect(store.update({ theme: 'light' }).dataSources).toEqual({ demo: false, hyperliquid: true });
    expect(store.update({ dataSources: { hyperliquid: false } }).dataSources).toEqual({
      demo: false,
      hyperliquid: false,
    });
    // A copy: changing what was answered changes nothing stored.
    store.get().dataSources.demo = true;
    expect(new SettingsStore(table).get()).toMatchObject({
      theme: 'light',
      dataSources: { demo: false, hyperliquid: false },
    });
  });
});

describe('settings:update requests', () => {
  const request = channels['settings:update'].request;
  const problem = (input: unknown): string => {
    const parsed = request.safeParse(input);
    return parsed.success ? 'accepted' : describeIssues(parsed.error, 'request');
  };

  it('accepts one source or both', () => {
    expect(problem({ dataSources: { demo: false } })).toBe('accepted');
    expect(problem({ dataSources: { demo: true, hyperliquid: false } })).toBe('accepted');
  });

  it('refuses anything else, naming the field', () => {
    expect(problem({ dataSources: { demo: 'off' } })).toMatch(/dataSources\.demo must be true or false/);
    expect(problem({ dataSources: { binance: true } })).toMatch(/dataSources.*binance/);
    expect(problem({ dataSources: true })).toMatch(/dataSources/);
  });
});

describe('settings:update applies the data sources', () => {
  function handlers(apply: ((sources: DataSources) => Promise<void>) | null) {
    const settings = new SettingsStore(memoryTable());
    const deps = {
      settings,
      applyDataSources: apply,
      cache: { evictTo: vi.fn() },
      datasets: { stats: () => ({ bytes: 0, datasets: 0, records: 0 }), clear: vi.fn() },
      cachePath: '/tmp',
    } as unknown as DomainDeps;
    return { settings, update: createSettingsHandlers(deps)['settings:update'] };
  }

  it('restarts the local service with the new sources, and answers once it runs', async () => {
    const applied: DataSources[] = [];
    const { update } = handlers(async (sources) => void applied.push(sources));
    await expect(update({ dataSources: { demo: false } })).resolves.toMatchObject({
      dataSources: { demo: false, hyperliquid: true },
    });
    expect(applied).toEqual([{ demo: false, hyperliquid: true }]);
    // Nothing to restart for: the same sources, or another setting.
    await update({ dataSources: { demo: false } });
    await update({ theme: 'light' });
    expect(applied).toHaveLength(1);
  });

  it('puts the previous sources back when the service does not start with the new ones', async () => {
    const applied: DataSources[] = [];
    const { update, settings } = handlers(async (sources) => {
      applied.push(sources);
      if (!sources.hyperliquid) throw new Error('the local service exited with code 2: bad flag');
    });
    await expect(update({ dataSources: { hyperliquid: false } })).rejects.toMatchObject({
      code: 'OFFLINE',
      message:
        'The local service did not start with the new data sources (the local service exited with code 2: bad flag); it runs with the previous data sources again.',
    });
    expect(applied).toEqual([
      { demo: true, hyperliquid: false },
      { demo: true, hyperliquid: true },
    ]);
    expect(settings.get().dataSources).toEqual({ demo: true, hyperliquid: true });
  });

  it('without a local service (a remote profile only) keeps the sources for the next start', async () => {
    const { update, settings } = handlers(null);
    await update({ dataSources: { demo: false } });
    expect(settings.get().dataSources.demo).toBe(false);
  });
});

describe('tests never reach the real venue', () => {
  it('every test process has the venue feed pointed at a closed port on 127.0.0.1', async () => {
    const { OFFLINE_VENUE_ENV } = await import('../../../../support/offline-venue');
    for (const [name, value] of Object.entries(OFFLINE_VENUE_ENV)) {
      expect(process.env[name], name).toBe(value);
      expect(new URL(value).hostname).toBe('127.0.0.1');
    }
  });
});
