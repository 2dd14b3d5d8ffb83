import type { ReactElement } from 'react';
import { useEffect, useMemo } from 'react';
import { ReadFailed } from '@renderer/components/EmptyState';
import { LoginFirst } from '@renderer/components/LoginFirst';
import { Freshness } from '@renderer/components/Freshness';
import { Tabs } from '@renderer/components/Tabs';
import { formatUsd, signClass } from '@renderer/format/number';
import { useTokenList } from '@renderer/hooks/use-token-list';
import { useChannel } from '@renderer/ipc/use-channel';
import { useCopyPrefill } from '@renderer/stores/copy-prefill';
import { useCopyView, type CopyTab } from '@renderer/stores/copy-view';
import { useReloadOn } from '@renderer/stores/revisions';
import { selectSession, selectSessionKnown, useSession } from '@renderer/stores/session';
import type { WalletRecord } from '@renderer/pages/funds/wallet-view';
import { ActivityLogPanel } from './ActivityLogPanel';
import { CopyPositionsPanel } from './CopyPositionsPanel';
import { CopyTradeForm } from './CopyTradeForm';
import { CopyTradesPanel } from './CopyTradesPanel';

const EMPTY_REQUEST = {};

function QuotaMeter({ running, quota }: { running: number; quota: number }): ReactElement {
  const full = running >= quota;
  return (
    <div
      className={`quota${full ? ' is-full' : ''}`}
      data-testid="copy-quota"
      title="Running copy trades / the quota of your plan"
    >
      <span className="quota-label">Running</span>
      <span className="quota-value num">
        {running} / {quota}
      </span>
      <span className="quota-track" aria-hidden="true">
        <span
          className="quota-fill"
          style={{ width: `${Math.min(100, (running / Math.max(1, quota)) * 100)}%` }}
        />
      </span>
    </div>
  );
}

