/** The slice of rows to put in the DOM: `[start, end)`. */
export interface RowRange {
  start: number;
  end: number;
}

/**
 * Which rows a virtualised body must render: those inside the viewport plus `overscan` on each
 * side, so that a scroll of a few rows shows rows already there. The bounds snap to multiples of
 * `chunk` rows, so that the range (and the DOM) changes once per `chunk` rows scrolled rather
 * than on every row. `scrollTop` and `viewport` are in pixels of the body (the header excluded).
 */
export function visibleRange(
  scrollTop: number,
  viewport: number,
  rowHeight: number,
  count: number,
  overscan = 8,
  chunk = 1,
): RowRange {
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0 };
  const step = Math.max(1, Math.floor(chunk));
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const last = Math.ceil((Math.max(0, scrollTop) + Math.max(0, viewport)) / rowHeight);
  const start = Math.min(count, Math.max(0, Math.floor((first - overscan) / step) * step));
  const end = Math.min(count, Math.max(start, Math.ceil((last + overscan) / step) * step));
  return { start, end };
}

/**
 * The scrollTop that brings row `index` fully into view, or null when it is already visible.
 * Used by the keyboard: ArrowDown past the bottom scrolls by exactly one row.
 */
export function scrollToReveal(
  index: number,
  scrollTop: number,
  viewport: number,
  rowHeight: number,
): number | null {
  const top = index * rowHeight;
  const bottom = top + rowHeight;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewport) return Math.max(0, bottom - viewport);
  return null;
}
