import type { ReactElement } from 'react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Window } from '@shared/api/common';
import { EmptyState, ReadFailed } from '@renderer/components/EmptyState';
import { Freshness } from '@renderer/components/Freshness';
import { LoginFirst } from '@renderer/components/LoginFirst';
import { LeaderboardIcon } from '@renderer/components/icons';
import { ColumnChooser } from '@renderer/components/table/ColumnChooser';
import { DataTable } from '@renderer/components/table/DataTable';
import { ExportCsvButton } from '@renderer/components/ExportCsvButton';
import { formatInteger } from '@renderer/format/number';
import { useTokenList } from '@renderer/hooks/use-token-list';
import { AssumedLeverageNote } from '@renderer/components/AssumedLeverage';
import { useDownloads } from '@renderer/stores/downloads';
import {
  DEFAULT_COLUMNS,
  MAX_ROWS,
  protocolsOf,
  useLeaderboard,
  type RankedRow,
} from '@renderer/stores/leaderboard';
import { useNavigation } from '@renderer/stores/navigation';
import { selectLoggedIn, useSession } from '@renderer/stores/session';
import { useTokens } from '@renderer/stores/tradable-tokens';
import { useTraderView } from '@renderer/stores/trader';
import { COLUMN_CHOICES, NOT_IN_CSV, chosenColumns } from './columns';
import { DownloadsMenu } from './DownloadsMenu';
import { FilterPanel, newFilterId } from './FilterPanel';
import { PresetsMenu } from './PresetsMenu';
import { ProtocolPicker } from './ProtocolPicker';
import { toRanges } from '@renderer/filters/range-filters';
import { WINDOW_LABELS, windowMeaning } from '@renderer/statistics/statistic-fields';
import { WindowTabs } from './WindowTabs';

const rowKey = (row: RankedRow): string => row.id;

/** A one-line progress of the downloads running, under the toolbar, while any runs. */
function DownloadStrip(): ReactElement | null {
  const states = useDownloads((s) => s.states);
  const running = states.filter((d) => d.state === 'running');
  if (running.length === 0) return null;
  const done = running.reduce((n, d) => n + d.downloaded, 0);
  const total = running.every((d) => d.total) ? running.reduce((n, d) => n + (d.total ?? 0), 0) : null;
  const share = total ? done / total : null;
  return (
    <div className="download-strip" role="status" data-testid="download-strip">
      <span>
        Downloading {running.length === 1 ? running[0]!.protocol : `${running.length} datasets`} for offline
        use
      </span>
      <div
        className="lb-progress"
        role="progressbar"
        aria-label="Offline download"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={share === null ? undefined : Math.round(share * 100)}
      >
        <span
          style={{ width: share === null ? '30%' : `${share * 100}%` }}
          className={share === null ? 'is-indeterminate' : ''}
        />
      </div>
      <span className="num muted">
        {formatInteger(done)}
        {total ? ` / ${formatInteger(total)}` : ''}
      </span>
    </div>
  );
}

