import type { ReactElement } from 'react';

/** LONG in green, SHORT in red: the side of a position or order at a glance. */
export function SideTag({
  isLong,
  reversed = false,
}: {
  isLong: boolean | null | undefined;
  reversed?: boolean;
}): ReactElement {
  if (isLong === null || isLong === undefined) return <span className="muted">—</span>;
  return (
    <span
      className={`side-tag ${isLong ? 'side-long' : 'side-short'}`}
      title={reversed ? 'Reverse copy: the opposite of the trader’s side' : undefined}
    >
      {isLong ? 'LONG' : 'SHORT'}
      {reversed ? (
        <span className="side-reversed" aria-label="reversed">
          {' '}
          ⇄
        </span>
      ) : null}
    </span>
  );
}
