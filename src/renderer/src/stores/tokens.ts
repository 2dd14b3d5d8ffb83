import { create } from 'zustand';
import type { TokensList } from '../../../shared/ipc/contract';
import type { AppError } from '../../../shared/result';
import { call } from '../ipc/call';
import { readWithLoading } from './store-actions';

interface TokensStore {
  list: TokensList | null;
  loading: boolean;
  /** Why the last load failed, shown on the page when there is nothing cached to show. */
  error: AppError | null;
  /** Symbol substring typed in the filter box. */
  filter: string;
  load(): Promise<void>;
  setFilter(filter: string): void;
}

/** Tradable tokens grouped by protocol (`tokens:list`, needs no login). */
export const useTokens = create<TokensStore>()((set, get) => ({
  list: null,
  loading: false,
  error: null,
  filter: '',
  async load() {
    if (get().loading) return;
    await readWithLoading(set, async () => {
      set({ list: await call('tokens:list', {}), error: null });
    });
  },
  setFilter: (filter) => set({ filter }),
}));

export const selectTokensList = (s: TokensStore): TokensList | null => s.list;
export const selectTokensFilter = (s: TokensStore): string => s.filter;
