import { create } from 'zustand';
import type { ChannelRequest } from '@shared/ipc/contract';
import { formatInteger } from '@renderer/format/number';
import { call } from '@renderer/ipc/call';
import { useExportProgress } from './export-progress';
import { toast } from './toasts';

interface CsvExportStore {
  /** The suggested file name of the export under way, if any. */
  running: string | null;
  /** Writes a table to a CSV file the user picks; progress arrives as `export:progress`. */
  exportCsv(request: ChannelRequest<'export:csv'>, noun: string): Promise<void>;
  /** Stops the export under way; the core leaves no file behind. */
  cancel(): Promise<void>;
}

/** CSV exports of every table (one path: `export:csv`; the top bar shows their progress). */
export const useCsvExport = create<CsvExportStore>()((set, get) => ({
  running: null,
  async exportCsv(request, noun) {
    if (get().running) return;
    set({ running: request.suggestedName });
    try {
      const answer = await call('export:csv', request);
      if (answer.cancelled) {
        useExportProgress.setState({ progress: null });
        toast({ tone: 'info', title: 'Export cancelled', message: 'No file was written.' });
      } else if (answer.path) {
        toast({
          tone: 'success',
          title: `Exported ${formatInteger(answer.rows)} ${noun}`,
          message: `Saved to ${answer.path}`,
        });
      }
    } catch {
      // call() raised the toast.
    } finally {
      set({ running: null });
    }
  },
  async cancel() {
    if (!get().running) return;
    try {
      await call('export:cancel', {});
    } catch {
      // call() raised the toast.
    }
  },
}));
