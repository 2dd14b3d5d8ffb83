import type { ReactElement } from 'react';
import { useId } from 'react';
import { Segmented, Toggle } from '@renderer/components/Toggle';
import { RefreshIcon } from '@renderer/components/icons';
import { isFiltered, minSizeProblem, type LiveSide } from '@renderer/filters/live-filters';
import { useLive } from '@renderer/stores/live';

const SIDES: readonly { value: LiveSide; label: string }[] = [
  { value: 'BOTH', label: 'Both' },
  { value: 'LONG', label: 'Long' },
  { value: 'SHORT', label: 'Short' },
];

/**
 * The Live page's filter bar: protocol, pair, side and minimum size (shared by its three feeds),
 * clearing them, auto-refresh and a refresh now.
 */
export function LiveFilterBar({
  protocols,
  pairs,
  refreshMs,
  onRefresh,
}: {
  protocols: readonly string[];
  /** The pairs the feeds show now: the pair box's suggestions. */
  pairs: readonly string[];
  refreshMs: number;
  onRefresh: () => void;
}): ReactElement {
  const filters = useLive((s) => s.filters);
  const setFilters = useLive((s) => s.setFilters);
  const clearFilters = useLive((s) => s.clearFilters);
  const autoRefresh = useLive((s) => s.autoRefresh);
  const setAutoRefresh = useLive((s) => s.setAutoRefresh);
  const protocolId = useId();
  const pairId = useId();
  const sizeId = useId();
  const pairListId = useId();
  const sizeProblem = minSizeProblem(filters.minSize);
  const filtered = isFiltered(filters);
  return (
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
          label={`Auto-refresh ${refreshMs / 1000} s`}
          testId="live-auto-refresh"
        />
        <button
          type="button"
          className="button button-small"
          onClick={onRefresh}
          aria-label="Refresh the live feeds now"
        >
          <RefreshIcon />
          Refresh
        </button>
      </div>
    </div>
  );
}
