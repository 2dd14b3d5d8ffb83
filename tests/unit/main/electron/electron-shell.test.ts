import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { channelNames } from '../../../../src/shared/ipc/names';

// Electron cannot run on this machine; the shell is thin enough to test with `electron` mocked.
const windows: { options: Record<string, unknown>; loaded: string[] }[] = [];
vi.mock('electron', () => {
  class BrowserWindow {
    loaded: string[] = [];
    webContents = new EventEmitter();
    constructor(readonly options: Record<string, unknown>) {
      windows.push(this as never);
    }
    once() {}
    show() {}
    loadFile(path: string) {
      this.loaded.push(path);
      return Promise.resolve();
    }
    loadURL(url: string) {
      this.loaded.push(url);
      return Promise.resolve();
    }
  }
  return { BrowserWindow };
});

const { SECURE_WEB_PREFERENCES, applySecurity, isAppUrl, isAllowedExternal, restrictPermissions } =
  await import('../../../../src/main/electron/security');
const { registerIpc, forwardEvents } = await import('../../../../src/main/electron/ipc');
const { createMainWindow } = await import('../../../../src/main/electron/window');
const { claimSingleInstance } = await import('../../../../src/main/electron/single-instance');
const { CoreEvents } = await import('../../../../src/main/core/events');

const APP_URL = 'file:///opt/copydesk/out/renderer/index.html';

function fakeContents() {
  const contents = Object.assign(new EventEmitter(), {
    openHandler: undefined as undefined | ((d: { url: string }) => { action: string }),
    setWindowOpenHandler(handler: (d: { url: string }) => { action: string }) {
      this.openHandler = handler;
    },
  });
  return contents;
}

describe('security', () => {
  it('sandboxes every window from one constant', () => {
    expect(SECURE_WEB_PREFERENCES).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    });
  });

  it('blocks navigation away from the app and opens only allow-listed links outside', () => {
    const app = new EventEmitter();
    const shell = { openExternal: vi.fn(() => Promise.resolve()) };
    applySecurity(app as never, shell as never, () => APP_URL);
    const contents = fakeContents();
    app.emit('web-contents-created', {}, contents);

    const navigate = (url: string) => {
      const event = { preventDefault: vi.fn() };
      contents.emit('will-navigate', event, url);
      return event.preventDefault.mock.calls.length > 0;
    };
    expect(navigate('https://evil.example/phish')).toBe(true);
    expect(navigate('file:///etc/passwd')).toBe(true);
    expect(navigate(`${APP_URL}#/tokens`)).toBe(false);

    expect(contents.openHandler?.({ url: 'https://github.com/copydesk' })).toEqual({ action: 'deny' });
    expect(shell.openExternal).toHaveBeenCalledWith('https://github.com/copydesk');
    expect(contents.openHandler?.({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
    expect(shell.openExternal).toHaveBeenCalledTimes(1);

    const webview = { preventDefault: vi.fn() };
    contents.emit('will-attach-webview', webview);
    expect(webview.preventDefault).toHaveBeenCalled();
  });

  it('recognises the app page exactly', () => {
    expect(isAppUrl(APP_URL, APP_URL)).toBe(true);
    expect(isAppUrl('file:///opt/copydesk/out/renderer/other.html', APP_URL)).toBe(false);
    expect(isAppUrl('http://127.0.0.1:5173/', 'http://127.0.0.1:5173/')).toBe(true);
    expect(isAppUrl('http://127.0.0.1:5174/', 'http://127.0.0.1:5173/')).toBe(false);
    expect(isAppUrl('not a url', APP_URL)).toBe(false);
    expect(isAllowedExternal('https://github.com.evil.example/')).toBe(false);
  });

  it('denies every permission but notifications', () => {
    let handler: (c: unknown, p: string, cb: (ok: boolean) => void) => void = () => undefined;
    restrictPermissions({ setPermissionRequestHandler: (h: typeof handler) => (handler = h) } as never);
    const answer = (permission: string) => {
      let granted: boolean | undefined;
      handler({}, permission, (ok) => (granted = ok));
      return granted;
    };
    expect(answer('media')).toBe(false);
    expect(answer('geolocation')).toBe(false);
    expect(answer('notifications')).toBe(true);
  });
});

describe('IPC wiring', () => {
  it('registers every channel through one wrapper that checks the sender', async () => {
    const handlers = new Map<string, (event: unknown, req: unknown) => Promise<unknown>>();
    const ipcMain = {
      handle: (channel: string, fn: (event: unknown, req: unknown) => Promise<unknown>) =>
        handlers.set(channel, fn),
    };
    const invoke = vi.fn(async (channel: unknown) => ({ ok: true, value: channel }));
    const core = { invoke, events: new CoreEvents() };
    registerIpc(
      ipcMain as never,
      core as never,
      (event) => (event as unknown as { trusted: boolean }).trusted,
    );

    expect([...handlers.keys()].sort()).toEqual([...channelNames].sort());
    expect(await handlers.get('wallet:status')!({ trusted: false }, {})).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN' },
    });
    expect(invoke).not.toHaveBeenCalled();
    expect(await handlers.get('wallet:status')!({ trusted: true }, { x: 1 })).toEqual({
      ok: true,
      value: 'wallet:status',
    });
    expect(invoke).toHaveBeenCalledWith('wallet:status', { x: 1 });
  });

  it('forwards core events to the window until it is destroyed', () => {
    const events = new CoreEvents();
    const contents = Object.assign(new EventEmitter(), { send: vi.fn(), isDestroyed: () => false });
    forwardEvents({ events } as never, contents as never);
    events.emit('service:state', { state: 'ready', url: 'http://127.0.0.1:1', message: null });
    expect(contents.send).toHaveBeenCalledWith('service:state', {
      state: 'ready',
      url: 'http://127.0.0.1:1',
      message: null,
    });
    contents.emit('did-finish-load');
    expect(contents.send).toHaveBeenCalledTimes(2);
    expect(contents.send).toHaveBeenLastCalledWith('service:state', {
      state: 'ready',
      url: 'http://127.0.0.1:1',
      message: null,
    });
    contents.emit('destroyed');
    events.emit('service:state', { state: 'stopped', url: null, message: null });
    expect(contents.send).toHaveBeenCalledTimes(2);
  });
});

