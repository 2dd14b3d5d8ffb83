import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({}));
const { menuTemplate } = await import('../../../../src/main/electron/menu');
const { aboutMessage, showAbout } = await import('../../../../src/main/electron/about');

type Item = MenuItemConstructorOptions;
const submenu = (item: Item | undefined): Item[] => (item?.submenu ?? []) as Item[];
const roles = (items: Item[]): string[] => items.flatMap((item) => (item.role ? [item.role] : []));
const allRoles = (items: Item[]): string[] =>
  items.flatMap((item) => [...roles([item]), ...allRoles(submenu(item))]);
const byLabel = (items: Item[], label: string) => items.find((item) => item.label === label);

function menu(platform: NodeJS.Platform, development = false) {
  const actions = { openLogsFolder: vi.fn(), showAbout: vi.fn() };
  return { template: menuTemplate({ platform, development }, actions), actions };
}

describe('application menu', () => {
  it('on Linux and Windows: File, Edit, View, Window, Help with the standard roles', () => {
    for (const platform of ['linux', 'win32'] as const) {
      const { template } = menu(platform);
      expect(template.map((item) => item.label)).toEqual(['File', 'Edit', 'View', 'Window', 'Help']);
      expect(roles(submenu(byLabel(template, 'File')))).toEqual(['quit']);
      expect(roles(submenu(byLabel(template, 'Edit')))).toEqual([
        'undo',
        'redo',
        'cut',
        'copy',
        'paste',
        'delete',
        'selectAll',
      ]);
      expect(roles(submenu(byLabel(template, 'Window')))).toEqual(['minimize', 'close']);
      expect(byLabel(template, 'Help')?.role).toBe('help');
    }
  });

  it('on macOS: the app menu first, Close in File, paste and match style, the Window menu', () => {
    const { template } = menu('darwin');
    expect(template.map((item) => item.label)).toEqual([
      'Copydesk',
      'File',
      'Edit',
      'View',
      'Window',
      'Help',
    ]);
    const app = submenu(template[0]);
    expect(app[0]?.label).toBe('About Copydesk');
    expect(roles(app)).toEqual(['services', 'hide', 'hideOthers', 'unhide', 'quit']);
    expect(roles(submenu(byLabel(template, 'File')))).toEqual(['close']);
    expect(roles(submenu(byLabel(template, 'Edit')))).toContain('pasteAndMatchStyle');
    expect(byLabel(template, 'Window')?.role).toBe('window');
    expect(roles(submenu(byLabel(template, 'Window')))).toEqual(['minimize', 'zoom', 'front']);
  });

  it('offers DevTools only in development', () => {
    for (const platform of ['linux', 'win32', 'darwin'] as const) {
      expect(allRoles(menu(platform, false).template)).not.toContain('toggleDevTools');
      expect(allRoles(menu(platform, false).template)).not.toContain('forceReload');
      expect(allRoles(menu(platform, true).template)).toContain('toggleDevTools');
    }
    expect(roles(submenu(byLabel(menu('linux').template, 'View')))).toEqual([
      'reload',
      'resetZoom',
      'zoomIn',
      'zoomOut',
      'togglefullscreen',
    ]);
  });

  it('Help opens the logs folder and shows About', () => {
    const { template, actions } = menu('linux');
    const help = submenu(byLabel(template, 'Help'));
    expect(help.filter((item) => item.label).map((item) => item.label)).toEqual([
      'Open logs folder',
      'About Copydesk',
    ]);
    const click = (label: string) => (byLabel(help, label)?.click as () => void)();
    click('Open logs folder');
    expect(actions.openLogsFolder).toHaveBeenCalledTimes(1);
    expect(actions.showAbout).not.toHaveBeenCalled();
    click('About Copydesk');
    expect(actions.showAbout).toHaveBeenCalledTimes(1);
  });
});

describe('About', () => {
  const info = {
    version: '0.1.0',
    versions: { electron: '45.4.1', chrome: '142.0.0.0', node: '22.20.0' },
    dataDir: '/home/ann/.config/Copydesk',
  };

  it('names the version, the runtime and the data folder', () => {
    expect(aboutMessage(info)).toMatchObject({
      type: 'info',
      title: 'About Copydesk',
      message: 'Copydesk 0.1.0',
      detail: 'Electron 45.4.1, Chromium 142.0.0.0, Node 22.20.0\nData folder: /home/ann/.config/Copydesk',
    });
  });

  it('is attached to the window when there is one', () => {
    const dialog = { showMessageBox: vi.fn(() => Promise.resolve({ response: 0, checkboxChecked: false })) };
    const window = { id: 1 };
    showAbout(dialog as never, window as never, info);
    expect(dialog.showMessageBox).toHaveBeenLastCalledWith(window, aboutMessage(info));
    showAbout(dialog as never, null, info);
    expect(dialog.showMessageBox).toHaveBeenLastCalledWith(aboutMessage(info));
  });
});
