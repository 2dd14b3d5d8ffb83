import type { CellValue } from './sort-rows';

/** What `toCsvRows` needs of a column: its header and its raw value. */
export interface CsvColumn<Row> {
  label: string;
  value: (row: Row) => CellValue;
}

/**
 * A table as the `export:csv` channel takes it: the header labels and one array of raw values
 * per row (numbers stay numbers, so a spreadsheet can sum them; NaN and Infinity become empty).
 */
export function toCsvRows<Row>(
  columns: readonly CsvColumn<Row>[],
  rows: readonly Row[],
): { columns: string[]; rows: CellValue[][] } {
  return {
    columns: columns.map((c) => c.label),
    rows: rows.map((row) =>
      columns.map((c) => {
        const v = c.value(row);
        return typeof v === 'number' && !Number.isFinite(v) ? null : (v ?? null);
      }),
    ),
  };
}
