import { create } from 'zustand';

/** Every page of the terminal, in rail order; this release builds `wallet` and `tokens`. */
export const pageIds = [
  'leaderboard',
  'trader',
  'live',
  'tokens',
  'copy',
  'wallets',
  'wallet',
  'settings',
] as const;
export type PageId = (typeof pageIds)[number];

/** The page a fresh window opens on: the login wallet, where this release's flow starts. */
export const DEFAULT_PAGE: PageId = 'wallet';

const isPageId = (value: string): value is PageId => (pageIds as readonly string[]).includes(value);

/** `#/tokens` → `tokens`; anything else → null. The hash keeps the page across a reload. */
export function pageFromHash(hash: string): PageId | null {
  const match = /^#\/([a-z-]+)/.exec(hash);
  return match?.[1] && isPageId(match[1]) ? match[1] : null;
}

/** The href of a page, for links in the rail. */
export const hrefOf = (page: PageId): string => `#/${page}`;

interface NavigationStore {
  page: PageId;
  go(page: PageId): void;
}

/** The current page, mirrored in the address hash. */
export const useNavigation = create<NavigationStore>()((set) => ({
  page: pageFromHash(window.location.hash) ?? DEFAULT_PAGE,
  go(page) {
    if (window.location.hash !== hrefOf(page)) window.location.hash = hrefOf(page);
    set({ page });
  },
}));

/** Follows the address hash (links, back and forward); returns the function that stops it. */
export function followHash(): () => void {
  const onChange = (): void => {
    const page = pageFromHash(window.location.hash);
    if (page) useNavigation.setState({ page });
  };
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

export const selectPage = (s: NavigationStore): PageId => s.page;
