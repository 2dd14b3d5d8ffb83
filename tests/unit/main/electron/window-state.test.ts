import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const created = vi.hoisted(
  () => [] as { options: Record<string, unknown>; calls: string[]; emit(event: string): void }[],
);
vi.mock('electron', async () => {
  const { EventEmitter } = await import('node:events');
  class BrowserWindow extends EventEmitter {
    calls: string[] = [];
    constructor(readonly options: Record<string, unknown>) {
      super();
      created.push(this as never);
    }
    maximize() {
      this.calls.push('maximize');
    }
    show() {
      this.calls.push('show');
    }
    loadFile() {
      return Promise.resolve();
    }
    loadURL() {
      return Promise.resolve();
    }
  }
  return { BrowserWindow };
});

const {
  placeWindow,
  readWindowState,
  trackWindowState,
  windowStateFile,
  writeWindowState,
  DEFAULT_WINDOW_SIZE,
} = await import('../../../../src/main/electron/window-state');
const { createMainWindow } = await import('../../../../src/main/electron/window');

const laptop = { x: 0, y: 0, width: 1920, height: 1040 };
const rightMonitor = { x: 1920, y: 0, width: 2560, height: 1400 };

describe('placing the window', () => {
  it('opens at the default size on a first start, shrunk to a small screen', () => {
    expect(placeWindow(null, [laptop], laptop)).toEqual({ bounds: DEFAULT_WINDOW_SIZE, maximized: false });
    const small = { x: 0, y: 0, width: 1280, height: 720 };
    expect(placeWindow(null, [small], small).bounds).toEqual({ width: 1280, height: 720 });
  });

  it('reopens where it was when that is on a display', () => {
    const saved = { x: 2100, y: 80, width: 1600, height: 1000, maximized: true };
    expect(placeWindow(saved, [laptop, rightMonitor], laptop)).toEqual({
      bounds: { x: 2100, y: 80, width: 1600, height: 1000 },
      maximized: true,
    });
  });

  it('moves a window half off the screen back onto the display it overlaps most', () => {
    const saved = { x: 1500, y: -200, width: 1000, height: 800, maximized: false };
    // 420 px on the laptop, 580 px on the monitor: it lands wholly on the monitor, top edge visible.
    expect(placeWindow(saved, [laptop, rightMonitor], laptop).bounds).toEqual({
      x: 1920,
      y: 0,
      width: 1000,
      height: 800,
    });
  });

  it('centres on the primary display a window saved on a monitor since unplugged', () => {
    const saved = { x: 2100, y: 80, width: 1600, height: 1000, maximized: false };
    expect(placeWindow(saved, [laptop], laptop).bounds).toEqual({ x: 160, y: 20, width: 1600, height: 1000 });
  });

  it('shrinks a window larger than its display to the display', () => {
    const saved = { x: 100, y: 100, width: 3000, height: 2000, maximized: false };
    expect(placeWindow(saved, [laptop], laptop).bounds).toEqual({ x: 0, y: 0, width: 1920, height: 1040 });
  });

  it('respects a work area that does not start at 0 (a taskbar on the left or top)', () => {
    const area = { x: 64, y: 32, width: 1856, height: 1048 };
    const saved = { x: 0, y: 0, width: 1200, height: 800, maximized: false };
    expect(placeWindow(saved, [area], area).bounds).toEqual({ x: 64, y: 32, width: 1200, height: 800 });
  });
});

describe('the window state file', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'copydesk-window-'))));
  afterEach(() => {
    vi.useRealTimers();
    rmSync(dir, { recursive: true, force: true });
  });

  it('round-trips through a private file in the data folder', () => {
    const file = windowStateFile(dir);
    expect(file).toBe(join(dir, 'window-state.json'));
    expect(readWindowState(file)).toBeNull();
    writeWindowState(file, { x: 10, y: 20, width: 1300, height: 700, maximized: false });
    expect(readWindowState(file)).toEqual({ x: 10, y: 20, width: 1300, height: 700, maximized: false });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(existsSync(`${file}.tmp`)).toBe(false);
  });

  it('treats a damaged or foreign file as no state', () => {
    const file = windowStateFile(dir);
    for (const text of ['{"x":1', '[]', '{"x":1,"y":2,"width":-5,"height":10,"maximized":false}', 'null']) {
      writeFileSync(file, text);
      expect(readWindowState(file)).toBeNull();
    }
  });

  function fakeWindow() {
    const window = Object.assign(new EventEmitter(), {
      bounds: { x: 0, y: 0, width: 1440, height: 900 },
      maximized: false,
      destroyed: false,
      getNormalBounds: () => ({ ...window.bounds }),
      isMaximized: () => window.maximized,
      isDestroyed: () => window.destroyed,
    });
    return window;
  }

  it('saves once the user stops moving, the normal bounds when maximised, and on close', () => {
    vi.useFakeTimers();
    const file = windowStateFile(dir);
    const window = fakeWindow();
    trackWindowState(window as never, file, 500);
    window.bounds = { x: 50, y: 60, width: 1300, height: 800 };
    window.emit('move');
    vi.advanceTimersByTime(300);
    window.emit('resize');
    vi.advanceTimersByTime(300);
    expect(readWindowState(file)).toBeNull();
    vi.advanceTimersByTime(200);
    expect(readWindowState(file)).toEqual({ x: 50, y: 60, width: 1300, height: 800, maximized: false });

    window.maximized = true;
    window.emit('maximize');
    window.emit('close');
    expect(readWindowState(file)).toEqual({ x: 50, y: 60, width: 1300, height: 800, maximized: true });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ maximized: true });
  });

  it('writes nothing for a destroyed window, and survives a folder it cannot write', () => {
    const window = fakeWindow();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    trackWindowState(window as never, join(dir, 'missing', 'window-state.json'));
    window.emit('close');
    expect(warn).toHaveBeenCalledTimes(1);
    window.destroyed = true;
    window.emit('close');
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
});

describe('the main window', () => {
  it('opens at its placement, maximised before it is first shown', () => {
    createMainWindow('/opt/copydesk/out', undefined, {
      placement: { bounds: { x: 5, y: 6, width: 1200, height: 700 }, maximized: true },
    });
    const window = created.at(-1)!;
    expect(window.options).toMatchObject({
      x: 5,
      y: 6,
      width: 1200,
      height: 700,
      minWidth: 1024,
      minHeight: 640,
    });
    window.emit('ready-to-show');
    expect(window.calls).toEqual(['maximize', 'show']);
  });

  it('has DevTools only in development', () => {
    createMainWindow('/opt/copydesk/out', undefined);
    expect(created.at(-1)!.options.webPreferences).toMatchObject({ devTools: false, sandbox: true });
    createMainWindow('/opt/copydesk/out', 'http://127.0.0.1:5173/', { development: true });
    expect(created.at(-1)!.options.webPreferences).toMatchObject({ devTools: true, sandbox: true });
  });

  it('opens unmaximised at the default size without a placement', () => {
    createMainWindow('/opt/copydesk/out', undefined);
    const window = created.at(-1)!;
    expect(window.options).toMatchObject(DEFAULT_WINDOW_SIZE);
    window.emit('ready-to-show');
    expect(window.calls).toEqual(['show']);
  });
});
