import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { CopydeskApi } from '../../../src/shared/ipc/contract';

const exposed: Record<string, unknown> = {};
const ipcRenderer = {
  invoke: vi.fn(async () => ({ ok: true, value: 'answer' })),
  on: vi.fn(),
  removeListener: vi.fn(),
};
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, value: unknown) => (exposed[key] = value) },
  ipcRenderer,
}));

let api: CopydeskApi;
beforeAll(async () => {
  await import('../../../src/preload/index');
  api = exposed.api as CopydeskApi;
});

describe('preload bridge', () => {
  it('exposes only invoke and on, never ipcRenderer', () => {
    expect(Object.keys(exposed)).toEqual(['api']);
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on']);
  });

  it('forwards declared channels and refuses others without touching IPC', async () => {
    expect(await api.invoke('wallet:status', {})).toEqual({ ok: true, value: 'answer' });
    expect(ipcRenderer.invoke).toHaveBeenCalledWith('wallet:status', {});
    ipcRenderer.invoke.mockClear();
    expect(await api.invoke('shell:exec' as never, {} as never)).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_CHANNEL' },
    });
    expect(ipcRenderer.invoke).not.toHaveBeenCalled();
  });

  it('subscribes to declared events only, and unsubscribes', () => {
    const listener = vi.fn();
    const off = api.on('session:changed', listener);
    expect(ipcRenderer.on).toHaveBeenCalledWith('session:changed', expect.any(Function));
    const forward = ipcRenderer.on.mock.calls[0]![1] as (e: unknown, p: unknown) => void;
    forward({ sender: 'x' }, { loggedIn: true, session: null });
    expect(listener).toHaveBeenCalledWith({ loggedIn: true, session: null });
    off();
    expect(ipcRenderer.removeListener).toHaveBeenCalledWith('session:changed', forward);
    ipcRenderer.on.mockClear();
    api.on('evil:event' as never, listener);
    expect(ipcRenderer.on).not.toHaveBeenCalled();
  });
});
