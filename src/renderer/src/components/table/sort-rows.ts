/** A cell's value as the table sorts and exports it. */
export type CellValue = string | number | boolean | null;

/** A sort: one column, one direction. */
export interface TableSort {
  column: string;
  direction: 'asc' | 'desc';
}

const isMissing = (v: CellValue | undefined): boolean =>
  v === null || v === undefined || (typeof v === 'number' && Number.isNaN(v));

/**
 * Orders two cell values ascending: numbers numerically, text by locale (numeric-aware, so
 * `BTC2` comes before `BTC10`), false before true. Values of different types order by type.
 */
export function compareCells(a: CellValue, b: CellValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string')
    return a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' });
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  return typeof a < typeof b ? -1 : typeof a > typeof b ? 1 : 0;
}

/**
 * The rows sorted by `value` in `direction`; stable, and missing values (null, NaN) always last
 * whatever the direction, because a trader sorting by drawdown wants the known figures first.
 */
export function sortRows<Row>(
  rows: readonly Row[],
  value: (row: Row) => CellValue,
  direction: 'asc' | 'desc',
): Row[] {
  const sign = direction === 'asc' ? 1 : -1;
  const keyed = rows.map((row, index) => ({ row, index, v: value(row) }));
  keyed.sort((x, y) => {
    const xm = isMissing(x.v);
    const ym = isMissing(y.v);
    if (xm || ym) return xm === ym ? x.index - y.index : xm ? 1 : -1;
    return sign * compareCells(x.v, y.v) || x.index - y.index;
  });
  return keyed.map((k) => k.row);
}

/** The next sort when a header is clicked: a new column starts descending (biggest first), the same flips. */
export function nextSort(
  current: TableSort | null | undefined,
  column: string,
  firstDirection: 'asc' | 'desc' = 'desc',
): TableSort {
  if (current?.column === column) return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { column, direction: firstDirection };
}
