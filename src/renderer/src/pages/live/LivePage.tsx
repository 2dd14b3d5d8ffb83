import type { ReactElement, ReactNode } from 'react';
import { useId, useMemo } from 'react';
import type { Order, Position } from '@shared/api/positions';
import type { Freshness as FreshnessValue } from '@shared/ipc/schemas/freshness';
import type { AppError } from '@shared/result';
import { Address } from '@renderer/components/Address';
import { EmptyState, ReadFailed } from '@renderer/components/EmptyState';
import { LoginFirst } from '@renderer/components/LoginFirst';
import { Freshness } from '@renderer/components/Freshness';
import { LiveIcon, RefreshIcon } from '@renderer/components/icons';
import { Segmented, Toggle } from '@renderer/components/Toggle';
import { ExportCsvButton } from '@renderer/components/ExportCsvButton';
import { DataTable, type Column } from '@renderer/components/table/DataTable';
import { orderColumn } from '@renderer/components/table/order-columns';
import { ORDER_COLUMNS } from '@shared/api/order-columns';
import {
  leverageColumn,
  priceColumn,
  sideColumn,
  signedPercentColumn,
  symbolColumn,
  usdColumn,
} from '@renderer/components/table/column-kinds';
import { formatAge } from '@renderer/format/age';
import { formatInteger } from '@renderer/format/number';
import { formatTimestamp } from '@renderer/format/time';
import { useDebounced } from '@renderer/hooks/use-debounced';
import { useNow } from '@renderer/hooks/use-now';
import { useTokenList } from '@renderer/hooks/use-token-list';
import { useVisibleInterval } from '@renderer/hooks/use-visible-interval';
import { useChannel } from '@renderer/ipc/use-channel';
import { useLive } from '@renderer/stores/live';
import { useNavigation } from '@renderer/stores/navigation';
import { useReloadOn } from '@renderer/stores/revisions';
import {
  isFiltered,
  liveRequest,
  minSizeProblem,
  pairsOf,
  type LiveSide,
} from '@renderer/filters/live-filters';

/** The market moves every second; a few seconds keeps the feeds current without flooding the core. */
const REFRESH_MS = 5_000;

const SIDES: readonly { value: LiveSide; label: string }[] = [
  { value: 'BOTH', label: 'Both' },
  { value: 'LONG', label: 'Long' },
  { value: 'SHORT', label: 'Short' },
];

const ago = (iso: string | null | undefined, now: number): string =>
  iso ? `${formatAge(iso, now)} ago` : '—';

const trader: Column<Position> = {
  id: 'account',
  label: 'Trader',
  width: 150,
  value: (p) => p.account,
  render: (p) => <Address address={p.account} />,
};

