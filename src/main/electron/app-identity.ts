import type { App } from 'electron';
import { join } from 'node:path';

/** The name users see, and the name of the data folder both shells use (docs/desktop.md). */
export const PRODUCT_NAME = 'Copydesk';
/** The application id: electron-builder's `appId`, and Windows' app user model id. */
export const APP_ID = 'app.copydesk.terminal';
/** The Linux `.desktop` file the packages install (electron-builder names it after the executable). */
export const LINUX_DESKTOP_FILE = 'copydesk.desktop';

type IdentityApp = Pick<App, 'setName' | 'getPath' | 'setPath' | 'setAppUserModelId' | 'setDesktopName'>;

/**
 * The Electron shell's data folder: `COPYDESK_DATA_DIR`, else `userData`, the same rule as the web
 * shell's `defaultDataDir` once `setAppIdentity` has run.
 */
export const electronDataDir = (app: Pick<App, 'getPath'>, env: NodeJS.ProcessEnv = process.env): string =>
  env.COPYDESK_DATA_DIR || app.getPath('userData');

/**
 * Names the app before anything reads its paths: `userData` becomes `<appData>/Copydesk`, the
 * folder the web shell computes (src/node/data-dir.ts), so both shells share one data folder.
 * Without this Electron would name the folder after package.json's lower-case `name`. Must run
 * before `requestSingleInstanceLock`, which keeps its lock in `userData`.
 */
export function setAppIdentity(app: IdentityApp, platform: NodeJS.Platform = process.platform): void {
  app.setName(PRODUCT_NAME);
  app.setPath('userData', join(app.getPath('appData'), PRODUCT_NAME));
  // Windows groups the taskbar button and attributes notifications by this id; it must equal the
  // installer's appId or notifications show no app name.
  if (platform === 'win32') app.setAppUserModelId(APP_ID);
  // Linux docks find the taskbar progress bar's window through its .desktop file.
  if (platform === 'linux') app.setDesktopName(LINUX_DESKTOP_FILE);
}