describe('main window', () => {
  it('loads the built renderer with the sandboxed preferences and the CommonJS preload', () => {
    createMainWindow('/opt/copydesk/out', undefined);
    const { options, loaded } = windows.at(-1)!;
    expect(options.webPreferences).toMatchObject({
      ...SECURE_WEB_PREFERENCES,
      preload: '/opt/copydesk/out/preload/index.cjs',
    });
    expect(loaded).toEqual(['/opt/copydesk/out/renderer/index.html']);
  });
});

describe('single instance', () => {
  const fakeApp = (granted: boolean) =>
    Object.assign(new EventEmitter(), {
      requestSingleInstanceLock: vi.fn(() => granted),
      quit: vi.fn(),
    });
  const fakeWindow = (minimized: boolean) => ({
    isMinimized: () => minimized,
    restore: vi.fn(),
    show: vi.fn(),
    focus: vi.fn(),
  });

  it('quits a second start, which must start nothing', () => {
    const app = fakeApp(false);
    expect(claimSingleInstance(app as never, () => null)).toBe(false);
    expect(app.quit).toHaveBeenCalled();
  });

  it('brings the first window to the front when the app is started again', () => {
    const app = fakeApp(true);
    const window = fakeWindow(true);
    expect(claimSingleInstance(app as never, () => window)).toBe(true);
    expect(app.quit).not.toHaveBeenCalled();
    app.emit('second-instance');
    expect(window.restore).toHaveBeenCalled();
    expect(window.show).toHaveBeenCalled();
    expect(window.focus).toHaveBeenCalled();
  });

  it('ignores a second start before the first window exists', () => {
    const app = fakeApp(true);
    claimSingleInstance(app as never, () => null);
    expect(() => app.emit('second-instance')).not.toThrow();
  });
});
