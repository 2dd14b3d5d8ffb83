import type { ReactElement } from 'react';
import { formatPercent } from '@renderer/format/number';
import { useCsvExport } from '@renderer/stores/csv-export';
import { useExportProgress } from '@renderer/stores/export-progress';
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

/**
 * Exports the rows as shown (minus button columns) to a CSV file, with raw numbers, through the
 * one `export:csv` path. While its export runs the button becomes "Cancel export" (with the
 * share written so far on long tables); other tables' buttons wait for it.
 */
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
  const cancel = useCsvExport((s) => s.cancel);
  const progress = useExportProgress((s) => s.progress);
  const mine = running?.startsWith(`${name}-`) === true;

  if (mine) {
    const share =
      progress && progress.total > 0 ? ` ${formatPercent((100 * progress.done) / progress.total)}` : '';
    return (
      <button
        type="button"
        className="button button-small"
        onClick={() => void cancel()}
        title="Stop this export; no file is left behind"
        data-testid={testId ? `${testId}-cancel` : undefined}
      >
        {`Cancel export${share}`}
      </button>
    );
  }

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
        title ??
        (running !== null
          ? 'Another export is being written'
          : rows.length === 0
            ? 'Nothing to export'
            : `Save these ${rows.length} ${noun} as a CSV file`)
      }
      data-testid={testId}
    >
      Export CSV
    </button>
  );
}
