import { create } from 'zustand';
import type { DataSources, Settings } from '@shared/ipc/schemas/settings';
import type { AppError } from '@shared/result';
import { call } from '@renderer/ipc/call';
import { parseThemeSetting } from '@renderer/theme/resolve-theme';
import { paintTheme } from '@renderer/theme/palette-store';
import { readWithLoading } from './store-actions';

export type Theme = Settings['theme'];
type SettingsPatch = Partial<Pick<Settings, 'theme' | 'notifications' | 'cacheLimitMb'>> & {
  dataSources?: Partial<DataSources>;
};

// The theme is also kept in localStorage so that the next start paints in it before the core answers.
const THEME_KEY = 'copydesk.theme';

/** Paints the window for the `theme` setting (`system` follows the OS) and remembers it. */
export function applyTheme(theme: Theme): void {
  paintTheme(theme);
  try {
    window.localStorage.setItem(THEME_KEY, theme);
  } catch {
    // Storage may be disabled; the core's setting still applies once read.
  }
}

/** The theme setting of the last run, until `settings:get` answers; `system` by default. */
export function rememberedTheme(): Theme {
  try {
    return parseThemeSetting(window.localStorage.getItem(THEME_KEY));
  } catch {
    return 'system';
  }
}

interface SettingsStore {
  /** Null until `settings:get` answers. */
  settings: Settings | null;
  error: AppError | null;
  loading: boolean;
  /** The setting being saved, for its control's busy state. */
  pending: keyof SettingsPatch | null;
  load(): Promise<void>;
  update(patch: SettingsPatch): Promise<boolean>;
}

/** Display and data preferences kept by the core (`settings:get` / `settings:update`). */
export const useSettings = create<SettingsStore>()((set, get) => ({
  settings: null,
  error: null,
  loading: false,
  pending: null,
  load: () =>
    readWithLoading(set, async () => {
      const settings = await call('settings:get', {}, { quiet: true });
      set({ settings, error: null });
      applyTheme(settings.theme);
    }),
  async update(patch) {
    const key = (Object.keys(patch)[0] as keyof SettingsPatch | undefined) ?? null;
    const before = get().settings;
    // The theme switches at once; a refusal puts it back.
    if (patch.theme) applyTheme(patch.theme);
    if (before)
      set({
        settings: { ...before, ...patch, dataSources: { ...before.dataSources, ...patch.dataSources } },
      });
    set({ pending: key });
    try {
      const settings = await call('settings:update', patch);
      set({ settings, error: null });
      applyTheme(settings.theme);
      return true;
    } catch {
      if (before) {
        set({ settings: before });
        applyTheme(before.theme);
      }
      return false;
    } finally {
      set({ pending: null });
    }
  },
}));

export const selectTheme = (s: SettingsStore): Theme => s.settings?.theme ?? rememberedTheme();
