import type { BrowserWindow, Dialog, MessageBoxOptions } from 'electron';
import { PRODUCT_NAME } from './app-identity';

export interface AboutInfo {
  version: string;
  /** `process.versions` of the main process: Electron's, Chromium's and Node's versions. */
  versions: Partial<Record<'electron' | 'chrome' | 'node', string>>;
  dataDir: string;
}

/** Help → About: the version a bug report needs, the runtime, and where the data lives. */
export function aboutMessage(info: AboutInfo): MessageBoxOptions {
  const runtime = [
    `Electron ${info.versions.electron ?? '?'}`,
    `Chromium ${info.versions.chrome ?? '?'}`,
    `Node ${info.versions.node ?? '?'}`,
  ].join(', ');
  return {
    type: 'info',
    title: `About ${PRODUCT_NAME}`,
    message: `${PRODUCT_NAME} ${info.version}`,
    detail: `${runtime}\nData folder: ${info.dataDir}`,
    buttons: ['OK'],
    noLink: true,
  };
}

/** Shows the About box attached to the window when there is one. */
export function showAbout(
  dialog: Pick<Dialog, 'showMessageBox'>,
  parent: BrowserWindow | null,
  info: AboutInfo,
): void {
  const options = aboutMessage(info);
  void (parent ? dialog.showMessageBox(parent, options) : dialog.showMessageBox(options));
}
