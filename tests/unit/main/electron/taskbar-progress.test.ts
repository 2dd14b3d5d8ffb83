import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({}));
const { TaskbarProgress, showCoreProgress, trackCall } =
  await import('../../../../src/main/electron/taskbar-progress');
const { CoreEvents } = await import('../../../../src/main/core/events');
const { registerIpc } = await import('../../../../src/main/electron/ipc');

function fakeWindow() {
  return { setProgressBar: vi.fn(), isDestroyed: vi.fn(() => false) };
}
const shown = (window: ReturnType<typeof fakeWindow>) =>
  window.setProgressBar.mock.calls.map((call) => call[0]);

const download = (
  protocol: string,
  state: 'running' | 'paused' | 'complete' | 'failed',
  downloaded: number,
  total: number | null,
) => ({
  protocol,
  window: 'D30',
  state,
  downloaded,
  total,
  startedAt: '2026-11-26T10:00:00.000Z',
  completedAt: null,
  message: null,
});

describe('taskbar progress', () => {
  it('follows a dataset download from the core to its end', () => {
    const window = fakeWindow();
    const events = new CoreEvents();
    showCoreProgress(events, new TaskbarProgress(() => window));
    events.emit('download:progress', download('perpx', 'running', 0, null));
    expect(window.setProgressBar).toHaveBeenLastCalledWith(2, { mode: 'indeterminate' });
    events.emit('download:progress', download('perpx', 'running', 2_500, 10_000));
    events.emit('download:progress', download('perpx', 'running', 7_500, 10_000));
    events.emit('download:progress', download('perpx', 'complete', 10_000, 10_000));
    expect(shown(window)).toEqual([2, 0.25, 0.75, -1]);
  });

  it('shows the mean of every task under way, and removes a paused or failed one', () => {
    const window = fakeWindow();
    const events = new CoreEvents();
    showCoreProgress(events, new TaskbarProgress(() => window));
    events.emit('download:progress', download('perpx', 'running', 200, 1_000));
    events.emit('export:progress', { done: 600, total: 1_000 });
    expect(window.setProgressBar).toHaveBeenLastCalledWith(0.4);
    events.emit('download:progress', download('perpx', 'paused', 200, 1_000));
    expect(window.setProgressBar).toHaveBeenLastCalledWith(0.6);
    events.emit('download:progress', download('gmx', 'running', 0, 1_000));
    events.emit('download:progress', download('gmx', 'failed', 0, 1_000));
    events.emit('export:progress', { done: 1_000, total: 1_000 });
    expect(window.setProgressBar).toHaveBeenLastCalledWith(-1);
  });

  it('ends an export that failed half-way when its call returns', async () => {
    const window = fakeWindow();
    const events = new CoreEvents();
    const progress = new TaskbarProgress(() => window);
    showCoreProgress(events, progress);
    const handlers = new Map<string, (event: unknown, request: unknown) => Promise<unknown>>();
    const core = {
      events,
      invoke: vi.fn(async () => {
        events.emit('export:progress', { done: 300, total: 1_000 });
        return {
          ok: false,
          error: { code: 'INTERNAL', message: 'Copydesk could not write the export (ENOSPC).' },
        };
      }),
    };
    registerIpc(
      { handle: (channel: string, handler: never) => handlers.set(channel, handler) } as never,
      core as never,
      () => true,
      (channel) => trackCall(progress, channel),
    );
    expect(await handlers.get('export:csv')!({}, {})).toMatchObject({ ok: false });
    expect(shown(window)).toEqual([0.3, -1]);
  });

  it('follows a backtest sweep, and ends it when its call returns, cancelled or not', async () => {
    const window = fakeWindow();
    const events = new CoreEvents();
    const progress = new TaskbarProgress(() => window);
    showCoreProgress(events, progress);
    events.emit('backtest:progress', { runId: 'r1', done: 0, total: 400 });
    events.emit('backtest:progress', { runId: 'r1', done: 100, total: 400 });
    events.emit('backtest:progress', { runId: 'r1', done: 400, total: 400 });
    expect(shown(window)).toEqual([0, 0.25, -1]);

    // Cancelled between two pieces: no last event, the call's end takes the bar away.
    const handlers = new Map<string, (event: unknown, request: unknown) => Promise<unknown>>();
    const core = {
      events,
      invoke: vi.fn(async () => {
        events.emit('backtest:progress', { runId: 'r2', done: 200, total: 400 });
        return { ok: true, value: { cancelled: true } };
      }),
    };
    registerIpc(
      { handle: (channel: string, handler: never) => handlers.set(channel, handler) } as never,
      core as never,
      () => true,
      (channel) => trackCall(progress, channel),
    );
    await handlers.get('backtest:sweep')!({}, {});
    expect(shown(window)).toEqual([0, 0.25, -1, 0.5, -1]);
  });

  it('shows a single backtest, which reports no progress, as a bar of unknown length while it runs', () => {
    const window = fakeWindow();
    const progress = new TaskbarProgress(() => window);
    const ended = trackCall(progress, 'backtest:run');
    expect(window.setProgressBar).toHaveBeenLastCalledWith(2, { mode: 'indeterminate' });
    ended();
    expect(window.setProgressBar).toHaveBeenLastCalledWith(-1);
    trackCall(progress, 'wallet:status')();
    expect(window.setProgressBar).toHaveBeenCalledTimes(2);
  });

  it('does not redraw an unchanged bar, nor touch a closed window', () => {
    const window = fakeWindow();
    const progress = new TaskbarProgress(() => window);
    progress.set('export', 0.5001);
    progress.set('export', 0.5002);
    expect(shown(window)).toEqual([0.5]);
    window.isDestroyed.mockReturnValue(true);
    progress.end('export');
    expect(shown(window)).toEqual([0.5]);
    const none = new TaskbarProgress(() => null);
    expect(() => none.set('export', 0.1)).not.toThrow();
  });
});
