import type { ReactElement, ReactNode } from 'react';
import { useId } from 'react';
import type { Freshness as FreshnessValue } from '@shared/ipc/schemas/freshness';
import type { AppError } from '@shared/result';
import { ReadFailed } from '@renderer/components/EmptyState';
import { Freshness } from '@renderer/components/Freshness';
import { formatInteger } from '@renderer/format/number';

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

/** One of the Live page's feeds: title, count, export and freshness above its table, or why it failed. */
export function FeedPanel({
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