function positionColumns(now: number, kind: 'top' | 'feed'): Column<Position>[] {
  const columns: Column<Position>[] = [
    trader,
    { id: 'protocol', label: 'Protocol', width: 116, sortable: true, value: (p) => p.protocol },
    symbolColumn({ width: 96, get: (p) => p.pair }),
    sideColumn({ width: 70, isLong: (p) => p.isLong }),
    usdColumn({
      id: 'size',
      label: 'Size',
      title: 'Peak notional of the position in USD',
      width: 104,
      sortable: true,
      compact: true,
      get: (p) => p.size,
    }),
    leverageColumn({
      id: 'leverage',
      label: 'Lev.',
      title: 'Size / collateral',
      width: 64,
      sortable: true,
      get: (p) => p.leverage,
    }),
  ];
  if (kind === 'top') {
    columns.push(
      usdColumn({
        id: 'collateral',
        label: 'Collateral',
        width: 104,
        sortable: true,
        compact: true,
        get: (p) => p.collateral,
      }),
      priceColumn({
        id: 'entry',
        label: 'Entry',
        title: 'Average entry price',
        width: 100,
        sortable: true,
        get: (p) => p.averagePrice,
      }),
    );
  }
  columns.push(
    usdColumn({
      id: 'pnl',
      // An open position's pnl is what it has realised so far, less fees: the API gives no mark
      // price, so its open part is not marked to market (docs/semantics.md, Positions).
      label: kind === 'top' ? 'PnL so far' : 'PnL',
      title:
        kind === 'top'
          ? 'Realised part − fees + funding so far; the open part is not marked to market'
          : 'realised PnL − fees + funding; for an open position, so far (the open part is not marked to market)',
      width: 108,
      sortable: true,
      signed: true,
      get: (p) => p.pnl,
    }),
    signedPercentColumn({
      id: 'roi',
      label: 'ROI',
      title: 'PnL / collateral',
      width: 80,
      sortable: true,
      get: (p) => p.roi,
    }),
  );
  if (kind === 'feed') {
    columns.push({
      id: 'status',
      label: 'Status',
      width: 86,
      value: (p) => p.status,
      render: (p) => (
        <span className={`tag ${p.status === 'OPEN' ? 'tag-accent' : ''}`}>
          {p.status === 'OPEN' ? 'OPEN' : 'CLOSED'}
        </span>
      ),
    });
  }
  columns.push({
    id: 'time',
    label: kind === 'top' ? 'Opened' : 'Updated',
    align: 'right',
    width: 90,
    sortable: true,
    value: (p) => (kind === 'top' ? p.openBlockTime : (p.updatedAt ?? p.closeBlockTime ?? p.openBlockTime)),
    render: (p) => {
      const at = kind === 'top' ? p.openBlockTime : (p.updatedAt ?? p.closeBlockTime ?? p.openBlockTime);
      return (
        <span className="muted num" title={formatTimestamp(at)}>
          {ago(at, now)}
        </span>
      );
    },
  });
  return columns;
}

function orderColumns(now: number): Column<Order>[] {
  return [
    {
      id: 'time',
      label: ORDER_COLUMNS.blockTime.label,
      width: 84,
      sortable: true,
      value: (o) => o.blockTime,
      render: (o) => (
        <span className="muted num" title={formatTimestamp(o.blockTime)}>
          {ago(o.blockTime, now)}
        </span>
      ),
    },
    {
      id: 'account',
      label: 'Trader',
      width: 150,
      value: (o) => o.account,
      render: (o) => <Address address={o.account} />,
    },
    { id: 'protocol', label: 'Protocol', width: 116, sortable: true, value: (o) => o.protocol },
    symbolColumn({ width: 96, get: (o) => o.pair }),
    orderColumn('type', { width: 96 }),
    sideColumn({ width: 70, isLong: (o) => o.isLong }),
    orderColumn('sizeDelta', { width: 100, sortable: true, compact: true }),
    orderColumn('price', { width: 96, sortable: true }),
    orderColumn('realisedPnl', { width: 100, sortable: true }),
  ];
}

interface FeedPanelProps {
  title: string;
  hint: string;
  testId: string;
  freshness: FreshnessValue | null;
  total: number | null;
  shown: number;
  error: AppError | null;
  hasData: boolean;
  /** A read is under way: the Retry button says so. */
  retrying: boolean;
  onRetry: () => void;
  children: ReactElement;
  /** The panel's export button. */
  actions?: ReactNode;
}

function FeedPanel({
  title,
  hint,
  testId,
  freshness,
  total,
  shown,
  error,
  hasData,
  retrying,
  onRetry,
  actions,
  children,
}: FeedPanelProps): ReactElement {
  const titleId = useId();
  return (
    <section className="panel live-panel" aria-labelledby={titleId} data-testid={testId}>
      <header className="panel-header">
        <div className="panel-heading">
          <h2 id={titleId}>{title}</h2>
          <span className="panel-hint">{hint}</span>
        </div>
        <div className="panel-header-end">
          {total !== null ? (
            <span className="panel-count num">
              {total > shown ? `${shown} of ${formatInteger(total)}` : `${shown}`}
            </span>
          ) : null}
          {actions}
          {error && !hasData ? null : <Freshness freshness={freshness} testId={`${testId}-freshness`} />}
        </div>
      </header>
      {error && !hasData ? (
        <ReadFailed
          title={`${title} could not be loaded`}
          message={error.message}
          retrying={retrying}
          onRetry={onRetry}
        />
      ) : (
        children
      )}
    </section>
  );
}

