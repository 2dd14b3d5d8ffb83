import { settingsSchema, type Settings, type SettingsUpdate } from '../../../shared/ipc/schemas/settings';
import type { KeyValueTable } from '../cache/key-value';

/**
 * The settings of a fresh install: the OS's theme, no notifications, a 512 MB cache, and both data
 * sources on (the demo market, and real traders from Hyperliquid's public data).
 */
export const DEFAULT_SETTINGS: Settings = {
  theme: 'system',
  notifications: false,
  cacheLimitMb: 512,
  dataSources: { demo: true, hyperliquid: true },
};

const KEY = 'settings';

/**
 * The user's settings, in the cache database; missing or unreadable fields take their default,
 * each on its own (settings saved by an older Copydesk lack the newer fields). Read once and
 * kept: this store is their only writer, and the cache asks for its limit after every write.
 */
export class SettingsStore {
  private current: Settings | null = null;

  constructor(private readonly table: KeyValueTable) {}

  get(): Settings {
    this.current ??= readSettings(this.table.get(KEY));
    return copy(this.current);
  }

  /** Applies the given fields (data sources one by one) and returns the whole new settings. */
  update(changes: SettingsUpdate): Settings {
    const before = this.get();
    const { dataSources, ...rest } = withoutUndefined(changes);
    const next: Settings = {
      ...before,
      ...(rest as Partial<Omit<Settings, 'dataSources'>>),
      dataSources: { ...before.dataSources, ...withoutUndefined(dataSources ?? {}) },
    };
    this.table.set(KEY, next);
    this.current = next;
    return copy(next);
  }

  /** The cache size limit in bytes. */
  cacheLimitBytes(): number {
    return this.get().cacheLimitMb * 1024 * 1024;
  }
}

/** The saved settings, field by field over the defaults. */
function readSettings(saved: unknown): Settings {
  const fields = typeof saved === 'object' && saved !== null ? (saved as Record<string, unknown>) : {};
  const shape = settingsSchema.shape;
  const field = <K extends keyof Settings>(key: K): Settings[K] => {
    const parsed = shape[key].safeParse(fields[key]);
    return parsed.success ? (parsed.data as Settings[K]) : DEFAULT_SETTINGS[key];
  };
  const sources =
    typeof fields.dataSources === 'object' && fields.dataSources !== null ? fields.dataSources : {};
  const source = (key: 'demo' | 'hyperliquid'): boolean => {
    const value = (sources as Record<string, unknown>)[key];
    return typeof value === 'boolean' ? value : DEFAULT_SETTINGS.dataSources[key];
  };
  return {
    theme: field('theme'),
    notifications: field('notifications'),
    cacheLimitMb: field('cacheLimitMb'),
    dataSources: { demo: source('demo'), hyperliquid: source('hyperliquid') },
  };
}

const copy = (settings: Settings): Settings => ({ ...settings, dataSources: { ...settings.dataSources } });

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
