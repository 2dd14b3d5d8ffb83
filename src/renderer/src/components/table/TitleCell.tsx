import type { ReactElement, ReactNode } from 'react';

/** A table cell with a title cut to the column (full text on hover) over a smaller line, `sub`. */
export function TitleCell({ title, sub }: { title: string; sub: ReactNode }): ReactElement {
  return (
    <span className="cell-stack">
      <span className="cell-title" title={title}>
        {title}
      </span>
      {sub}
    </span>
  );
}
