import type { ReactElement } from 'react';
import { useCsvExport } from '../stores/csv-export';
import { toCsvRows, type Column } from './table/DataTable';

interface ExportCsvButtonProps<Row> {
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  /** File name without the date and extension: `copy-positions`. */
  name: string;
  /** What the rows are, for the toast: "positions". */
  noun: string;
  /** The tooltip; by default it counts the rows. */
  title?: string;
  testId?: string;
}

/** Exports the rows as shown (minus button columns) to a CSV file, with raw numbers. */
export function ExportCsvButton<Row>({
  columns,
  rows,
  name,
  noun,
  title,
  testId,
}: ExportCsvButtonProps<Row>): ReactElement {
  const running = useCsvExport((s) => s.running);
  const exportCsv = useCsvExport((s) => s.exportCsv);
  const onClick = (): void => {
    const date = new Date().toISOString().slice(0, 10);
    // Columns without a label hold buttons, not data.
    const table = toCsvRows(
      columns.filter((c) => c.label !== ''),
      rows,
    );
    void exportCsv({ suggestedName: `${name}-${date}.csv`, ...table }, noun);
  };
  return (
    <button
      type="button"
      className="button button-small"
      onClick={onClick}
      disabled={running !== null || rows.length === 0}
      title={
        title ?? (rows.length === 0 ? 'Nothing to export' : `Save these ${rows.length} ${noun} as a CSV file`)
      }
      data-testid={testId}
    >
      {running ? 'Exporting…' : 'Export CSV'}
    </button>
  );
}
