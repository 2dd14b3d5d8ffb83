import type { MenuItemConstructorOptions } from 'electron';
import { PRODUCT_NAME } from './app-identity';

export interface MenuActions {
  /** Opens `<data folder>/logs` in the system's file manager. */
  openLogsFolder(): void;
  /** Shows the version, its runtime and the data folder. */
  showAbout(): void;
}

export interface MenuOptions {
  platform: NodeJS.Platform;
  /** DevTools and force-reload appear only while developing (an unpackaged app). */
  development: boolean;
}

const separator: MenuItemConstructorOptions = { type: 'separator' };

/**
 * The application menu, built from Electron's roles so each platform gets its own shortcuts and
 * wording: the macOS app menu, then File, Edit, View, Window and Help. Replaces Electron's default
 * menu, whose View menu offers DevTools to every user.
 */
export function menuTemplate(options: MenuOptions, actions: MenuActions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const about: MenuItemConstructorOptions = {
    label: `About ${PRODUCT_NAME}`,
    click: () => actions.showAbout(),
  };
  const appMenu: MenuItemConstructorOptions = {
    label: PRODUCT_NAME,
    submenu: [
      about,
      separator,
      { role: 'services' },
      separator,
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      separator,
      { role: 'quit' },
    ],
  };
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [mac ? { role: 'close' } : { role: 'quit' }],
  };
  const edit: MenuItemConstructorOptions = {
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      separator,
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(mac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
      { role: 'delete' },
      separator,
      { role: 'selectAll' },
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      { role: 'reload' },
      ...(options.development ? [{ role: 'forceReload' } as const, { role: 'toggleDevTools' } as const] : []),
      separator,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
    ],
  };
  const window: MenuItemConstructorOptions = {
    label: 'Window',
    role: 'window',
    submenu: mac
      ? [{ role: 'minimize' }, { role: 'zoom' }, separator, { role: 'front' }]
      : [{ role: 'minimize' }, { role: 'close' }],
  };
  const help: MenuItemConstructorOptions = {
    label: 'Help',
    role: 'help',
    submenu: [{ label: 'Open logs folder', click: () => actions.openLogsFolder() }, separator, about],
  };
  return [...(mac ? [appMenu] : []), file, edit, view, window, help];
}
