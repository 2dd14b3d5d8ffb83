import { BrowserWindow } from 'electron';
import { join } from 'node:path';
import { SECURE_WEB_PREFERENCES } from './security';
import { DEFAULT_WINDOW_SIZE, MIN_WINDOW_SIZE, type WindowPlacement } from './window-state';

export interface MainWindowOptions {
  /** Where the window opens (window-state.ts): the remembered place clamped to today's displays. */
  placement?: WindowPlacement;
  /** DevTools can be opened only while developing; a user's window has none. */
  development?: boolean;
}

/** The terminal's main window, sandboxed, loading the built renderer (or the dev server). */
export function createMainWindow(
  outDir: string,
  devServerUrl: string | undefined,
  options: MainWindowOptions = {},
): BrowserWindow {
  const placement = options.placement ?? { bounds: { ...DEFAULT_WINDOW_SIZE }, maximized: false };
  const window = new BrowserWindow({
    ...placement.bounds,
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    show: false,
    backgroundColor: '#0b0e13',
    title: 'Copydesk',
    webPreferences: {
      ...SECURE_WEB_PREFERENCES,
      devTools: options.development ?? false,
      preload: join(outDir, 'preload', 'index.cjs'),
    },
  });
  window.once('ready-to-show', () => {
    // Maximised before it is first shown, so the user never sees it jump.
    if (placement.maximized) window.maximize();
    window.show();
  });
  if (devServerUrl) void window.loadURL(devServerUrl);
  else void window.loadFile(join(outDir, 'renderer', 'index.html'));
  return window;
}
