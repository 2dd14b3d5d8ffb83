import type { CSSProperties, KeyboardEvent, MouseEvent, ReactElement, ReactNode, UIEvent } from 'react';
import { flushSync } from 'react-dom';
import { memo, useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { nextSort, sortRows, type CellValue, type TableSort } from './sort-rows';
import { scrollToReveal, visibleRange, type RowRange } from './virtual-range';

export { toCsvRows } from './csv-rows';
export { ColumnChooser } from './ColumnChooser';
export type { CellValue, TableSort } from './sort-rows';

/** One column of a DataTable. */
export interface Column<Row> {
  id: string;
  label: string;
  /** Header tooltip: what the figure means, its formula. */
  title?: string;
  align?: 'left' | 'right';
  /** Pixels; 120 when omitted. The last column also takes the width left over. */
  width?: number;
  sortable?: boolean;
  /** The raw value, for sorting and CSV export. */
  value: (row: Row) => CellValue;
  /** What the cell shows; the value as text when omitted. */
  render?: (row: Row) => ReactNode;
  /**
   * Stays at the right edge while the table scrolls sideways: a row's actions (Close, Edit) must
   * not need a scroll to reach on a narrow window. For the last column.
   */
  stickyEnd?: boolean;
  /**
   * Extra classes of the cell (`num`, `num-up`…): a styled figure without an element of its own,
   * which keeps long tables light.
   */
  cellClass?: (row: Row) => string;
}

export interface DataTableProps<Row> {
  rows: readonly Row[];
  columns: readonly Column<Row>[];
  rowKey: (row: Row) => string;
  /** The sort shown in the headers (and, without `onSort`, the initial local sort). */
  sort?: TableSort | null;
  /** The owner sorts (e.g. on the server); omitted = the table sorts its rows itself. */
  onSort?: (sort: TableSort) => void;
  /** Click or Enter on a row. */
  onRowOpen?: (row: Row) => void;
  /** Skeleton rows while there are no rows yet. */
  loading?: boolean;
  /** Shown instead of the body when there are no rows: say what to do. */
  empty?: ReactNode;
  /** The most the table grows to (px or CSS length); it shrinks to fit fewer rows. Default 480. */
  height?: number | string;
  testId?: string;
  ariaLabel: string;
  /** Called when the rendered rows come near the last one: load the next page here. */
  onEndReached?: () => void;
}

const DEFAULT_WIDTH = 120;
const DEFAULT_ROW_HEIGHT = 28;
// Until the first measure, assume a tall viewport so the very first paint already has rows.
const FIRST_VIEWPORT = 900;
const OVERSCAN = 6;
// The rendered slice moves in steps of this many rows: fewer commits while scrolling. Small, so
// that a fast scroll spreads the new rows evenly over its frames (8 made every other frame carry
// twice the work, and those frames made the 95th percentile).
const CHUNK = 4;
const END_MARGIN = 40;
const SKELETON_ROWS = 8;
const SKELETON_WIDTHS = ['62%', '48%', '74%', '55%', '68%', '41%', '58%', '70%'];

const INTERACTIVE = 'button, a, input, select, textarea, [role="button"]';

const cellText = (value: CellValue): string =>
  value === null || (typeof value === 'number' && !Number.isFinite(value)) ? '—' : String(value);

interface RowProps<Row> {
  row: Row;
  index: number;
  columns: readonly Column<Row>[];
  rowHeight: number;
  active: boolean;
  domId: string;
  rowKeyText: string;
  clickable: boolean;
  onClickRow: (index: number, event: MouseEvent<HTMLDivElement>) => void;
}

function RowView<Row>({
  row,
  index,
  columns,
  rowHeight,
  active,
  domId,
  rowKeyText,
  clickable,
  onClickRow,
}: RowProps<Row>): ReactElement {
  return (
    <div
      role="row"
      id={domId}
      aria-rowindex={index + 2}
      aria-selected={active}
      className={`dt-row${active ? ' is-active' : ''}${clickable ? ' is-clickable' : ''}${index % 2 ? ' is-odd' : ''}`}
      style={{ transform: `translateY(${index * rowHeight}px)` }}
      data-testid="table-row"
      data-row-key={rowKeyText}
      onClick={(e) => onClickRow(index, e)}
    >
      {columns.map((c) => (
        <div
          role="gridcell"
          key={c.id}
          className={`${cellClassOf(c)}${c.cellClass ? ` ${c.cellClass(row)}` : ''}`}
          data-col={c.id}
        >
          {c.render ? c.render(row) : cellText(c.value(row))}
        </div>
      ))}
    </div>
  );
}

/** The classes every cell of a column has, header and body alike. */
function cellClassOf<Row>(c: Column<Row>): string {
  return `dt-cell${c.align === 'right' ? ' is-right' : ''}${c.stickyEnd ? ' is-sticky-end' : ''}`;
}

// Rows that stay in view keep their element and skip rendering while the table scrolls.
const Row = memo(RowView) as typeof RowView;

function SkeletonRow({ index, columns }: { index: number; columns: number }): ReactElement {
  return (
    <div
      className="dt-row dt-skeleton"
      aria-hidden="true"
      style={{ transform: `translateY(${index * 100}%)` }}
    >
      {Array.from({ length: columns }, (_, c) => (
        <div key={c} className="dt-cell">
          <span
            className="skeleton"
            style={{ width: SKELETON_WIDTHS[(index * columns + c) % SKELETON_WIDTHS.length] }}
          />
        </div>
      ))}
    </div>
  );
}

function sortLabel(direction: 'asc' | 'desc' | null): 'ascending' | 'descending' | 'none' {
  return direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none';
}

/**
 * A virtualised, keyboard-driven table for every list of the terminal: only the rows in view are
 * in the DOM (fixed row height from `--row-height`), the header sticks, a click on a sortable
 * header sorts (locally, or through `onSort`), and the grid takes focus: ArrowUp/Down, PageUp/Down,
 * Home/End move the active row, Enter opens it. Rows carry `data-testid="table-row"` and
 * `data-row-key`; cells carry `data-col` (the column id), headers `data-col` too.
 */
export function DataTable<Row>(props: DataTableProps<Row>): ReactElement {
  const {
    rows,
    columns,
    rowKey,
    sort = null,
    onSort,
    onRowOpen,
    loading = false,
    empty,
    height = 480,
    testId,
    ariaLabel,
    onEndReached,
  } = props;
  const gridRef = useRef<HTMLDivElement>(null);
  const headerRef = useRef<HTMLDivElement>(null);
  const idBase = useId();
  const [localSort, setLocalSort] = useState<TableSort | null>(sort);
  const [rowHeight, setRowHeight] = useState(DEFAULT_ROW_HEIGHT);
  const [range, setRange] = useState<RowRange>(() =>
    visibleRange(0, FIRST_VIEWPORT, DEFAULT_ROW_HEIGHT, rows.length, OVERSCAN, CHUNK),
  );
  const [activeKey, setActiveKey] = useState<string | null>(null);

  const effectiveSort = onSort ? sort : localSort;
  const shown = useMemo(() => {
    if (onSort || !localSort) return rows;
    const column = columns.find((c) => c.id === localSort.column);
    return column ? sortRows(rows, column.value, localSort.direction) : rows;
  }, [rows, columns, onSort, localSort]);

  // Sizes are read from the DOM only when the grid resizes; a scroll reads scrollTop alone, so
  // that scrolling never forces a style or layout pass of its own.
  const metrics = useRef({ rowHeight: DEFAULT_ROW_HEIGHT, body: FIRST_VIEWPORT });
  const count = shown.length;
  const updateRange = useCallback(
    (scrollTop: number) => {
      const { rowHeight: rh, body } = metrics.current;
      setRange((prev) => {
        const next = visibleRange(scrollTop, body, rh, count, OVERSCAN, CHUNK);
        return next.start === prev.start && next.end === prev.end ? prev : next;
      });
    },
    [count],
  );

  useLayoutEffect(() => {
    const grid = gridRef.current;
    if (!grid) return;
    const observer = new ResizeObserver(() => {
      const fromCss = parseFloat(getComputedStyle(grid).getPropertyValue('--row-height'));
      const rh = Number.isFinite(fromCss) && fromCss > 0 ? fromCss : DEFAULT_ROW_HEIGHT;
      metrics.current = { rowHeight: rh, body: grid.clientHeight - (headerRef.current?.offsetHeight ?? 0) };
      setRowHeight(rh);
      updateRange(grid.scrollTop);
    });
    observer.observe(grid);
    return () => observer.disconnect();
  }, [updateRange]);

  const onScroll = (event: UIEvent<HTMLDivElement>): void => {
    const top = event.currentTarget.scrollTop;
    // Rendered in the same frame as the scroll: the rows are in place before it is painted.
    flushSync(() => updateRange(top));
  };

  // A new sort shows its top rows, not the middle of the old order.
  const sortColumn = effectiveSort?.column;
  const sortDirection = effectiveSort?.direction;
  useEffect(() => {
    if (gridRef.current) gridRef.current.scrollTop = 0;
  }, [sortColumn, sortDirection]);

  useEffect(() => {
    if (onEndReached && shown.length > 0 && range.end >= shown.length - END_MARGIN) onEndReached();
  }, [onEndReached, range.end, shown.length]);

  const activeIndex = useMemo(
    () => (activeKey === null ? -1 : shown.findIndex((r) => rowKey(r) === activeKey)),
    [activeKey, shown, rowKey],
  );

  const reveal = (index: number): void => {
    const grid = gridRef.current;
    if (!grid) return;
    const top = scrollToReveal(index, grid.scrollTop, metrics.current.body, rowHeight);
    if (top !== null) grid.scrollTop = top;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    // Keys typed in a header button or a control inside a cell are theirs.
    if (event.target !== event.currentTarget || shown.length === 0) return;
    const pageRows = Math.max(1, Math.floor(metrics.current.body / rowHeight) - 1);
    const last = shown.length - 1;
    let next: number;
    switch (event.key) {
      case 'ArrowDown':
        next = activeIndex < 0 ? 0 : Math.min(last, activeIndex + 1);
        break;
      case 'ArrowUp':
        next = activeIndex < 0 ? 0 : Math.max(0, activeIndex - 1);
        break;
      case 'PageDown':
        next = Math.min(last, Math.max(0, activeIndex) + pageRows);
        break;
      case 'PageUp':
        next = Math.max(0, activeIndex - pageRows);
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = last;
        break;
      case 'Enter': {
        const row = activeIndex >= 0 ? shown[activeIndex] : undefined;
        if (row !== undefined && onRowOpen) {
          event.preventDefault();
          onRowOpen(row);
        }
        return;
      }
      default:
        return;
    }
    event.preventDefault();
    const row = shown[next];
    if (row === undefined) return;
    setActiveKey(rowKey(row));
    reveal(next);
  };

  const onClickRow = useCallback(
    (index: number, event: MouseEvent<HTMLDivElement>) => {
      // A button inside a cell (copy, close…) does its own thing, not open the row.
      if ((event.target as HTMLElement).closest(INTERACTIVE)) return;
      const row = shown[index];
      if (row === undefined) return;
      setActiveKey(rowKey(row));
      onRowOpen?.(row);
    },
    [shown, rowKey, onRowOpen],
  );

  const onHeaderClick = (column: Column<Row>): void => {
    const first = column.align === 'right' ? 'desc' : 'asc';
    const next = nextSort(effectiveSort, column.id, first);
    if (onSort) onSort(next);
    else setLocalSort(next);
  };

  const template = columns
    .map((c, i) =>
      i === columns.length - 1
        ? `minmax(${c.width ?? DEFAULT_WIDTH}px, 1fr)`
        : `${c.width ?? DEFAULT_WIDTH}px`,
    )
    .join(' ');
  const totalWidth = columns.reduce((w, c) => w + (c.width ?? DEFAULT_WIDTH), 0);
  const style = {
    maxHeight: height,
    '--dt-columns': template,
    '--dt-width': `${totalWidth}px`,
  } as CSSProperties;

  const showSkeleton = loading && shown.length === 0;
  const showEmpty = !loading && shown.length === 0;
  const activeInRange = activeIndex >= range.start && activeIndex < range.end;
  const rowDomId = (index: number): string => `${idBase}-r${index}`;
  const bodyRows = showSkeleton ? SKELETON_ROWS : shown.length;

  const rendered: ReactElement[] = [];
  if (!showSkeleton) {
    for (let i = range.start; i < Math.min(range.end, shown.length); i++) {
      const row = shown[i] as Row;
      const key = rowKey(row);
      rendered.push(
        <Row
          key={key}
          row={row}
          index={i}
          columns={columns}
          rowHeight={rowHeight}
          active={i === activeIndex}
          domId={rowDomId(i)}
          rowKeyText={key}
          clickable={onRowOpen !== undefined}
          onClickRow={onClickRow}
        />,
      );
    }
  }

  return (
    <div className="data-table" data-testid={testId} data-rows={shown.length}>
      <div
        ref={gridRef}
        className="dt-grid"
        role="grid"
        aria-label={ariaLabel}
        aria-rowcount={shown.length + 1}
        aria-colcount={columns.length}
        aria-busy={loading || undefined}
        aria-activedescendant={activeInRange ? rowDomId(activeIndex) : undefined}
        tabIndex={0}
        style={style}
        onScroll={onScroll}
        onKeyDown={onKeyDown}
      >
        <div className="dt-head" role="rowgroup" ref={headerRef}>
          <div className="dt-row dt-header-row" role="row" aria-rowindex={1}>
            {columns.map((c) => {
              const direction = effectiveSort?.column === c.id ? effectiveSort.direction : null;
              return (
                <div
                  key={c.id}
                  role="columnheader"
                  className={`${cellClassOf(c)} dt-header${direction ? ' is-sorted' : ''}`}
                  aria-sort={c.sortable ? sortLabel(direction) : undefined}
                  title={c.title}
                  data-col={c.id}
                >
                  {c.sortable ? (
                    <button type="button" className="dt-sort" onClick={() => onHeaderClick(c)}>
                      <span className="dt-sort-label">{c.label}</span>
                      <span className="dt-sort-arrow" aria-hidden="true">
                        {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : ''}
                      </span>
                    </button>
                  ) : (
                    <span className="dt-sort-label">{c.label}</span>
                  )}
                </div>
              );
            })}
          </div>
        </div>
        <div className="dt-body" role="rowgroup" style={{ height: bodyRows * rowHeight }}>
          {showSkeleton
            ? Array.from({ length: SKELETON_ROWS }, (_, i) => (
                <SkeletonRow key={i} index={i} columns={columns.length} />
              ))
            : rendered}
        </div>
      </div>
      {showEmpty && empty ? <div className="dt-empty">{empty}</div> : null}
    </div>
  );
}
