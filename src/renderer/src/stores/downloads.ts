import { create } from 'zustand';
import type { DatasetKey, DownloadState } from '@shared/ipc/schemas/leaderboard';
import type { AppError } from '@shared/result';
import { call, failureOf } from '@renderer/ipc/call';
import { subscribe } from '@renderer/ipc/events';

interface DownloadsStore {
  states: DownloadState[];
  loaded: boolean;
  /** Why the last listing failed (the Settings page shows it when nothing was listed). */
  error: AppError | null;
  load(): Promise<void>;
  start(key: DatasetKey): Promise<void>;
  cancel(key: DatasetKey): Promise<void>;
  remove(key: DatasetKey): Promise<void>;
}

const same = (a: { protocol: string; window: string }, b: { protocol: string; window: string }): boolean =>
  a.protocol === b.protocol && a.window === b.window;

let listening = false;

/**
 * Events and answers arrive by two ways (in the web shell an answer over HTTP, an event over the
 * WebSocket), so an event may overtake the answer to a call made before it: a small download can
 * complete before the answer to its start arrives, and that answer ("running, 0 records") must
 * not hide the completion. The core reports every state a run ends in as an event, and no event
 * is older than a call still on its way; so for a dataset that had an event since a call went out,
 * the event's state is kept over the call's answer. `eventSerial` counts events; `lastEventOf`
 * holds the count at each dataset's last one.
 */
let eventSerial = 0;
const lastEventOf = new Map<string, number>();
const keyOf = (s: { protocol: string; window: string }): string => `${s.protocol}\u0000${s.window}`;
const eventSince = (s: { protocol: string; window: string }, serial: number): boolean =>
  (lastEventOf.get(keyOf(s)) ?? 0) > serial;

/**
 * Datasets downloaded for offline use: their states, kept current by `download:progress`. The one
 * store of them, read by the leaderboard's download menu and by Settings.
 */
export const useDownloads = create<DownloadsStore>()((set, get) => {
  const apply = (state: DownloadState): void => {
    const others = get().states.filter((s) => !same(s, state));
    set({ states: [...others, state] });
  };
  /** The answer to a call that went out at `serial`, unless an event about its dataset came since. */
  const applyAnswer = (state: DownloadState, serial: number): void => {
    if (!eventSince(state, serial)) apply(state);
  };
  /**
   * A listing answered to a call that went out at `serial`: the listed states, except those of
   * datasets that had an event since (kept as the event said, listed or not); `dropped`, a
   * dataset just deleted, is left out whatever came.
   */
  const listed = (states: DownloadState[], serial: number, dropped?: DatasetKey): DownloadState[] => {
    const newer = get().states.filter((s) => eventSince(s, serial) && !(dropped && same(s, dropped)));
    return [...states.filter((s) => !newer.some((n) => same(n, s))), ...newer];
  };
  const listen = (): void => {
    if (listening) return;
    listening = true;
    subscribe('download:progress', (state) => {
      lastEventOf.set(keyOf(state), (eventSerial += 1));
      apply(state);
    });
  };
  return {
    states: [],
    loaded: false,
    error: null,
    async load() {
      listen();
      const serial = eventSerial;
      try {
        const states = await call('downloads:list', {}, { quiet: true });
        set({ states: listed(states, serial), loaded: true, error: null });
      } catch (error) {
        set({ loaded: true, error: failureOf(error) });
      }
    },
    async start(key) {
      listen();
      const serial = eventSerial;
      try {
        applyAnswer(await call('downloads:start', key), serial);
      } catch {
        // The toast said why.
      }
    },
    async cancel(key) {
      const serial = eventSerial;
      try {
        applyAnswer(await call('downloads:cancel', key), serial);
      } catch {
        // The toast said why.
      }
    },
    async remove(key) {
      const serial = eventSerial;
      try {
        set({ states: listed(await call('downloads:delete', key), serial, key) });
      } catch {
        // The toast said why.
      }
    },
  };
});

/** The state of one dataset, if it was ever started. */
export const downloadOf = (states: readonly DownloadState[], key: DatasetKey): DownloadState | undefined =>
  states.find((s) => same(s, key));
