import { readFileSync } from 'node:fs';
import type * as NodeOs from 'node:os';
import type * as NodePath from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Both shells run here on Linux; each OS's paths are computed by stubbing `process.platform`, the
// home folder and `path.join` (Windows joins with backslashes), which both shells' code reads.
const fake = vi.hoisted(() => ({ home: '/home/ann' }));
vi.mock('node:os', async (original) => ({
  ...(await original<typeof NodeOs>()),
  homedir: () => fake.home,
}));
vi.mock('node:path', async (original) => {
  const real = await original<typeof NodePath>();
  const join = (...parts: string[]) =>
    (process.platform === 'win32' ? real.win32 : real.posix).join(...parts);
  return { ...real, join, default: { ...real, join } };
});
vi.mock('electron', () => ({}));

const { defaultDataDir } = await import('../../../../src/node/data-dir');
const { APP_ID, LINUX_DESKTOP_FILE, PRODUCT_NAME, electronDataDir, setAppIdentity } =
  await import('../../../../src/main/electron/app-identity');

const realPlatform = process.platform;
const setPlatform = (platform: NodeJS.Platform) =>
  Object.defineProperty(process, 'platform', { value: platform });
afterEach(() => setPlatform(realPlatform));

/**
 * Electron's `app` as far as paths go: `appData` per OS as Electron documents it (%APPDATA% on
 * Windows, $XDG_CONFIG_HOME or ~/.config on Linux, ~/Library/Application Support on macOS), and
 * `userData` `<appData>/<name>` until set, `name` being package.json's lower-case `name`.
 */
function fakeElectronApp(platform: NodeJS.Platform, env: NodeJS.ProcessEnv) {
  const paths = new Map<string, string>();
  const app = {
    name: 'copydesk',
    setName: vi.fn((name: string) => (app.name = name)),
    setAppUserModelId: vi.fn(),
    setDesktopName: vi.fn(),
    setPath: vi.fn((key: string, value: string) => paths.set(key, value)),
    getPath: (key: string): string => {
      const set = paths.get(key);
      if (set) return set;
      if (key === 'userData')
        return `${app.getPath('appData')}${platform === 'win32' ? '\\' : '/'}${app.name}`;
      if (key !== 'appData') throw new Error(`the fake app has no path ${key}`);
      if (platform === 'win32') return env.APPDATA!;
      if (platform === 'darwin') return `${fake.home}/Library/Application Support`;
      return env.XDG_CONFIG_HOME ?? `${fake.home}/.config`;
    },
  };
  return app;
}

const cases: { os: NodeJS.Platform; home: string; env: NodeJS.ProcessEnv; expected: string }[] = [
  { os: 'linux', home: '/home/ann', env: {}, expected: '/home/ann/.config/Copydesk' },
  {
    os: 'linux',
    home: '/home/ann',
    env: { XDG_CONFIG_HOME: '/data/ann/config' },
    expected: '/data/ann/config/Copydesk',
  },
  { os: 'darwin', home: '/Users/ann', env: {}, expected: '/Users/ann/Library/Application Support/Copydesk' },
  {
    os: 'win32',
    home: 'C:\\Users\\ann',
    env: { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' },
    expected: 'C:\\Users\\ann\\AppData\\Roaming\\Copydesk',
  },
];

describe('one data folder for both shells', () => {
  for (const { os, home, env, expected } of cases)
    it(`${os}${env.XDG_CONFIG_HOME ? ' with XDG_CONFIG_HOME' : ''}: ${expected}`, () => {
      setPlatform(os);
      fake.home = home;
      const app = fakeElectronApp(os, env);
      // Without the identity Electron names the folder after package.json's `name`: the bug.
      expect(app.getPath('userData')).not.toBe(expected);
      setAppIdentity(app, os);
      expect(electronDataDir(app, env)).toBe(expected);
      expect(defaultDataDir(env)).toBe(expected);
    });

  it('COPYDESK_DATA_DIR wins in both shells', () => {
    setPlatform('linux');
    const env = { COPYDESK_DATA_DIR: '/srv/copydesk' };
    const app = fakeElectronApp('linux', env);
    setAppIdentity(app, 'linux');
    expect(electronDataDir(app, env)).toBe('/srv/copydesk');
    expect(defaultDataDir(env)).toBe('/srv/copydesk');
  });

  it('sets the Windows app user model id on Windows only, and the Linux desktop file on Linux only', () => {
    const windows = fakeElectronApp('win32', { APPDATA: 'C:\\x' });
    setAppIdentity(windows, 'win32');
    expect(windows.setAppUserModelId).toHaveBeenCalledWith(APP_ID);
    expect(windows.setDesktopName).not.toHaveBeenCalled();
    const linux = fakeElectronApp('linux', {});
    setAppIdentity(linux, 'linux');
    expect(linux.setDesktopName).toHaveBeenCalledWith(LINUX_DESKTOP_FILE);
    expect(linux.setAppUserModelId).not.toHaveBeenCalled();
    const mac = fakeElectronApp('darwin', {});
    setAppIdentity(mac, 'darwin');
    expect(mac.setAppUserModelId).not.toHaveBeenCalled();
    expect(mac.setDesktopName).not.toHaveBeenCalled();
  });

  it("package.json's productName is the same name, which Electron reads before the code runs", () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { productName?: string };
    expect(manifest.productName).toBe(PRODUCT_NAME);
  });
});
