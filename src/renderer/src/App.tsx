import type { ReactElement } from 'react';
import { lazy, Suspense, useRef } from 'react';
import { Banners } from './components/Banners';
import { NavRail } from './components/NavRail';
import { Toasts } from './components/Toasts';
import { TopBar } from './components/TopBar';
import { PlaceholderPage } from './pages/PlaceholderPage';
import { pageEntry } from './pages/registry';
import { TokensPage } from './pages/tokens/TokensPage';
import { LeaderboardPage } from './pages/leaderboard/LeaderboardPage';
import { CommandPalette } from './components/palette/CommandPalette';
import { LoginKeyPage } from './pages/login-key/LoginKeyPage';
import { LivePage } from './pages/live/LivePage';
import { CopyPage } from './pages/copy/CopyPage';
import { FundsPage } from './pages/funds/FundsPage';
import { SettingsPage } from './pages/settings/SettingsPage';
// Static: a second lazy page would share the contract's schemas with the first, and the bundler
// would move them into a chunk evaluated before zod-config.ts (docs/ui.md, Backtest). Its charts
// are lazy instead.
import { BacktestPage } from './pages/backtest/BacktestPage';
import { selectPage, useNavigation, type PageId } from './stores/navigation';

// The trader page carries the chart library: fetched when first opened, not before the first paint.
const TraderPage = lazy(() => import('./pages/trader/TraderPage').then((m) => ({ default: m.TraderPage })));

function CurrentPage({ page }: { page: PageId }): ReactElement {
  switch (page) {
    case 'login-key':
      return <LoginKeyPage />;
    case 'tokens':
      return <TokensPage />;
    case 'leaderboard':
      return <LeaderboardPage />;
    case 'trader':
      return (
        <Suspense fallback={<div className="page" aria-busy="true" />}>
          <TraderPage />
        </Suspense>
      );
    case 'backtest':
      return <BacktestPage />;
    case 'live':
      return <LivePage />;
    case 'copy':
      return <CopyPage />;
    case 'funds':
      return <FundsPage />;
    case 'settings':
      return <SettingsPage />;
    default:
      return <PlaceholderPage page={pageEntry(page)} />;
  }
}

/** The frame: rail, top bar, banners, the current page and the toasts. */
export function App(): ReactElement {
  const page = useNavigation(selectPage);
  const main = useRef<HTMLElement>(null);
  return (
    <div className="app">
      <button type="button" className="skip-link" onClick={() => main.current?.focus()}>
        Skip to content
      </button>
      <NavRail />
      <div className="workspace">
        <TopBar />
        <Banners />
        <main ref={main} id="main" className="main" tabIndex={-1}>
          <CurrentPage key={page} page={page} />
        </main>
      </div>
      <Toasts />
      <CommandPalette />
    </div>
  );
}
