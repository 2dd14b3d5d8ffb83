import { create } from 'zustand';
import { EMPTY_LIVE_FILTERS, type LiveFilters } from '@renderer/filters/live-filters';

interface LiveStore {
  filters: LiveFilters;
  /** Re-read the feeds every few seconds while the page is visible. */
  autoRefresh: boolean;
  setFilters(patch: Partial<LiveFilters>): void;
  clearFilters(): void;
  setAutoRefresh(on: boolean): void;
}

/** The Live page's filters, kept while the user visits other pages. */
export const useLive = create<LiveStore>()((set) => ({
  filters: EMPTY_LIVE_FILTERS,
  autoRefresh: true,
  setFilters: (patch) => set((s) => ({ filters: { ...s.filters, ...patch } })),
  clearFilters: () => set({ filters: EMPTY_LIVE_FILTERS }),
  setAutoRefresh: (autoRefresh) => set({ autoRefresh }),
}));
