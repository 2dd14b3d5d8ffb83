import type { ReactElement } from 'react';
import { Popover } from '@renderer/components/Popover';

/** What the chooser needs of a column; a DataTable `Column` fits. */
export interface ColumnChoice {
  id: string;
  label: string;
  title?: string;
  /** Heading the column is listed under ("Profit", "Risk", "Percentiles"). */
  group?: string;
  /** Always shown (e.g. the trader's address): listed, but cannot be unticked. */
  locked?: boolean;
}

interface ColumnChooserProps {
  columns: readonly ColumnChoice[];
  /** Ids of the columns shown. */
  visible: readonly string[];
  /** The new visible ids, in the order of `columns`. */
  onChange: (visible: string[]) => void;
  /** What "Reset" goes back to; no Reset button when omitted. */
  defaults?: readonly string[];
  testId?: string;
}

/** A "Columns" button whose panel ticks columns on and off, grouped, with a reset. */
export function ColumnChooser({
  columns,
  visible,
  onChange,
  defaults,
  testId = 'column-chooser',
}: ColumnChooserProps): ReactElement {
  const shown = new Set(visible);
  const groups = new Map<string, ColumnChoice[]>();
  for (const c of columns) {
    const g = c.group ?? '';
    groups.set(g, [...(groups.get(g) ?? []), c]);
  }
  const toggle = (id: string, on: boolean): void => {
    const next = new Set(shown);
    if (on) next.add(id);
    else next.delete(id);
    onChange(columns.filter((c) => c.locked || next.has(c.id)).map((c) => c.id));
  };
  const count = columns.filter((c) => c.locked || shown.has(c.id)).length;

  return (
    <Popover
      label={
        <>
          Columns <span className="muted num">{count}</span>
        </>
      }
      ariaLabel={`Columns: ${count} of ${columns.length} shown`}
      testId={testId}
      align="right"
    >
      {() => (
        <div className="column-chooser">
          <div className="column-chooser-groups">
            {[...groups].map(([group, items]) => (
              <fieldset key={group || 'columns'} className="column-chooser-group">
                <legend>{group || 'Columns'}</legend>
                {items.map((c) => (
                  <label key={c.id} className="check" title={c.title}>
                    <input
                      type="checkbox"
                      checked={c.locked || shown.has(c.id)}
                      disabled={c.locked}
                      onChange={(e) => toggle(c.id, e.target.checked)}
                      data-testid={`${testId}-${c.id}`}
                    />
                    <span>{c.label}</span>
                  </label>
                ))}
              </fieldset>
            ))}
          </div>
          {defaults ? (
            <div className="column-chooser-actions">
              <button
                type="button"
                className="button button-small"
                onClick={() =>
                  onChange(columns.filter((c) => c.locked || defaults.includes(c.id)).map((c) => c.id))
                }
              >
                Reset to default
              </button>
            </div>
          ) : null}
        </div>
      )}
    </Popover>
  );
}
