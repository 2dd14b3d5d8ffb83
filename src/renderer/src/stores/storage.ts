import { create } from 'zustand';
import type { CacheStats } from '../../../shared/ipc/schemas/settings';
import type { DownloadState } from '../../../shared/ipc/schemas/leaderboard';
import type { AppError } from '../../../shared/result';
import { call, failureOf } from '../ipc/call';
import { toast } from './toasts';

interface StorageStore {
  stats: CacheStats | null;
  statsError: AppError | null;
  downloads: DownloadState[] | null;
  downloadsError: AppError | null;
  clearing: boolean;
  loadStats(): Promise<void>;
  loadDownloads(): Promise<void>;
  clear(): Promise<boolean>;
  /** Takes one dataset's progress (`download:progress`). */
  applyDownload(state: DownloadState): void;
}

const sameDataset = (a: DownloadState, b: DownloadState): boolean =>
  a.protocol === b.protocol && a.window === b.window;

/** What the terminal keeps on this machine: the response cache and offline datasets. */
export const useStorage = create<StorageStore>()((set, get) => ({
  stats: null,
  statsError: null,
  downloads: null,
  downloadsError: null,
  clearing: false,
  async loadStats() {
    try {
      set({ stats: await call('cache:stats', {}, { quiet: true }), statsError: null });
    } catch (error) {
      set({ statsError: failureOf(error) });
    }
  },
  async loadDownloads() {
    try {
      set({ downloads: await call('downloads:list', {}, { quiet: true }), downloadsError: null });
    } catch (error) {
      set({ downloadsError: failureOf(error) });
    }
  },
  async clear() {
    if (get().clearing) return false;
    set({ clearing: true });
    try {
      set({ stats: await call('cache:clear', {}), statsError: null });
      toast({
        tone: 'info',
        title: 'Cache cleared',
        message: 'Pages read fresh data from the service again.',
      });
      return true;
    } catch {
      return false;
    } finally {
      set({ clearing: false });
    }
  },
  applyDownload(state) {
    const list = get().downloads;
    if (!list) return;
    const known = list.some((d) => sameDataset(d, state));
    set({ downloads: known ? list.map((d) => (sameDataset(d, state) ? state : d)) : [...list, state] });
  },
}));
