import type { ReactElement } from 'react';
import { useId } from 'react';
import { CloseIcon } from '@renderer/components/icons';
import { useLeaderboard } from '@renderer/stores/leaderboard';
import { FILTER_FIELDS, filterField, toRanges, type FilterDraft } from '@renderer/filters/range-filters';

const GROUPS = [...new Set(FILTER_FIELDS.map((f) => f.group))];

let nextId = 0;
/** A fresh id for a filter row (stable across renders, unique in the window). */
export const newFilterId = (): string => `f${Date.now().toString(36)}${(nextId++).toString(36)}`;

function FilterRow({
  draft,
  problem,
  onChange,
  onRemove,
}: {
  draft: FilterDraft;
  problem: string | undefined;
  onChange: (draft: FilterDraft) => void;
  onRemove: () => void;
}): ReactElement {
  const option = filterField(draft.field);
  const label = option?.label ?? 'field';
  const unit = option?.unit ?? '';
  const problemId = useId();
  return (
    <li className="filter-row" data-testid="filter-row">
      <select
        className="input select"
        value={draft.field}
        aria-label="Filter on"
        onChange={(e) => onChange({ ...draft, field: e.target.value })}
        data-testid="filter-field"
      >
        {GROUPS.map((g) => (
          <optgroup key={g} label={g}>
            {FILTER_FIELDS.filter((f) => f.group === g).map((f) => (
              <option key={f.field} value={f.field}>
                {f.label}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      <span className="filter-bound">
        <input
          className={`input${problem ? ' is-invalid' : ''}`}
          inputMode="decimal"
          placeholder="min"
          value={draft.min}
          aria-label={`Minimum ${label}`}
          aria-describedby={problem ? problemId : undefined}
          onChange={(e) => onChange({ ...draft, min: e.target.value })}
          data-testid="filter-min"
        />
        {unit ? <span className="filter-unit">{unit}</span> : null}
      </span>
      <span className="muted">to</span>
      <span className="filter-bound">
        <input
          className={`input${problem ? ' is-invalid' : ''}`}
          inputMode="decimal"
          placeholder="max"
          value={draft.max}
          aria-label={`Maximum ${label}`}
          aria-describedby={problem ? problemId : undefined}
          onChange={(e) => onChange({ ...draft, max: e.target.value })}
          data-testid="filter-max"
        />
        {unit ? <span className="filter-unit">{unit}</span> : null}
      </span>
      <button
        type="button"
        className="icon-button"
        aria-label={`Remove the ${label} filter`}
        onClick={onRemove}
      >
        <CloseIcon />
      </button>
      {problem ? (
        <span id={problemId} className="field-error filter-problem" role="alert">
          {problem}
        </span>
      ) : null}
    </li>
  );
}

/** Range filters on any statistic or percentile: one row per "field between min and max". */
export function FilterPanel(): ReactElement {
  const filters = useLeaderboard((s) => s.filters);
  const setFilters = useLeaderboard((s) => s.setFilters);
  const { problems } = toRanges(filters);
  const problemOf = new Map(problems.map((p) => [p.id, p.message]));

  const update = (id: string, draft: FilterDraft): void =>
    setFilters(filters.map((f) => (f.id === id ? draft : f)));
  const add = (): void => {
    const used = new Set(filters.map((f) => f.field));
    const field =
      ['winRate', 'totalTrade', 'pnl', 'realisedMaxDrawdown', 'ranking.pnl'].find((f) => !used.has(f)) ??
      'pnl';
    setFilters([...filters, { id: newFilterId(), field, min: '', max: '' }]);
  };

  return (
    <section className="panel filter-panel" aria-label="Filters" data-testid="filter-panel">
      {filters.length > 0 ? (
        <ul className="filter-rows">
          {filters.map((f) => (
            <FilterRow
              key={f.id}
              draft={f}
              problem={problemOf.get(f.id)}
              onChange={(d) => update(f.id, d)}
              onRemove={() => setFilters(filters.filter((x) => x.id !== f.id))}
            />
          ))}
        </ul>
      ) : (
        <p className="panel-text filter-hint">
          No filters: every trader with a closed position in the window is ranked. Add a filter to keep only
          traders within a range, e.g. win rate of at least 55% or a PnL percentile above 90.
        </p>
      )}
      <div className="filter-actions">
        <button type="button" className="button button-small" onClick={add} data-testid="filter-add">
          + Add filter
        </button>
        {filters.length > 0 ? (
          <button type="button" className="button button-small" onClick={() => setFilters([])}>
            Clear all
          </button>
        ) : null}
        <span className="field-hint">Durations in hours, amounts in USD (2k, 1.5M), percentiles 0–100.</span>
      </div>
    </section>
  );
}
