import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { isChannel, isEventName } from '../shared/ipc/names';
import type { CopydeskApi } from '../shared/ipc/contract';

/**
 * The sandboxed window's only door to the core: `window.api.invoke(channel, request)` for the
 * declared channels and `window.api.on(event, listener)` for the declared events. ipcRenderer
 * itself is never exposed.
 */
const api = {
  invoke: (channel, request) =>
    isChannel(channel)
      ? ipcRenderer.invoke(channel, request)
      : Promise.resolve({
          ok: false,
          error: { code: 'UNKNOWN_CHANNEL', message: `${String(channel)} is not a Copydesk channel.` },
        }),
  on: (event, listener) => {
    if (!isEventName(event)) return () => undefined;
    const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload as never);
    ipcRenderer.on(event, forward);
    return () => void ipcRenderer.removeListener(event, forward);
  },
} satisfies CopydeskApi;

contextBridge.exposeInMainWorld('api', api);
