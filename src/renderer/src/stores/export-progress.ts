import { create } from 'zustand';
import type { EventPayload } from '@shared/ipc/contract';

type Progress = EventPayload<'export:progress'>;

interface ExportProgressStore {
  /** The running export's progress; null when none runs. */
  progress: Progress | null;
  apply(progress: Progress): void;
}

let clearTimer: number | undefined;

/** A CSV export writing its rows (`export:progress`), for the top bar's progress bar. */
export const useExportProgress = create<ExportProgressStore>()((set) => ({
  progress: null,
  apply(progress) {
    window.clearTimeout(clearTimer);
    set({ progress });
    // The finished bar stays a moment so that a fast export is still seen to complete.
    if (progress.total > 0 && progress.done >= progress.total) {
      clearTimer = window.setTimeout(() => set({ progress: null }), 1_500);
    }
  },
}));
