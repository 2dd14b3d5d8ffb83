/** What the theme setting can say: a fixed palette, or `system` to follow the OS. */
export type ThemeSetting = 'system' | 'dark' | 'light';
/** The palette actually painted (styles/theme.css keys the light one on `data-theme`). */
export type Palette = 'dark' | 'light';

/** The palette for a setting: `system` takes the OS's light or dark preference. */
export function resolveTheme(setting: ThemeSetting, systemPrefersDark: boolean): Palette {
  if (setting === 'system') return systemPrefersDark ? 'dark' : 'light';
  return setting;
}

/** A stored setting read back; anything unknown is `system`, the default (docs/ui.md, Theme). */
export function parseThemeSetting(text: string | null | undefined): ThemeSetting {
  return text === 'dark' || text === 'light' || text === 'system' ? text : 'system';
}
