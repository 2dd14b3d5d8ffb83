import { CoreError } from '../errors';
import { writeCsv } from '../export/csv';
import type { DomainDeps, Handlers } from './handlers';

/** Tables longer than this report their progress as `export:progress`. */
const PROGRESS_FROM_ROWS = 2_000;

/**
 * `export:csv`: writes a table as RFC 4180 CSV where the shell's `pickSavePath` says (a save
 * dialog in Electron, the exports folder in the web shell); `path: null` when the user cancelled.
 */
export function createExportHandlers(deps: DomainDeps): Pick<Handlers, 'export:csv'> {
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
      if (large) deps.events.emit('export:progress', { done: 0, total: rows.length });
      try {
        await writeCsv(path, columns, rows, (done, total) => {
          if (large) deps.events.emit('export:progress', { done, total });
        });
      } catch (error) {
        const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        throw new CoreError('INTERNAL', `Copydesk could not write the export to ${path} (${reason}).`);
      }
      return { path, rows: rows.length };
    },
  };
}
