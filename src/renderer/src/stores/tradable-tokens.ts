import { create } from 'zustand';
import type { TokensList } from '@shared/ipc/contract';
import type { AppError } from '@shared/result';
import { requestKey } from '@shared/ipc/request-key';
import { call } from '@renderer/ipc/call';
import { subscribeFresh } from '@renderer/ipc/fresh-answers';
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

let listening = false;

/**
 * Tradable tokens grouped by protocol (`tokens:list`, needs no login). A cached list is followed
 * by its refresh (`data:fresh`): a protocol the service lists since (the venue feed's
 * HYPERLIQUID, once it stored the venue's tokens) reaches the pages that take their protocols
 * from here.
 */
export const useTokens = create<TokensStore>()((set, get) => {
  const listen = (): void => {
    if (listening) return;
    listening = true;
    const key = requestKey('tokens:list', {});
    subscribeFresh(
      'tokens:list',
      (fresh) => fresh === key,
      (answer) => {
        const value = answer.value as { data?: unknown; freshness?: { fetchedAt?: unknown } } | null;
        if (!Array.isArray(value?.data) || typeof value.freshness?.fetchedAt !== 'string') return;
        set({ list: { groups: value.data as TokensList['groups'], fetchedAt: value.freshness.fetchedAt } });
      },
    );
  };
  return {
    list: null,
    loading: false,
    error: null,
    filter: '',
    async load() {
      listen();
      if (get().loading) return;
      await readWithLoading(set, async () => {
        set({ list: await call('tokens:list', {}), error: null });
      });
    },
    setFilter: (filter) => set({ filter }),
  };
});

export const selectTokensList = (s: TokensStore): TokensList | null => s.list;
export const selectTokensFilter = (s: TokensStore): string => s.filter;
