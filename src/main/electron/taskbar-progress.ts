import type { BrowserWindow } from 'electron';
import type { Channel } from '../../shared/ipc/names';
import type { CoreEvents } from '../core/events';

type ProgressWindow = Pick<BrowserWindow, 'setProgressBar' | 'isDestroyed'>;

/** Electron shows a bar of unknown length for any value above 1 (Windows, macOS; Linux has none). */
const INDETERMINATE = 2;
const NONE = -1;

/**
 * The taskbar (Windows, Linux) and dock (macOS) progress bar: one bar for every long task under
 * way (dataset downloads, CSV exports), at the mean of their fractions, of unknown length while
 * any task does not yet know its size, and gone when none is left.
 */
export class TaskbarProgress {
  private readonly tasks = new Map<string, number | null>();
  private shown = NONE;

  constructor(private readonly window: () => ProgressWindow | null) {}

  /** A task's progress: a fraction of its work, or null when its size is not known yet. */
  set(task: string, fraction: number | null): void {
    this.tasks.set(task, fraction === null ? null : Math.min(Math.max(fraction, 0), 1));
    this.show();
  }

  /** A task finished, failed, paused or was cancelled. */
  end(task: string): void {
    if (this.tasks.delete(task)) this.show();
  }

  private value(): number {
    if (this.tasks.size === 0) return NONE;
    const fractions = [...this.tasks.values()];
    if (fractions.some((fraction) => fraction === null)) return INDETERMINATE;
    const mean = (fractions as number[]).reduce((sum, fraction) => sum + fraction, 0) / fractions.length;
    // Whole thousandths: a download reports ten times a second and the bar cannot show finer.
    return Math.round(mean * 1000) / 1000;
  }

  private show(): void {
    const value = this.value();
    const window = this.window();
    if (value === this.shown || !window || window.isDestroyed()) return;
    this.shown = value;
    if (value === INDETERMINATE) window.setProgressBar(value, { mode: 'indeterminate' });
    else window.setProgressBar(value);
  }
}

/** The task a channel's call stands for, so the bar ends when the call does, even by failing. */
const TASK_OF_CHANNEL: Partial<Record<Channel, string>> = { 'export:csv': 'export' };

/** Ends the task of a channel whose call has just returned (an export that failed half-way). */
export function endTaskOfCall(progress: TaskbarProgress, channel: Channel): void {
  const task = TASK_OF_CHANNEL[channel];
  if (task) progress.end(task);
}

/**
 * Feeds the bar from the core's own progress events, the ones the pages' progress bars show:
 * `download:progress` per dataset and `export:progress`. Returns the unsubscribe function.
 */
export function showCoreProgress(events: CoreEvents, progress: TaskbarProgress): () => void {
  const offDownload = events.on('download:progress', (state) => {
    const task = `download ${state.protocol} ${state.window}`;
    if (state.state !== 'running') progress.end(task);
    else progress.set(task, state.total ? state.downloaded / state.total : null);
  });
  const offExport = events.on('export:progress', ({ done, total }) => {
    if (done >= total) progress.end('export');
    else progress.set('export', done / total);
  });
  return () => {
    offDownload();
    offExport();
  };
}
