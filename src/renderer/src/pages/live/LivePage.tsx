import type { ReactElement } from 'react';
import { useMemo } from 'react';
import { EmptyState } from '@renderer/components/EmptyState';
import { LoginFirst } from '@renderer/components/LoginFirst';
import { LiveIcon } from '@renderer/components/icons';
import { ExportCsvButton } from '@renderer/components/ExportCsvButton';
import { DataTable } from '@renderer/components/table/DataTable';
import { useDebounced } from '@renderer/hooks/use-debounced';
import { useNow } from '@renderer/hooks/use-now';
import { useTokenList } from '@renderer/hooks/use-token-list';
import { useVisibleInterval } from '@renderer/hooks/use-visible-interval';
import { useChannel } from '@renderer/ipc/use-channel';
import { useLive } from '@renderer/stores/live';
import { useNavigation } from '@renderer/stores/navigation';
import { useReloadOn } from '@renderer/stores/revisions';
import { isFiltered, liveRequest, pairsOf } from '@renderer/filters/live-filters';
import { orderColumns, positionColumns } from './live-columns';
import { FeedPanel } from './FeedPanel';
import { LiveFilterBar } from './LiveFilterBar';

/** The market moves every second; a few seconds keeps the feeds current without flooding the core. */
const REFRESH_MS = 5_000;

/** Top open positions, the live positions feed and the market-wide orders, filtered alike. */
export function LivePage(): ReactElement {
  const filters = useLive((s) => s.filters);
  const clearFilters = useLive((s) => s.clearFilters);
  const autoRefresh = useLive((s) => s.autoRefresh);
  const tokens = useTokenList();
  const openTrader = useNavigation((s) => s.openTrader);
  const openRow = (row: { protocol: string; account: string }): void =>
    openTrader({ protocol: row.protocol, account: row.account });
  const now = useNow(5_000);

  // Typing in the pair or size box refetches once the typing pauses.
  const settled = useDebounced(filters, 350);
  const request = useMemo(() => liveRequest(settled), [settled]);
  const top = useChannel('live:top', request);
  const feed = useChannel('live:positions', request);
  const orders = useChannel('live:orders', request);
  const { reload: reloadTop } = top;
  const { reload: reloadFeed } = feed;
  const { reload: reloadOrders } = orders;
  const reloadAll = (): void => {
    reloadTop();
    reloadFeed();
    reloadOrders();
  };
  // The market's feeds need a session (or the profile's API key): a login reads them again.
  useReloadOn('session', reloadAll);
  const needsLogin = [top, feed, orders].some(
    (f) => f.data === null && (f.error?.code === 'NOT_LOGGED_IN' || f.error?.code === 'UNAUTHORIZED'),
  );
  useVisibleInterval(reloadAll, REFRESH_MS, autoRefresh && !needsLogin);

  const topColumns = useMemo(() => positionColumns(now, 'top'), [now]);
  const feedColumns = useMemo(() => positionColumns(now, 'feed'), [now]);
  const orderCols = useMemo(() => orderColumns(now), [now]);

  const protocols = useMemo(() => (tokens?.groups ?? []).map((g) => g.protocol).sort(), [tokens]);
  const pairs = useMemo(
    () => pairsOf([...(top.data?.data ?? []), ...(feed.data?.data ?? []), ...(orders.data?.data ?? [])]),
    [top.data, feed.data, orders.data],
  );
  const filtered = isFiltered(filters);

  const noMatch = (what: string): ReactElement => (
    <EmptyState
      title={filtered ? `No ${what} match these filters` : `No ${what} right now`}
      icon={<LiveIcon />}
      action={
        filtered ? (
          <button type="button" className="button" onClick={clearFilters}>
            Clear filters
          </button>
        ) : undefined
      }
    >
      <p>
        {filtered
          ? 'Widen the filters: another protocol, both sides, or a smaller minimum size.'
          : 'The feed fills as traders open and close positions; it refreshes by itself.'}
      </p>
    </EmptyState>
  );

  return (
    <section className="page page-wide" aria-labelledby="page-title">
      <header className="page-header page-header-row">
        <div>
          <h1 id="page-title">Live</h1>
          <p className="page-lede">
            What the market’s traders hold and do right now: the largest open positions, positions as they
            open and close, and every order. Click a row to open its trader.
          </p>
        </div>
      </header>

      <LiveFilterBar protocols={protocols} pairs={pairs} refreshMs={REFRESH_MS} onRefresh={reloadAll} />

      {needsLogin ? (
        <LoginFirst
          what="the live market"
          why="The service serves its live positions and orders to logged-in users (or to a profile with an API key). Logging in signs a message with your login key — no transaction, no fee."
          testId="live-login"
        />
      ) : (
        <>
          <FeedPanel
            title="Top open positions"
            hint="largest open positions first"
            testId="live-top"
            actions={
              <ExportCsvButton
                columns={topColumns}
                rows={top.data?.data ?? []}
                name="live-top-positions"
                noun="positions"
                testId="live-top-export"
              />
            }
            freshness={top.freshness}
            total={top.data?.meta.total ?? null}
            shown={top.data?.data.length ?? 0}
            error={top.error}
            hasData={top.data !== null}
            retrying={top.loading}
            onRetry={reloadTop}
          >
            <DataTable
              rows={top.data?.data ?? []}
              columns={topColumns}
              rowKey={(p) => p.id}
              loading={top.data === null && top.error === null}
              empty={noMatch('open positions')}
              height={360}
              onRowOpen={openRow}
              testId="live-top-table"
              ariaLabel="Top open positions"
            />
          </FeedPanel>

          <div className="live-feeds">
            <FeedPanel
              title="Positions"
              hint="opened and closed, newest first"
              testId="live-positions"
              actions={
                <ExportCsvButton
                  columns={feedColumns}
                  rows={feed.data?.data ?? []}
                  name="live-positions"
                  noun="positions"
                  testId="live-positions-export"
                />
              }
              freshness={feed.freshness}
              total={feed.data?.meta.total ?? null}
              shown={feed.data?.data.length ?? 0}
              error={feed.error}
              hasData={feed.data !== null}
              retrying={feed.loading}
              onRetry={reloadFeed}
            >
              <DataTable
                rows={feed.data?.data ?? []}
                columns={feedColumns}
                rowKey={(p) => p.id}
                loading={feed.data === null && feed.error === null}
                empty={noMatch('positions')}
                height={420}
                onRowOpen={openRow}
                testId="live-positions-table"
                ariaLabel="Live positions"
              />
            </FeedPanel>
            <FeedPanel
              title="Orders"
              hint="every trader’s orders, newest first"
              testId="live-orders"
              actions={
                <ExportCsvButton
                  columns={orderCols}
                  rows={orders.data?.data ?? []}
                  name="live-orders"
                  noun="orders"
                  testId="live-orders-export"
                />
              }
              freshness={orders.freshness}
              total={orders.data?.meta.total ?? null}
              shown={orders.data?.data.length ?? 0}
              error={orders.error}
              hasData={orders.data !== null}
              retrying={orders.loading}
              onRetry={reloadOrders}
            >
              <DataTable
                rows={orders.data?.data ?? []}
                columns={orderCols}
                rowKey={(o) => o.id}
                loading={orders.data === null && orders.error === null}
                empty={noMatch('orders')}
                height={420}
                onRowOpen={openRow}
                testId="live-orders-table"
                ariaLabel="Live orders"
              />
            </FeedPanel>
          </div>
        </>
      )}
    </section>
  );
}
