import type { ReactElement } from 'react';
import type { CopyTradeListItem } from '@shared/api/copy-trades';

interface CopyTradeSelectProps {
  /** The chosen copy trade's id; '' for all of them. */
  value: string;
  trades: readonly CopyTradeListItem[] | null;
  onChange: (id: string) => void;
  testId: string;
}

/** The compact copy-trade filter of the copy panels: all copy trades, or one by its title. */
export function CopyTradeSelect({ value, trades, onChange, testId }: CopyTradeSelectProps): ReactElement {
  return (
    <select
      className="input select select-compact"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      aria-label="Copy trade"
      data-testid={testId}
    >
      <option value="">All copy trades</option>
      {(trades ?? []).map((t) => (
        <option key={t.id} value={t.id}>
          {t.title}
        </option>
      ))}
    </select>
  );
}
