import { create } from 'zustand';

/** Every page of the terminal, in rail order. */
export const pageIds = [
  'leaderboard',
  'trader',
  'live',
  'tokens',
  'backtest',
  'copy',
  'funds',
  'login-key',
  'settings',
] as const;
export type PageId = (typeof pageIds)[number];

/** The page a fresh window opens on: the leaderboard, where choosing whom to follow starts. */
export const DEFAULT_PAGE: PageId = 'leaderboard';

const isPageId = (value: string): value is PageId => (pageIds as readonly string[]).includes(value);

/**
 * The pages' former names (docs/ui.md, "Funds and Login key"): an address saved or bookmarked
 * under them still opens the page.
 */
const FORMER_PAGE_IDS: ReadonlyMap<string, PageId> = new Map([
  ['wallets', 'funds'],
  ['wallet', 'login-key'],
]);

/** `#/tokens` → `tokens`; anything else → null. The hash keeps the page across a reload. */
export function pageFromHash(hash: string): PageId | null {
  const match = /^#\/([a-z-]+)/.exec(hash);
  const id = match?.[1];
  if (!id) return null;
  return isPageId(id) ? id : (FORMER_PAGE_IDS.get(id) ?? null);
}

/** The href of a page, for links in the rail. */
export const hrefOf = (page: PageId): string => `#/${page}`;

/** One trader of one protocol: what the trader page shows. */
export interface TraderRef {
  protocol: string;
  account: string;
}

/** `#/trader/NOVA_ARB/0xabc…` → that trader; anything else → null. */
export function traderFromHash(hash: string): TraderRef | null {
  const match = /^#\/trader\/([A-Z][A-Z0-9_]{0,63})\/([A-Za-z0-9]{20,100})$/.exec(hash);
  return match?.[1] && match[2] ? { protocol: match[1], account: match[2] } : null;
}

/** The href of a trader's page: reloads and links land on the same trader. */
export const hrefOfTrader = (ref: TraderRef): string => `#/trader/${ref.protocol}/${ref.account}`;

interface NavigationStore {
  page: PageId;
  /** The trader the trader page shows; kept while other pages are open. */
  trader: TraderRef | null;
  go(page: PageId): void;
  /** Opens the trader page on `ref`. */
  openTrader(ref: TraderRef): void;
}

const initialHash = typeof window === 'undefined' ? '' : window.location.hash;

/** The current page, mirrored in the address hash. */
export const useNavigation = create<NavigationStore>()((set, get) => ({
  page: pageFromHash(initialHash) ?? DEFAULT_PAGE,
  trader: traderFromHash(initialHash),
  go(page) {
    const trader = get().trader;
    const href = page === 'trader' && trader ? hrefOfTrader(trader) : hrefOf(page);
    if (window.location.hash !== href) window.location.hash = href;
    set({ page });
  },
  openTrader(ref) {
    const href = hrefOfTrader(ref);
    if (window.location.hash !== href) window.location.hash = href;
    set({ page: 'trader', trader: ref });
  },
}));

/** Follows the address hash (links, back and forward); returns the function that stops it. */
export function followHash(): () => void {
  const onChange = (): void => {
    const page = pageFromHash(window.location.hash);
    // A bare `#/trader` (the rail link) keeps the trader last shown.
    const trader = traderFromHash(window.location.hash);
    if (page && trader) useNavigation.setState({ page, trader });
    else if (page) useNavigation.setState({ page });
  };
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

export const selectPage = (s: NavigationStore): PageId => s.page;
