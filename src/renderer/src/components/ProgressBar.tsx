import type { ReactElement } from 'react';

interface ProgressBarProps {
  /** 0..1, or null when the amount of work is not known yet (an indeterminate bar). */
  value: number | null;
  /** What is in progress, for screen readers ("Exporting rows"). */
  label: string;
  /** Text beside the bar ("1,200 of 5,000 rows"). */
  detail?: string;
  testId?: string;
  className?: string;
}

/** A thin bar for long work: demo seeding, exports, downloads. */
export function ProgressBar({ value, label, detail, testId, className }: ProgressBarProps): ReactElement {
  const percent = value === null ? null : Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div className={`progress${className ? ` ${className}` : ''}`} data-testid={testId}>
      <div
        className={`progress-track${percent === null ? ' is-indeterminate' : ''}`}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={detail}
      >
        <div className="progress-fill" style={percent === null ? undefined : { width: `${percent}%` }} />
      </div>
      {detail ? <span className="progress-detail num">{detail}</span> : null}
    </div>
  );
}