/** Copy trades, their positions and their activity, for the logged-in user. */
export function CopyPage(): ReactElement {
  const session = useSession(selectSession);
  const known = useSession(selectSessionKnown);
  const tab = useCopyView((s) => s.tab);
  const setTab = useCopyView((s) => s.setTab);
  const form = useCopyView((s) => s.form);
  const setView = useCopyView((s) => s.set);
  const tokens = useTokenList();

  const trades = useChannel('copyTrades:list', session ? EMPTY_REQUEST : null);
  const wallets = useChannel('wallets:list', session ? EMPTY_REQUEST : null);
  useReloadOn('copy', trades.reload);
  useReloadOn('wallets', wallets.reload);

  // "Copy this trader" (trader page, leaderboard) hands over the trader: open the form with it.
  useEffect(() => {
    const prefill = useCopyPrefill.getState().take();
    if (prefill)
      setView({
        tab: 'trades',
        form: {
          mode: 'create',
          account: prefill.account,
          protocol: prefill.protocol,
          ...(prefill.values && { values: prefill.values }),
        },
      });
  }, [setView]);

  const list = trades.data;
  const walletList = useMemo(
    () => (wallets.data ? (wallets.data.copyWallets as WalletRecord[]) : null),
    [wallets.data],
  );
  const walletNames = useMemo(() => new Map((walletList ?? []).map((w) => [w.id, w.name])), [walletList]);
  const running = (list ?? []).filter((t) => t.status === 'RUNNING').length;
  const quota = session?.copyTradeQuota ?? null;
  const totals = useMemo(
    () =>
      (list ?? []).reduce(
        (s, t) => ({ pnl: s.pnl + t.pnl, pnl7D: s.pnl7D + t.pnl7D, pnl30D: s.pnl30D + t.pnl30D }),
        { pnl: 0, pnl7D: 0, pnl30D: 0 },
      ),
    [list],
  );
  const editing = form?.mode === 'edit' ? (list?.find((t) => t.id === form.id) ?? null) : null;
  const openNew = (): void => setView({ form: { mode: 'create' } });

  const header = (
    <header className="page-header page-header-row">
      <div>
        <h1 id="page-title">Copy trading</h1>
        <p className="page-lede">Mirror traders’ positions with your own margin, leverage and exits.</p>
      </div>
      {session ? (
        <div className="page-header-end">
          {quota !== null && list ? <QuotaMeter running={running} quota={quota} /> : null}
          <button
            type="button"
            className="button button-primary"
            onClick={openNew}
            title={
              quota !== null && running >= quota
                ? 'Your quota is full: stop a copy trade to create another.'
                : undefined
            }
            data-testid="copy-new"
          >
            New copy trade
          </button>
        </div>
      ) : null}
    </header>
  );

  if (!known) {
    return (
      <section className="page" aria-labelledby="page-title" aria-busy="true">
        {header}
        <div className="panel panel-body">
          <span className="skeleton" style={{ width: '40%' }} />
        </div>
      </section>
    );
  }
  if (!session) {
    return (
      <section className="page" aria-labelledby="page-title">
        {header}
        <LoginFirst what="your copy trades" />
      </section>
    );
  }

  const tabs: { value: CopyTab; label: string; count?: number | null }[] = [
    { value: 'trades', label: 'Copy trades', count: list?.length ?? null },
    { value: 'positions', label: 'Positions' },
    { value: 'activity', label: 'Activity log' },
  ];

  return (
    <section className="page page-wide" aria-labelledby="page-title">
      {header}

      <div className="stat-strip" data-testid="copy-totals">
        <div className="stat">
          <span className="stat-label" title="Σ PnL of every copy trade, with the open positions marked">
            PnL, all time
          </span>
          <span className={`stat-value num ${signClass(totals.pnl)}`}>
            {list ? formatUsd(totals.pnl, { signed: true }) : '—'}
          </span>
        </div>
        <div className="stat">
          <span className="stat-label">Closed, 7 days</span>
          <span className={`stat-value num ${signClass(totals.pnl7D)}`}>
            {list ? formatUsd(totals.pnl7D, { signed: true }) : '—'}
          </span>
        </div>
        <div className="stat">
          <span className="stat-label">Closed, 30 days</span>
          <span className={`stat-value num ${signClass(totals.pnl30D)}`}>
            {list ? formatUsd(totals.pnl30D, { signed: true }) : '—'}
          </span>
        </div>
        <div className="stat">
          <span className="stat-label">Copy trades</span>
          <span className="stat-value num">
            {list ? `${running} running · ${list.length - running} stopped` : '—'}
          </span>
        </div>
        <div className="stat stat-end">
          <Freshness freshness={trades.freshness} testId="copy-trades-freshness" />
        </div>
      </div>

      <div className="panel">
        <Tabs
          value={tab}
          tabs={tabs}
          onChange={setTab}
          label="Copy trading views"
          idPrefix="copy"
          testId="copy-tabs"
        />
        <div
          role="tabpanel"
          id={`copy-panel-${tab}`}
          aria-labelledby={`copy-tab-${tab}`}
          className="tab-panel"
        >
          {tab === 'trades' ? (
            trades.error && !list ? (
              <ReadFailed
                title="Your copy trades could not be loaded"
                message={trades.error.message}
                retrying={trades.loading}
                onRetry={trades.reload}
              />
            ) : (
              <CopyTradesPanel
                trades={list}
                loading={trades.loading}
                walletNames={walletNames}
                running={running}
                quota={quota}
                onNew={openNew}
              />
            )
          ) : tab === 'positions' ? (
            <CopyPositionsPanel trades={list} wallets={walletList} />
          ) : (
            <ActivityLogPanel trades={list} />
          )}
        </div>
      </div>

      {form && (form.mode === 'create' || editing) ? (
        <CopyTradeForm
          // A new form (another trade, another prefill) starts from its own values.
          key={form.mode === 'edit' ? form.id : `new:${form.account ?? ''}:${form.protocol ?? ''}`}
          form={form}
          trade={editing}
          wallets={walletList}
          tokens={tokens}
          running={running}
          quota={quota}
          onClose={() => setView({ form: null })}
        />
      ) : null}
    </section>
  );
}
