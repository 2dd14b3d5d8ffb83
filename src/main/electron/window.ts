import { BrowserWindow } from 'electron';
import { join } from 'node:path';
import { SECURE_WEB_PREFERENCES } from './security';

/** The terminal's main window, sandboxed, loading the built renderer (or the dev server). */
export function createMainWindow(outDir: string, devServerUrl: string | undefined): BrowserWindow {
  const window = new BrowserWindow({
    width: 1440,
    height: 900,
    minWidth: 1024,
    minHeight: 640,
    show: false,
    backgroundColor: '#0b0e13',
    title: 'Copydesk',
    webPreferences: { ...SECURE_WEB_PREFERENCES, preload: join(outDir, 'preload', 'index.cjs') },
  });
  window.once('ready-to-show', () => window.show());
  if (devServerUrl) void window.loadURL(devServerUrl);
  else void window.loadFile(join(outDir, 'renderer', 'index.html'));
  return window;
}
