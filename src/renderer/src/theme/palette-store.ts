import { create } from 'zustand';
import { resolveTheme, type Palette, type ThemeSetting } from './resolve-theme';

const DARK_QUERY = '(prefers-color-scheme: dark)';

interface PaletteStore {
  /** The theme setting last applied. */
  setting: ThemeSetting;
  /** The palette painted now; charts redraw in it when it changes. */
  palette: Palette;
}

/** The painted palette, for what cannot read CSS variables (canvas charts). */
export const usePalette = create<PaletteStore>()(() => ({ setting: 'system', palette: 'dark' }));

const media = (): MediaQueryList | null =>
  typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(DARK_QUERY)
    : null;

function paint(palette: Palette): void {
  document.documentElement.dataset.theme = palette;
  document.documentElement.style.colorScheme = palette;
  usePalette.setState({ palette });
}

let following = false;

/**
 * Paints the window for `setting` and, once, starts following the OS: a change of its light or
 * dark preference repaints at once while the setting is `system`.
 */
export function paintTheme(setting: ThemeSetting): void {
  usePalette.setState({ setting });
  paint(resolveTheme(setting, media()?.matches ?? true));
  const query = media();
  if (following || !query) return;
  following = true;
  query.addEventListener('change', (event) => {
    const current = usePalette.getState().setting;
    if (current === 'system') paint(resolveTheme(current, event.matches));
  });
}
