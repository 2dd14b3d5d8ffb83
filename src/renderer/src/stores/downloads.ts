import { create } from 'zustand';
import type { DatasetKey, DownloadState } from '@shared/ipc/schemas/leaderboard';
import type { AppError } from '@shared/result';
import { call, failureOf } from '@renderer/ipc/call';
import { subscribe } from '@renderer/ipc/events';

interface DownloadsStore {
  states: DownloadState[];
  loaded: boolean;
  /** Why the last listing failed (the Settings page shows it when nothing was listed). */
  error: AppError | null;
  load(): Promise<void>;
  start(key: DatasetKey): Promise<void>;
  cancel(key: DatasetKey): Promise<void>;
  remove(key: DatasetKey): Promise<void>;
}

const same = (a: { protocol: string; window: string }, b: { protocol: string; window: string }): boolean =>
  a.protocol === b.protocol && a.window === b.window;

let listening = false;

/**
 * Datasets downloaded for offline use: their states, kept current by `download:progress`. The one
 * store of them, read by the leaderboard's download menu and by Settings.
 */
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
    error: null,
    async load() {
      listen();
      try {
        set({ states: await call('downloads:list', {}, { quiet: true }), loaded: true, error: null });
      } catch (error) {
        set({ loaded: true, error: failureOf(error) });
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
