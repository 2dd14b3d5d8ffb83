import type { BrowserWindow } from 'electron';
import type { Channel } from '../../shared/ipc/names';
import type { CoreEvents } from '../core/events';

type ProgressWindow = Pick<BrowserWindow, 'setProgressBar' | 'isDestroyed'>;

/** Electron shows a bar of unknown length for any value above 1 (Windows, macOS; Linux has none). */
const INDETERMINATE = 2;
const NONE = -1;

/**
 * The taskbar (Windows, Linux) and dock (macOS) progress bar: one bar for every long task under
 * way (dataset downloads, CSV exports, backtests), at the mean of their fractions, of unknown
 * length while any task does not yet know its size, and gone when none is left.
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

  /** Every task whose name starts with `prefix` ended (a sweep's call returned, whatever its run id). */
  endAll(prefix: string): void {
    const ended = [...this.tasks.keys()].filter((task) => task.startsWith(prefix));
    for (const task of ended) this.tasks.delete(task);
    if (ended.length > 0) this.show();
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

let backtestRuns = 0;

/**
 * What a channel's call means for the bar, told when the call starts; returns what to do when it
 * ends, however it ends (an export or a sweep that failed half-way leaves no bar behind). A single
 * backtest reports no progress, so it shows a bar of unknown length while it runs.
 */
export function trackCall(progress: TaskbarProgress, channel: Channel): () => void {
  switch (channel) {
    case 'export:csv':
      return () => progress.end('export');
    case 'backtest:sweep':
      return () => progress.endAll('sweep ');
    case 'backtest:run': {
      const task = `backtest ${++backtestRuns}`;
      progress.set(task, null);
      return () => progress.end(task);
    }
    default:
      return () => undefined;
  }
}

/**
 * Feeds the bar from the core's own progress events, the ones the pages' progress bars show:
 * `download:progress` per dataset, `export:progress` and `backtest:progress` per sweep. Returns
 * the unsubscribe function.
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
  const offSweep = events.on('backtest:progress', ({ runId, done, total }) => {
    if (done >= total) progress.end(`sweep ${runId}`);
    else progress.set(`sweep ${runId}`, done / total);
  });
  return () => {
    offDownload();
    offExport();
    offSweep();
  };
}
