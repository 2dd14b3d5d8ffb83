import { create } from 'zustand';
import type { PositionStatus, Window } from '@shared/api/common';
import type { PositionSortField } from '@shared/api/positions';
import { readPref, writePref } from './local-prefs';
import type { TraderRef } from './navigation';

/** Positions per page of the history. */
export const POSITIONS_PAGE = 50;
const MAX_RECENT = 8;
const PREF_RECENT = 'trader.recent';

interface TraderViewStore {
  window: Window;
  /** Positions history: which ones, in what order, which page. */
  status: PositionStatus | 'ALL';
  sort: { field: PositionSortField; direction: 'asc' | 'desc' };
  offset: number;
  /** The position whose orders are shown (its key). */
  selectedPosition: string | null;
  /** Formulas written under every statistic instead of only in tooltips. */
  showFormulas: boolean;
  /** Traders opened lately, newest first, for the picker and the command palette. */
  recent: TraderRef[];
  setWindow(window: Window): void;
  setStatus(status: PositionStatus | 'ALL'): void;
  setSort(sort: TraderViewStore['sort']): void;
  setOffset(offset: number): void;
  selectPosition(key: string | null): void;
  toggleFormulas(): void;
  remember(ref: TraderRef): void;
  /** The trader the history state belongs to. */
  current: TraderRef | null;
  /** Opening a trader: a different one starts at the first page of its history. */
  resetFor(ref: TraderRef): void;
}

const sameTrader = (a: TraderRef, b: TraderRef): boolean =>
  a.protocol === b.protocol && a.account.toLowerCase() === b.account.toLowerCase();

/** How the trader page is looked at; the data itself is read by the page (cache-first). */
export const useTraderView = create<TraderViewStore>()((set, get) => ({
  window: 'D30',
  status: 'ALL',
  sort: { field: 'closeBlockTime', direction: 'desc' },
  offset: 0,
  selectedPosition: null,
  showFormulas: false,
  recent: readPref<TraderRef[]>(PREF_RECENT, []).filter(
    (r) => typeof r?.protocol === 'string' && typeof r?.account === 'string',
  ),
  setWindow: (window) => set({ window }),
  setStatus: (status) => set({ status, offset: 0, selectedPosition: null }),
  setSort: (sort) => set({ sort, offset: 0 }),
  setOffset: (offset) => set({ offset: Math.max(0, offset) }),
  selectPosition: (selectedPosition) => set({ selectedPosition }),
  toggleFormulas: () => set({ showFormulas: !get().showFormulas }),
  remember(ref) {
    const recent = [ref, ...get().recent.filter((r) => !sameTrader(r, ref))].slice(0, MAX_RECENT);
    set({ recent });
    writePref(PREF_RECENT, recent);
  },
  current: null,
  resetFor(ref) {
    const current = get().current;
    if (!current || !sameTrader(current, ref))
      set({ current: ref, offset: 0, selectedPosition: null, status: 'ALL' });
    get().remember(ref);
  },
}));
