import { create } from 'zustand';
import type { ChannelRequest } from '../../../shared/ipc/contract';
import { formatInteger } from '../format/number';
import { call } from '../ipc/call';
import { toast } from './toasts';

interface CsvExportStore {
  /** The suggested file name of the export under way, if any. */
  running: string | null;
  /** Writes a table to a CSV file the user picks; progress arrives as `export:progress`. */
  exportCsv(request: ChannelRequest<'export:csv'>, noun: string): Promise<void>;
}

/** CSV exports of the copy-trading tables (the top bar shows their progress). */
export const useCsvExport = create<CsvExportStore>()((set, get) => ({
  running: null,
  async exportCsv(request, noun) {
    if (get().running) return;
    set({ running: request.suggestedName });
    try {
      const answer = await call('export:csv', request);
      if (answer.path) {
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
}));
