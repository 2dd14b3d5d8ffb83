import { ServiceRequestError } from './http';
import type { Sleep } from './retry';

/** How a call waits out a service that answers 503 PREPARING (docs/core.md, A starting service). */
export interface PreparingPolicy {
  /** The longest the preparation may go without moving before the call fails. */
  stallMs: number;
  /** No wait between two tries is longer than this, whatever `Retry-After` asks for. */
  maxDelayMs: number;
}

/**
 * Two minutes without progress: as long as the local service's own start may stay silent before
 * the core takes it for stuck (local-service/service-process.ts).
 */
export const DEFAULT_PREPARING_POLICY: PreparingPolicy = { stallMs: 120_000, maxDelayMs: 5_000 };

/** The shortest wait between two tries, whatever `Retry-After` says. */
const MIN_DELAY_MS = 250;

/** Whether `error` is a service's "still preparing its data" answer. */
export const isPreparing = (error: unknown): error is ServiceRequestError =>
  error instanceof ServiceRequestError && error.code === 'PREPARING';

/**
 * Runs `once` until it answers anything but 503 PREPARING. A service that is preparing refuses a
 * call before acting, so every call may be sent again, a write included. There is no time limit
 * while the preparation moves (its step or count changes between answers); one that stands still
 * for `stallMs` fails the call with the service's own words and how long it stood.
 */
export async function waitWhilePreparing<T>(
  once: () => Promise<T>,
  policy: PreparingPolicy,
  sleep: Sleep,
  nowMs: () => number,
): Promise<T> {
  let seen: string | null = null;
  let movedAtMs = nowMs();
  for (;;) {
    try {
      return await once();
    } catch (error) {
      if (!isPreparing(error)) throw error;
      const where = JSON.stringify(error.preparing);
      if (where !== seen) {
        seen = where;
        movedAtMs = nowMs();
      } else if (nowMs() - movedAtMs >= policy.stallMs) {
        throw new ServiceRequestError(
          'PREPARING',
          `${error.message} Its preparation made no progress for ${Math.round(policy.stallMs / 1000)} s, so Copydesk stopped waiting.`,
          error.status,
          error.retryAfterMs,
          error.preparing,
        );
      }
      await sleep(Math.min(Math.max(error.retryAfterMs ?? 1000, MIN_DELAY_MS), policy.maxDelayMs));
    }
  }
}
