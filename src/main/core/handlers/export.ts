import { CoreError } from '../errors';
import { ExportCancelledError, writeCsv } from '../export/csv';
import type { DomainDeps, Handlers } from './handlers';

/** Tables longer than this report their progress as `export:progress`. */
const PROGRESS_FROM_ROWS = 2_000;

/**
 * `export:csv`: writes a table as RFC 4180 CSV with a UTF-8 byte-order mark where the shell's
 * `pickSavePath` says (a save dialog in Electron, the exports folder in the web shell); `path:
 * null` when the user cancelled the dialog. `export:cancel` stops the export being written: it
 * answers `path: null, cancelled: true` and leaves no file (docs/ui.md, Exports).
 */
export function createExportHandlers(deps: DomainDeps): Pick<Handlers, 'export:csv' | 'export:cancel'> {
  let running: AbortController | null = null;
  return {
    'export:csv': async ({ suggestedName, columns, rows }) => {
      const ragged = rows.findIndex((row) => row.length !== columns.length);
      if (ragged >= 0)
        throw new CoreError(
          'VALIDATION_FAILED',
          `rows[${ragged}] must have ${columns.length} cells, one per column`,
        );
      const path = await deps.pickSavePath(suggestedName);
      if (path === null) return { path: null, rows: 0 };
      const large = rows.length > PROGRESS_FROM_ROWS;
      const controller = new AbortController();
      running = controller;
      if (large) deps.events.emit('export:progress', { done: 0, total: rows.length });
      try {
        await writeCsv(
          path,
          columns,
          rows,
          (done, total) => {
            if (large) deps.events.emit('export:progress', { done, total });
          },
          controller.signal,
        );
      } catch (error) {
        // The renderer clears its progress bar on this answer; the taskbar's ends with the call.
        if (error instanceof ExportCancelledError) return { path: null, rows: 0, cancelled: true };
        const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        throw new CoreError('INTERNAL', `Copydesk could not write the export to ${path} (${reason}).`);
      } finally {
        if (running === controller) running = null;
      }
      return { path, rows: rows.length };
    },
    'export:cancel': () => {
      const controller = running;
      if (!controller) return Promise.resolve({ cancelled: false });
      controller.abort();
      return Promise.resolve({ cancelled: true });
    },
  };
}
