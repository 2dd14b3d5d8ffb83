import type { App, BrowserWindow } from 'electron';

type Window = Pick<BrowserWindow, 'isMinimized' | 'restore' | 'show' | 'focus'>;

/**
 * One Copydesk window per user: the second start of the app hands over to the first (Electron's
 * single-instance lock) and quits, and the first brings its window to the front. Returns false
 * in the second start, which must then start nothing. (The data folder's own lock, taken by the
 * core, also refuses a web shell on the same folder: src/node/data-dir-lock.ts.)
 */
export function claimSingleInstance(
  app: Pick<App, 'requestSingleInstanceLock' | 'on' | 'quit'>,
  window: () => Window | null,
): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', () => {
    const shown = window();
    if (!shown) return;
    if (shown.isMinimized()) shown.restore();
    shown.show();
    shown.focus();
  });
  return true;
}
