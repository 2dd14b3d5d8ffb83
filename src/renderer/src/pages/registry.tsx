import type { ReactElement } from 'react';
import {
  CopyTradeIcon,
  KeyIcon,
  LeaderboardIcon,
  LiveIcon,
  SettingsIcon,
  TokensIcon,
  TraderIcon,
  WalletsIcon,
} from '@renderer/components/icons';
import type { PageId } from '@renderer/stores/navigation';
import { BacktestIcon } from './backtest/BacktestIcon';

export interface PageEntry {
  id: PageId;
  label: string;
  /** The end-to-end tests' handle on the rail link. */
  testId: string;
  icon: () => ReactElement;
  section: 'Markets' | 'Copy' | 'Account';
  /** One sentence on what the page does; pages not built yet show it as their empty state. */
  purpose: string;
  built: boolean;
}

/** The rail, in order. Adding a page is one entry here and one case in `App.tsx`. */
export const pages: readonly PageEntry[] = [
  {
    id: 'leaderboard',
    label: 'Leaderboard',
    testId: 'nav-leaderboard',
    icon: LeaderboardIcon,
    section: 'Markets',
    purpose:
      'Ranks traders by PnL, ROI, win rate and drawdown over 7 to 60 days, so you can choose whom to follow.',
    built: true,
  },
  {
    id: 'trader',
    label: 'Trader',
    testId: 'nav-trader',
    icon: TraderIcon,
    section: 'Markets',
    purpose: "Shows one trader's statistics, percentile rankings, daily PnL and full position history.",
    built: true,
  },
  {
    id: 'live',
    label: 'Live',
    testId: 'nav-live',
    icon: LiveIcon,
    section: 'Markets',
    purpose:
      'Streams the largest open positions, positions as they open and close, and every order, filtered.',
    built: true,
  },
  {
    id: 'tokens',
    label: 'Tokens',
    testId: 'nav-tokens',
    icon: TokensIcon,
    section: 'Markets',
    purpose: 'Lists the tradable tokens of every protocol with their index token addresses.',
    built: true,
  },
  {
    id: 'backtest',
    label: 'Backtest',
    testId: 'nav-backtest',
    icon: BacktestIcon,
    section: 'Copy',
    purpose:
      'Replays traders’ stored orders with your copy settings and costs, and sweeps settings to see which would have worked.',
    built: true,
  },
  {
    id: 'copy',
    label: 'Copy trading',
    testId: 'nav-copy',
    icon: CopyTradeIcon,
    section: 'Copy',
    purpose:
      "Creates and tunes copy trades that mirror a trader's positions with your own size and risk limits.",
    built: true,
  },
  {
    id: 'funds',
    label: 'Funds',
    testId: 'nav-funds',
    icon: WalletsIcon,
    section: 'Copy',
    purpose: 'Lists the copy wallets that fund your copy trades, with their balances and withdrawals.',
    built: true,
  },
  {
    id: 'login-key',
    label: 'Login key',
    testId: 'nav-login-key',
    icon: KeyIcon,
    section: 'Account',
    purpose: 'Holds the login key that signs you in to the service.',
    built: true,
  },
  {
    id: 'settings',
    label: 'Settings',
    testId: 'nav-settings',
    icon: SettingsIcon,
    section: 'Account',
    purpose: 'Chooses the service to connect to (local or remote), the data folder and display preferences.',
    built: true,
  },
];

/** The entry of a page; every PageId has one. */
export function pageEntry(id: PageId): PageEntry {
  const entry = pages.find((p) => p.id === id);
  if (!entry) throw new Error(`No rail entry for page ${id}`);
  return entry;
}
