import { create } from 'zustand';
import type { DatasetKey, DownloadState } from '../../../shared/ipc/schemas/leaderboard';
import { call } from '../ipc/call';
import { subscribe } from '../ipc/events';

interface DownloadsStore {
  states: DownloadState[];
  loaded: boolean;
  load(): Promise<void>;
  start(key: DatasetKey): Promise<void>;
  cancel(key: DatasetKey): Promise<void>;
  remove(key: DatasetKey): Promise<void>;
}

const same = (a: { protocol: string; window: string }, b: { protocol: string; window: string }): boolean =>
  a.protocol === b.protocol && a.window === b.window;

let listening = false;

/** Datasets downloaded for offline use: their states, kept current by `download:progress`. */
export const useDownloads = create<DownloadsStore>()((set, get) => {
  const apply = (state: DownloadState): void => {
    const others = get().states.filter((s) => !same(s, state));
    set({ states: [...others, state] });
  };
  const listen = (): void => {
    if (listening) return;
    listening = true;
    subscribe('download:progress', apply);
  };
  return {
    states: [],
    loaded: false,
    async load() {
      listen();
      try {
        set({ states: await call('downloads:list', {}, { quiet: true }), loaded: true });
      } catch {
        set({ loaded: true });
      }
    },
    async start(key) {
      listen();
      try {
        apply(await call('downloads:start', key));
      } catch {
        // The toast said why.
      }
    },
    async cancel(key) {
      try {
        apply(await call('downloads:cancel', key));
      } catch {
        // The toast said why.
      }
    },
    async remove(key) {
      try {
        set({ states: await call('downloads:delete', key) });
      } catch {
        // The toast said why.
      }
    },
  };
});

/** The state of one dataset, if it was ever started. */
export const downloadOf = (states: readonly DownloadState[], key: DatasetKey): DownloadState | undefined =>
  states.find((s) => same(s, key));
