import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DownloadState } from '@shared/ipc/schemas/leaderboard';

// The core, replaced: each call waits until the test answers it, and the test pushes
// `download:progress` events by hand. In the web shell an answer comes over HTTP and an event over
// the WebSocket, so either may arrive first; these tests let an event overtake an answer.
const listeners: ((state: DownloadState) => void)[] = [];
vi.mock('@renderer/ipc/events', () => ({
  subscribe: (_event: string, listener: (state: DownloadState) => void) => {
    listeners.push(listener);
    return () => listeners.splice(listeners.indexOf(listener), 1);
  },
}));
const calls: { channel: string; answer: (value: unknown) => void }[] = [];
vi.mock('@renderer/ipc/call', () => ({
  call: (channel: string) => new Promise((answer) => calls.push({ channel, answer })),
  failureOf: () => null,
}));
const { useDownloads, downloadOf } = await import('@renderer/stores/downloads');

const push = (state: DownloadState): void => listeners.forEach((listener) => listener(state));
const key = { protocol: 'NOVA_ARB', window: 'FULL' as const };
const stateOf = (
  state: DownloadState['state'],
  downloaded: number,
  protocol = key.protocol,
): DownloadState => ({
  protocol,
  window: key.window,
  state,
  downloaded,
  total: 120,
  startedAt: '2026-11-27T10:00:00.000Z',
  completedAt: state === 'complete' ? '2026-11-27T10:00:01.000Z' : null,
  message: null,
});
/** Answers the oldest call still waiting, which must be on `channel`. */
const answer = async (channel: string, value: unknown): Promise<void> => {
  const waiting = calls.shift();
  expect(waiting?.channel).toBe(channel);
  waiting!.answer(value);
  await new Promise((resolve) => setTimeout(resolve, 0));
};
const shown = () => downloadOf(useDownloads.getState().states, key);

describe('the downloads store', () => {
  beforeEach(() => {
    calls.length = 0;
    useDownloads.setState({ states: [], loaded: false, error: null });
  });

  it('keeps a download that completed while the answer to its start was on its way', async () => {
    const started = useDownloads.getState().start(key);
    // The run began, wrote its one batch and completed before the start's answer arrived.
    push(stateOf('running', 0));
    push(stateOf('complete', 120));
    await answer('downloads:start', stateOf('running', 0));
    await started;
    expect(shown()?.state).toBe('complete');
    expect(shown()?.downloaded).toBe(120);
  });

  it('shows the answer to a start when no event overtook it', async () => {
    const started = useDownloads.getState().start(key);
    await answer('downloads:start', stateOf('running', 0));
    await started;
    expect(shown()?.state).toBe('running');
    push(stateOf('complete', 120));
    expect(shown()?.state).toBe('complete');
  });

  it('keeps what events said while a listing was on its way, and the listing for the rest', async () => {
    const loading = useDownloads.getState().load();
    push(stateOf('complete', 120));
    const other = stateOf('paused', 40, 'HELIX_OP');
    await answer('downloads:list', [stateOf('running', 0), other]);
    await loading;
    expect(shown()?.state).toBe('complete');
    expect(
      downloadOf(useDownloads.getState().states, { protocol: 'HELIX_OP', window: 'FULL' as const }),
    ).toEqual(other);
    expect(useDownloads.getState().loaded).toBe(true);
  });

  it('keeps a download started while a listing was on its way, which the listing missed', async () => {
    const loading = useDownloads.getState().load();
    push(stateOf('running', 0));
    await answer('downloads:list', []);
    await loading;
    expect(shown()?.state).toBe('running');
  });

  it('drops a deleted download even when its last event came while the delete was on its way', async () => {
    useDownloads.setState({ states: [stateOf('running', 60)], loaded: true });
    const removing = useDownloads.getState().remove(key);
    push(stateOf('complete', 120));
    await answer('downloads:delete', []);
    await removing;
    expect(shown()).toBeUndefined();
  });

  it('keeps a pause that an event reported after the answer to it was sent', async () => {
    useDownloads.setState({ states: [stateOf('running', 60)], loaded: true });
    const cancelling = useDownloads.getState().cancel(key);
    push(stateOf('paused', 60));
    await answer('downloads:cancel', stateOf('paused', 60));
    await cancelling;
    expect(shown()?.state).toBe('paused');
  });
});
