import type { ReactElement } from 'react';
import { formatInteger } from '@renderer/format/number';

interface PagerProps {
  offset: number;
  limit: number;
  total: number;
  onOffset(offset: number): void;
  /** What the rows are, for "1–100 of 340 positions". */
  unit: string;
}

/** "1–100 of 340 positions" with previous and next buttons; nothing when one page holds all. */
export function Pager({ offset, limit, total, onOffset, unit }: PagerProps): ReactElement | null {
  if (total <= limit && offset === 0) {
    return total > 0 ? (
      <p className="pager">
        <span className="pager-range num">
          {formatInteger(total)} {unit}
        </span>
      </p>
    ) : null;
  }
  const first = total === 0 ? 0 : offset + 1;
  const last = Math.min(total, offset + limit);
  return (
    <nav className="pager" aria-label={`Pages of ${unit}`}>
      <span className="pager-range num">
        {formatInteger(first)}–{formatInteger(last)} of {formatInteger(total)} {unit}
      </span>
      <button
        type="button"
        className="button button-small"
        onClick={() => onOffset(Math.max(0, offset - limit))}
        disabled={offset === 0}
      >
        ‹ Previous
      </button>
      <button
        type="button"
        className="button button-small"
        onClick={() => onOffset(offset + limit)}
        disabled={last >= total}
      >
        Next ›
      </button>
    </nav>
  );
}
