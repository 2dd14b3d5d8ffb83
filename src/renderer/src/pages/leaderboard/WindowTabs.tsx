import type { ReactElement } from 'react';
import type { Window } from '@shared/api/common';
import { WINDOW_LABELS, WINDOW_ORDER, windowMeaning } from '@renderer/statistics/statistic-fields';

interface WindowTabsProps {
  value: Window;
  onChange: (window: Window) => void;
  /** Windows without data are shown but dimmed (trader page). */
  available?: ReadonlySet<Window>;
  testId?: string;
}

/** 7D · 15D · 30D · 60D · All: the statistics window, as a segmented control. */
export function WindowTabs({
  value,
  onChange,
  available,
  testId = 'window-tabs',
}: WindowTabsProps): ReactElement {
  return (
    <div className="segmented" role="group" aria-label="Statistics window" data-testid={testId}>
      {WINDOW_ORDER.map((w) => (
        <button
          key={w}
          type="button"
          className={`segment${available && !available.has(w) ? ' is-empty' : ''}`}
          aria-pressed={w === value}
          title={windowMeaning(w)}
          onClick={() => onChange(w)}
          data-testid={`${testId}-${w}`}
        >
          {WINDOW_LABELS[w]}
        </button>
      ))}
    </div>
  );
}
