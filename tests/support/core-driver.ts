// Drives a core through core.invoke and records every event it emits, for the core integration
// tests: `call` unwraps a successful answer, `eventAfter` waits for an event that came later.
import { vi } from 'vitest';
import type { Core } from '../../src/main/core/core';
import { eventNames, type Channel, type EventName, type Result } from '../../src/shared';

export interface SeenEvent {
  event: EventName;
  payload: unknown;
}

/** `core` is read on every call, so the driver can be made before the core is started. */
export function coreDriver(core: () => Core, wait: { timeout: number; interval: number }) {
  const seen: SeenEvent[] = [];
  return {
    seen,
    /** Starts recording the core's events into `seen`. */
    listen: (): void => {
      core().events.onAny((event, payload) => seen.push({ event, payload }), eventNames);
    },
    /** The value of a successful answer; fails the test with the error otherwise. */
    call: async <T = Record<string, unknown>>(channel: Channel, request: unknown = {}): Promise<T> => {
      const answer = (await core().invoke(channel, request)) as Result<T>;
      if (!answer.ok) throw new Error(`${channel} failed: ${answer.error.code} ${answer.error.message}`);
      return answer.value;
    },
    /** Waits for an event matching `test` that arrives after `from` (an index into `seen`). */
    eventAfter: (from: number, event: EventName, test: (payload: never) => boolean = () => true) =>
      vi.waitFor(() => {
        const found = seen.slice(from).find((e) => e.event === event && test(e.payload as never));
        if (!found) throw new Error(`no ${event} yet`);
        return found.payload as Record<string, unknown>;
      }, wait),
  };
}
