import { settingsSchema, type Settings } from '../../../shared/ipc/schemas/settings';
import type { KeyValueTable } from '../cache/key-value';

/** The settings of a fresh install: dark theme, no notifications, a 512 MB cache. */
export const DEFAULT_SETTINGS: Settings = { theme: 'dark', notifications: false, cacheLimitMb: 512 };

const KEY = 'settings';

/**
 * The user's settings, in the cache database; missing or unreadable fields take their default.
 * Read once and kept: this store is their only writer, and the cache asks for its limit after
 * every write.
 */
export class SettingsStore {
  private current: Settings | null = null;

  constructor(private readonly table: KeyValueTable) {}

  get(): Settings {
    if (!this.current) {
      const saved = settingsSchema.partial().safeParse(this.table.get(KEY) ?? {});
      this.current = { ...DEFAULT_SETTINGS, ...(saved.success ? withoutUndefined(saved.data) : {}) };
    }
    return { ...this.current };
  }

  /** Applies the given fields and returns the whole new settings. */
  update(changes: Partial<Settings>): Settings {
    const next = { ...this.get(), ...withoutUndefined(changes) };
    this.table.set(KEY, next);
    this.current = next;
    return { ...next };
  }

  /** The cache size limit in bytes. */
  cacheLimitBytes(): number {
    return this.get().cacheLimitMb * 1024 * 1024;
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