/** Top open positions, the live positions feed and the market-wide orders, filtered alike. */
export function LivePage(): ReactElement {
  const filters = useLive((s) => s.filters);
  const setFilters = useLive((s) => s.setFilters);
  const clearFilters = useLive((s) => s.clearFilters);
  const autoRefresh = useLive((s) => s.autoRefresh);
  const setAutoRefresh = useLive((s) => s.setAutoRefresh);
  const tokens = useTokenList();
  const openTrader = useNavigation((s) => s.openTrader);
  const openRow = (row: { protocol: string; account: string }): void =>
    openTrader({ protocol: row.protocol, account: row.account });
  const now = useNow(5_000);
  const protocolId = useId();
  const pairId = useId();
  const sizeId = useId();
  const pairListId = useId();

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
  const sizeProblem = minSizeProblem(filters.minSize);
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

      <div className="toolbar filter-bar" role="search" aria-label="Filter the live feeds">
        <div className="filter-field">
          <label htmlFor={protocolId} className="field-label">
            Protocol
          </label>
          <select
            id={protocolId}
            className="input select"
            value={filters.protocol}
            onChange={(e) => setFilters({ protocol: e.target.value })}
            data-testid="live-filter-protocol"
          >
            <option value="">All protocols</option>
            {protocols.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </div>
        <div className="filter-field">
          <label htmlFor={pairId} className="field-label">
            Pair
          </label>
          <input
            id={pairId}
            className="input filter-pair"
            list={pairListId}
            value={filters.pair}
            onChange={(e) => setFilters({ pair: e.target.value })}
            placeholder="Any, e.g. BTC/USD"
            autoComplete="off"
            spellCheck={false}
            data-testid="live-filter-pair"
          />
          <datalist id={pairListId}>
            {pairs.map((p) => (
              <option key={p} value={p} />
            ))}
          </datalist>
        </div>
        <div className="filter-field">
          <span className="field-label">Side</span>
          <Segmented
            value={filters.side}
            options={SIDES}
            onChange={(side) => setFilters({ side })}
            label="Side"
            testId="live-filter-side"
          />
        </div>
        <div className="filter-field">
          <label htmlFor={sizeId} className="field-label">
            Min size (USD)
          </label>
          <input
            id={sizeId}
            className={`input filter-size num${sizeProblem ? ' is-invalid' : ''}`}
            value={filters.minSize}
            onChange={(e) => setFilters({ minSize: e.target.value })}
            placeholder="0"
            inputMode="decimal"
            autoComplete="off"
            aria-invalid={sizeProblem ? true : undefined}
            aria-describedby={sizeProblem ? `${sizeId}-error` : undefined}
            data-testid="live-filter-min-size"
          />
          {sizeProblem ? (
            <p id={`${sizeId}-error`} className="field-error filter-error" role="alert">
              {sizeProblem}
            </p>
          ) : null}
        </div>
        <div className="toolbar-end filter-end">
          {filtered ? (
            <button
              type="button"
              className="button button-small"
              onClick={clearFilters}
              data-testid="live-clear-filters"
            >
              Clear filters
            </button>
          ) : null}
          <Toggle
            checked={autoRefresh}
            onChange={setAutoRefresh}
            label={`Auto-refresh ${REFRESH_MS / 1000} s`}
            testId="live-auto-refresh"
          />
          <button
            type="button"
            className="button button-small"
            onClick={reloadAll}
            aria-label="Refresh the live feeds now"
          >
            <RefreshIcon />
            Refresh
          </button>
        </div>
      </div>

      {needsLogin ? (
        <LoginFirst
          what="the live market"
          why="The service serves its live positions and orders to logged-in users (or to a profile with an API key). Logging in signs a message with your wallet — no transaction, no fee."
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