/** Traders ranked by any statistic over a window, filtered by ranges, for choosing whom to follow. */
export function LeaderboardPage(): ReactElement {
  const known = useLeaderboard((s) => s.knownProtocols);
  const chosen = useLeaderboard((s) => s.chosenProtocols);
  const window = useLeaderboard((s) => s.window);
  const sort = useLeaderboard((s) => s.sort);
  const filters = useLeaderboard((s) => s.filters);
  const columnIds = useLeaderboard((s) => s.columns);
  const rows = useLeaderboard((s) => s.rows);
  const total = useLeaderboard((s) => s.total);
  const freshness = useLeaderboard((s) => s.freshness);
  const origin = useLeaderboard((s) => s.origin);
  const loading = useLeaderboard((s) => s.loading);
  const loadingMore = useLeaderboard((s) => s.loadingMore);
  const error = useLeaderboard((s) => s.error);
  const resultId = useLeaderboard((s) => s.resultId);
  const actions = useLeaderboard.getState;
  const tokens = useTokenList();
  const tokensError = useTokens((s) => s.error);
  const openTrader = useNavigation((s) => s.openTrader);
  const [showFilters, setShowFilters] = useState(filters.length > 0);

  // The protocols come from the token list; the last ones known are used until it answers.
  useEffect(() => {
    if (tokens) actions().setKnownProtocols(tokens.groups.map((g) => g.protocol));
  }, [tokens, actions]);
  // Coming back to the page keeps the rows loaded (and `data:fresh` keeps them current); a read
  // refused for want of a session runs again once logged in.
  const loggedIn = useSession(selectLoggedIn);
  useEffect(() => {
    const s = actions();
    if ((s.rows.length === 0 && !s.loading) || (loggedIn && s.error?.code === 'NOT_LOGGED_IN')) s.reload();
  }, [actions, loggedIn]);

  const protocols = protocolsOf({ chosenProtocols: chosen, knownProtocols: known });
  const columns = useMemo(() => {
    // One protocol: the protocol column says nothing.
    const ids = protocols.length === 1 ? columnIds.filter((c) => c !== 'protocol') : columnIds;
    return chosenColumns(ids, window);
  }, [columnIds, protocols.length, window]);
  const activeRanges = toRanges(filters).ranges.length;

  const onRowOpen = useCallback(
    (row: RankedRow) => {
      useTraderView.getState().setWindow(useLeaderboard.getState().window);
      openTrader({ protocol: row.protocol, account: row.account });
    },
    [openTrader],
  );
  const onSort = useCallback(
    (s: { column: string; direction: 'asc' | 'desc' }) =>
      actions().setSort({ field: s.column, direction: s.direction }),
    [actions],
  );
  const onEndReached = useCallback(() => actions().loadMore(), [actions]);

  const clearFilters = (): void => actions().setFilters([]);
  const empty =
    activeRanges > 0 ? (
      <EmptyState
        title="No trader matches these filters"
        icon={<LeaderboardIcon />}
        action={
          <button type="button" className="button" onClick={clearFilters}>
            Clear filters
          </button>
        }
      >
        <p>Loosen a range (a lower minimum, a higher maximum), or try a longer window.</p>
      </EmptyState>
    ) : (
      <EmptyState title={`No closed positions in ${WINDOW_LABELS[window]}`} icon={<LeaderboardIcon />}>
        <p>
          {windowMeaning(window)} None of the protocols picked has one yet: pick another window (All covers
          every closed position) or more protocols.
        </p>
      </EmptyState>
    );

  let body: ReactElement;
  if (protocols.length === 0 && !tokens) {
    body = tokensError ? (
      <div className="panel">
        <ReadFailed
          title="The protocols could not be listed"
          message={tokensError.message}
          retrying={false}
          onRetry={() => void useTokens.getState().load()}
        />
      </div>
    ) : (
      <DataTable
        rows={[]}
        columns={columns}
        rowKey={rowKey}
        loading
        ariaLabel="Traders"
        testId="leaderboard-table"
      />
    );
  } else if (protocols.length === 0) {
    body = (
      <div className="panel">
        <EmptyState title="No protocol listed yet" icon={<LeaderboardIcon />}>
          <p>
            The service lists no protocol to rank. Once it has imported market data, refresh the Tokens page.
          </p>
        </EmptyState>
      </div>
    );
  } else if (error?.code === 'NOT_LOGGED_IN' && rows.length === 0) {
    body = (
      <LoginFirst
        what="the leaderboard"
        why="The service shares trader statistics with signed-in users. Logging in signs a message with your login key — no transaction, no fee."
        testId="leaderboard-login"
      />
    );
  } else if (error && rows.length === 0) {
    body = (
      <div className="panel">
        <ReadFailed
          title="The leaderboard could not be loaded"
          message={error.message}
          retrying={loading}
          onRetry={() => actions().reload()}
        />
      </div>
    );
  } else {
    body = (
      <DataTable
        key={resultId}
        rows={rows}
        columns={columns}
        rowKey={rowKey}
        sort={{ column: sort.field, direction: sort.direction }}
        onSort={onSort}
        onRowOpen={onRowOpen}
        onEndReached={onEndReached}
        loading={loading && rows.length === 0}
        empty={empty}
        height="100%"
        ariaLabel={`Traders ranked by ${sort.field}`}
        testId="leaderboard-table"
      />
    );
  }

  const cap = total === null ? null : Math.min(total, MAX_ROWS);
  return (
    <section className="page page-fill" aria-labelledby="page-title" data-testid="leaderboard-page">
      <header className="page-header page-header-row">
        <div>
          <h1 id="page-title">Leaderboard</h1>
          <p className="page-lede">
            Every trader of the protocols picked, ranked over the window. Open a row for the trader’s history.
          </p>
        </div>
        {freshness || loading ? (
          <Freshness freshness={freshness} origin={origin ?? undefined} testId="leaderboard-freshness" />
        ) : null}
      </header>

      <div className="toolbar toolbar-wrap">
        <ProtocolPicker known={known} chosen={chosen} onChange={(p) => actions().setProtocols(p)} />
        <WindowTabs
          value={window}
          onChange={(w: Window) => actions().setWindow(w)}
          testId="leaderboard-window"
        />
        <button
          type="button"
          className={`button button-small${activeRanges > 0 ? ' is-on' : ''}`}
          aria-expanded={showFilters}
          onClick={() => {
            if (!showFilters && filters.length === 0)
              actions().setFilters([{ id: newFilterId(), field: 'winRate', min: '', max: '' }]);
            setShowFilters(!showFilters);
          }}
          data-testid="filters-toggle"
          data-page-filter
        >
          Filters
          {activeRanges > 0 ? <span className="count-badge">{activeRanges}</span> : null}
        </button>
        <PresetsMenu />
        <div className="toolbar-end">
          <span className="toolbar-summary num" aria-live="polite" data-testid="leaderboard-count">
            {total === null
              ? loading
                ? 'Loading…'
                : ''
              : total === 0
                ? 'No traders'
                : `${formatInteger(rows.length)} of ${formatInteger(total)} traders${
                    cap !== null && rows.length < cap && loadingMore ? ' · loading more…' : ''
                  }`}
          </span>
          <ColumnChooser
            columns={COLUMN_CHOICES}
            visible={columnIds}
            onChange={(ids) => actions().setColumns(ids)}
            defaults={DEFAULT_COLUMNS}
            testId="leaderboard-columns"
          />
          <DownloadsMenu protocols={protocols} window={window} />
          <ExportCsvButton
            columns={columns.filter((c) => !NOT_IN_CSV.has(c.id))}
            rows={rows}
            name={`leaderboard-${window}`}
            noun="traders"
            title="Save the loaded rows and the columns shown as a CSV file"
            testId="leaderboard-export"
          />
        </div>
      </div>
      {showFilters ? <FilterPanel /> : null}
      <DownloadStrip />
      <div
        className={`table-fill${loading && rows.length > 0 ? ' is-refreshing' : ''}`}
        aria-busy={loading || undefined}
        data-testid="leaderboard-body"
      >
        {body}
      </div>
      <AssumedLeverageNote protocols={protocols} testId="leaderboard-assumed-leverage" />
      {total !== null && total > MAX_ROWS && rows.length >= MAX_ROWS ? (
        <p className="field-hint">
          The first {formatInteger(MAX_ROWS)} of {formatInteger(total)} traders are listed: add a filter to
          narrow the rest.
        </p>
      ) : null}
    </section>
  );
}
