import type { KeyboardEvent, ReactElement } from 'react';

interface TabsProps<V extends string> {
  value: V;
  tabs: readonly { value: V; label: string; count?: number | null }[];
  onChange(value: V): void;
  label: string;
  /** Each tab's id is `${idPrefix}-tab-${value}`, its panel `${idPrefix}-panel-${value}`. */
  idPrefix: string;
  testId?: string;
}

/** A tab list (arrow keys move between tabs); the page renders the selected panel. */
export function Tabs<V extends string>({
  value,
  tabs,
  onChange,
  label,
  idPrefix,
  testId,
}: TabsProps<V>): ReactElement {
  const onKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    const at = tabs.findIndex((t) => t.value === value);
    const next = tabs[(at + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
    if (!next) return;
    onChange(next.value);
    document.getElementById(`${idPrefix}-tab-${next.value}`)?.focus();
  };
  return (
    <div className="tabs" role="tablist" aria-label={label} onKeyDown={onKey} data-testid={testId}>
      {tabs.map((t) => (
        <button
          key={t.value}
          id={`${idPrefix}-tab-${t.value}`}
          type="button"
          role="tab"
          aria-selected={t.value === value}
          aria-controls={`${idPrefix}-panel-${t.value}`}
          tabIndex={t.value === value ? 0 : -1}
          className={`tab${t.value === value ? ' is-selected' : ''}`}
          onClick={() => onChange(t.value)}
          data-testid={testId ? `${testId}-${t.value}` : undefined}
        >
          {t.label}
          {t.count !== undefined && t.count !== null ? (
            <span className="tab-count num">{t.count}</span>
          ) : null}
        </button>
      ))}
    </div>
  );
}
