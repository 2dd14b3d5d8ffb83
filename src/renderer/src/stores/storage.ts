import { create } from 'zustand';
import type { CacheStats } from '@shared/ipc/schemas/settings';
import type { AppError } from '@shared/result';
import { call, failureOf } from '@renderer/ipc/call';
import { toast } from './toasts';

interface StorageStore {
  stats: CacheStats | null;
  statsError: AppError | null;
  clearing: boolean;
  loadStats(): Promise<void>;
  clear(): Promise<boolean>;
}

/** The response cache the terminal keeps on this machine (offline datasets: stores/downloads.ts). */
export const useStorage = create<StorageStore>()((set, get) => ({
  stats: null,
  statsError: null,
  clearing: false,
  async loadStats() {
    try {
      set({ stats: await call('cache:stats', {}, { quiet: true }), statsError: null });
    } catch (error) {
      set({ statsError: failureOf(error) });
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
}));
