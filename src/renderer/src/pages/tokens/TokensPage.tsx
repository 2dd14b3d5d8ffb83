import type { ReactElement } from 'react';
import { useEffect, useId, useMemo } from 'react';
import { Address } from '@renderer/components/Address';
import { EmptyState } from '@renderer/components/EmptyState';
import { ExportCsvButton } from '@renderer/components/ExportCsvButton';
import type { Column } from '@renderer/components/table/DataTable';
import { RefreshIcon, SearchIcon, TokensIcon } from '@renderer/components/icons';
import { SkeletonRows } from '@renderer/components/Skeleton';
import { formatTimestamp } from '@renderer/format/time';
import { selectTokensFilter, selectTokensList, useTokens } from '@renderer/stores/tradable-tokens';
import { filterTokenGroups, splitMatch, type TokenGroupView } from './filter-tokens';

type TokenRow = TokenGroupView['tokens'][number];

/** The token table as CSV: one row per symbol, its index tokens joined by spaces. */
const TOKEN_CSV_COLUMNS: readonly Column<TokenRow>[] = [
  { id: 'symbol', label: 'Symbol', value: (t) => t.symbol },
  { id: 'indexTokens', label: 'Index tokens', value: (t) => t.indexTokens.join(' ') },
  { id: 'isForex', label: 'Forex', value: (t) => t.isForex },
];

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

function TokenTableHead(): ReactElement {
  return (
    <thead>
      <tr>
        <th scope="col" className="col-symbol">
          Symbol
        </th>
        <th scope="col">Index tokens</th>
        <th scope="col" className="col-flag">
          Forex
        </th>
      </tr>
    </thead>
  );
}

function TokenGroupSection({ group, query }: { group: TokenGroupView; query: string }): ReactElement {
  const titleId = useId();
  const filtered = group.tokens.length !== group.total;
  return (
    <section
      className="panel token-group"
      aria-labelledby={titleId}
      data-testid={`token-group-${group.protocol}`}
    >
      <header className="panel-header">
        <h2 id={titleId}>{group.protocol}</h2>
        <div className="toolbar-end">
          <span className="panel-count num">
            {filtered
              ? `${group.tokens.length} of ${plural(group.total, 'symbol', 'symbols')}`
              : plural(group.total, 'symbol', 'symbols')}
          </span>
          <ExportCsvButton
            columns={TOKEN_CSV_COLUMNS}
            rows={group.tokens}
            name={`tokens-${group.protocol}`}
            noun="tokens"
            testId={`token-export-${group.protocol}`}
          />
        </div>
      </header>
      {group.tokens.length === 0 ? (
        <p className="panel-text panel-body">The service lists no tokens for this protocol.</p>
      ) : (
        <table className="table">
          <TokenTableHead />
          <tbody>
            {group.tokens.map((token) => {
              const [before, match, after] = splitMatch(token.symbol, query);
              return (
                <tr key={`${token.symbol}:${token.indexTokens.join(',')}`} data-testid="token-row">
                  <td className="col-symbol">
                    <span className="symbol">
                      {before}
                      {match ? <mark>{match}</mark> : null}
                      {after}
                    </span>
                  </td>
                  <td>
                    {token.indexTokens.length === 0 ? (
                      <span className="muted">none</span>
                    ) : (
                      <span className="address-list">
                        {token.indexTokens.map((address) => (
                          <Address key={address} address={address} />
                        ))}
                      </span>
                    )}
                  </td>
                  <td className="col-flag">
                    {token.isForex ? (
                      <span className="tag tag-accent">FX</span>
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

function LoadingGroups(): ReactElement {
  return (
    <div className="token-groups" aria-busy="true">
      {[0, 1].map((i) => (
        <section key={i} className="panel token-group">
          <header className="panel-header">
            <span className="skeleton skeleton-title" />
          </header>
          <table className="table">
            <TokenTableHead />
            <tbody>
              <SkeletonRows rows={8} columns={3} />
            </tbody>
          </table>
        </section>
      ))}
    </div>
  );
}

/** Tradable tokens grouped by protocol, with a symbol filter. Works without logging in. */
export function TokensPage(): ReactElement {
  const list = useTokens(selectTokensList);
  const filter = useTokens(selectTokensFilter);
  const loading = useTokens((s) => s.loading);
  const error = useTokens((s) => s.error);
  const setFilter = useTokens((s) => s.setFilter);
  const load = useTokens((s) => s.load);
  const filterId = useId();

  // Opening the page refreshes the list; the core answers from its cache first.
  useEffect(() => {
    void load();
  }, [load]);

  const groups = useMemo(() => filterTokenGroups(list?.groups ?? [], filter), [list, filter]);
  const totalSymbols = list?.groups.reduce((n, g) => n + g.tokens.length, 0) ?? 0;
  const shownSymbols = groups.reduce((n, g) => n + g.tokens.length, 0);
  const query = filter.trim();

  let body: ReactElement;
  if (!list && error) {
    body = (
      <div className="panel">
        <EmptyState
          title="The token list could not be loaded"
          action={
            <button type="button" className="button" onClick={() => void load()} disabled={loading}>
              {loading ? 'Retrying…' : 'Retry'}
            </button>
          }
        >
          <p>{error.message}</p>
        </EmptyState>
      </div>
    );
  } else if (!list) {
    body = <LoadingGroups />;
  } else if (list.groups.length === 0) {
    body = (
      <div className="panel">
        <EmptyState title="No tokens listed" icon={<TokensIcon />}>
          <p>The service has no tradable tokens yet. Refresh once it has imported market data.</p>
        </EmptyState>
      </div>
    );
  } else if (groups.length === 0) {
    body = (
      <div className="panel">
        <EmptyState
          title={`No symbol contains “${query}”`}
          action={
            <button type="button" className="button" onClick={() => setFilter('')}>
              Clear filter
            </button>
          }
        >
          <p>
            Check the spelling, or clear the filter to see all {plural(totalSymbols, 'symbol', 'symbols')}.
          </p>
        </EmptyState>
      </div>
    );
  } else {
    body = (
      <div className="token-groups">
        {groups.map((group) => (
          <TokenGroupSection key={group.protocol} group={group} query={query} />
        ))}
      </div>
    );
  }

  return (
    <section className="page" aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">Tokens</h1>
        <p className="page-lede">
          Tradable tokens of every protocol and their index token addresses. No login needed.
        </p>
      </header>
      <div className="toolbar">
        <div className="search-field">
          <label htmlFor={filterId} className="visually-hidden">
            Filter by symbol
          </label>
          <SearchIcon />
          <input
            id={filterId}
            type="search"
            className="input"
            placeholder="Filter by symbol"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            data-testid="tokens-filter"
          />
        </div>
        {list ? (
          <p className="toolbar-summary num" aria-live="polite">
            {query
              ? `${plural(shownSymbols, 'symbol', 'symbols')} in ${plural(groups.length, 'protocol', 'protocols')}`
              : `${plural(list.groups.length, 'protocol', 'protocols')} · ${plural(totalSymbols, 'symbol', 'symbols')}`}
          </p>
        ) : null}
        <div className="toolbar-end">
          {list ? <span className="muted num">Updated {formatTimestamp(list.fetchedAt)}</span> : null}
          <button
            type="button"
            className="button button-small"
            onClick={() => void load()}
            disabled={loading}
            aria-label="Refresh the token list"
          >
            <RefreshIcon />
            {loading ? (list ? 'Refreshing…' : 'Loading…') : 'Refresh'}
          </button>
        </div>
      </div>
      {body}
    </section>
  );
}
