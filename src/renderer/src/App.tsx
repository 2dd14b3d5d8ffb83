import type { ReactElement } from 'react';
import { useRef } from 'react';
import { Banners } from './components/Banners';
import { NavRail } from './components/NavRail';
import { Toasts } from './components/Toasts';
import { TopBar } from './components/TopBar';
import { PlaceholderPage } from './pages/PlaceholderPage';
import { pageEntry } from './pages/registry';
import { TokensPage } from './pages/tokens/TokensPage';
import { WalletPage } from './pages/wallet/WalletPage';
import { selectPage, useNavigation, type PageId } from './stores/navigation';

function CurrentPage({ page }: { page: PageId }): ReactElement {
  switch (page) {
    case 'wallet':
      return <WalletPage />;
    case 'tokens':
      return <TokensPage />;
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
    </div>
  );
}
