import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWebApi } from '@renderer/ipc/web-api';

// Issue #20 item 1 (docs/core.md, A starting service): the web shell's window gave every call 30 s,
// which a first start's seeding outlasts. A call now waits while the local service is starting,
// and still gives up after 30 s when it is not. Timers are faked; fetch and the socket are stubs.

/** The event socket: the test pushes `service:state` frames through it. */
class FakeSocket {
  static last: FakeSocket | null = null;
  private readonly listeners = new Map<string, ((event: { data?: unknown }) => void)[]>();
  constructor(readonly url: string) {
    FakeSocket.last = this;
  }
  addEventListener(type: string, listener: (event: { data?: unknown }) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  emit(type: string, event: { data?: unknown } = {}): void {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
  serviceState(state: 'starting' | 'ready', message: string | null = null): void {
    this.emit('message', {
      data: JSON.stringify({ event: 'service:state', payload: { state, url: null, message } }),
    });
  }
}

/** A core that answers no call until the test says so; an aborted call rejects as fetch does. */
function slowCore() {
  const pending: { answer: () => void }[] = [];
  const fetchStub = vi.fn(
    (_url: string, init: { signal: AbortSignal }) =>
      new Promise<Response>((resolve, reject) => {
        init.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        pending.push({
          answer: () => resolve(new Response(JSON.stringify({ ok: true, value: { groups: [] } }))),
        });
      }),
  );
  return { fetchStub, pending };
}

let core: ReturnType<typeof slowCore>;

beforeEach(() => {
  vi.useFakeTimers();
  core = slowCore();
  vi.stubGlobal('window', {
    setTimeout: globalThis.setTimeout,
    clearTimeout: globalThis.clearTimeout,
    location: { protocol: 'http:', host: '127.0.0.1:1' },
  });
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.stubGlobal('fetch', core.fetchStub);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A web API with its event socket open. */
function connectedApi() {
  const api = createWebApi('token');
  api.on('service:state', () => undefined);
  FakeSocket.last!.emit('open');
  return api;
}

describe('a call to the web shell', () => {
  it('gives up after 30 s when the service is not starting', async () => {
    const api = connectedApi();
    const result = api.invoke('tokens:list', {});
    await vi.advanceTimersByTimeAsync(29_999);
    expect(core.pending).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await result).toEqual({
      ok: false,
      error: { code: 'TIMEOUT', message: 'The terminal core did not answer within 30 seconds.' },
    });
  });

  it('waits for a starting service however long it prepares, and gets its answer', async () => {
    const api = connectedApi();
    const socket = FakeSocket.last!;
    socket.serviceState('starting', 'Preparing the market world: prices 0%');
    const result = api.invoke('tokens:list', {});
    let settled = false;
    void result.then(() => (settled = true));
    // Five minutes of preparation, progress reported only now and then.
    for (let minute = 1; minute <= 5; minute += 1) {
      await vi.advanceTimersByTimeAsync(60_000);
      socket.serviceState('starting', `Preparing the market world: positions ${minute * 20}%`);
    }
    expect(settled).toBe(false);
    socket.serviceState('ready');
    core.pending[0]!.answer();
    expect(await result).toEqual({ ok: true, value: { groups: [] } });
  });

  it('runs out again once the service is no longer starting', async () => {
    const api = connectedApi();
    const socket = FakeSocket.last!;
    socket.serviceState('starting');
    const result = api.invoke('tokens:list', {});
    await vi.advanceTimersByTimeAsync(90_000);
    socket.serviceState('ready');
    // The deadline armed last ends at most 30 s later; the call then fails as any other would.
    await vi.advanceTimersByTimeAsync(30_000);
    expect(await result).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
  });
});
