import type { ReactElement } from 'react';

// Fixed widths, varied per row, so a loading table looks like text and not like a bar chart.
const WIDTHS = ['62%', '48%', '74%', '55%', '68%', '41%', '58%', '70%'];

/** Placeholder rows for a table that is loading; hidden from screen readers, which get `busy`. */
export function SkeletonRows({ rows, columns }: { rows: number; columns: number }): ReactElement {
  return (
    <>
      {Array.from({ length: rows }, (_, r) => (
        <tr key={r} className="skeleton-row" aria-hidden="true">
          {Array.from({ length: columns }, (_, c) => (
            <td key={c}>
              <span className="skeleton" style={{ width: WIDTHS[(r * columns + c) % WIDTHS.length] }} />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}

/** Placeholder lines for a panel that is loading. */
export function SkeletonLines({ lines }: { lines: number }): ReactElement {
  return (
    <div className="skeleton-lines" aria-hidden="true">
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} className="skeleton" style={{ width: WIDTHS[i % WIDTHS.length] }} />
      ))}
    </div>
  );
}
