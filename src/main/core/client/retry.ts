import { ServiceRequestError } from './http';

/** How idempotent calls retry: at most `maxAttempts` tries, waits doubling from `baseDelayMs`. */
export interface RetryPolicy {
  /** Tries in all, the first included. */
  maxAttempts: number;
  /** Wait before the second try after a network error; doubles for each further try. */
  baseDelayMs: number;
  /** No wait is longer than this, whatever `Retry-After` asks for. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 250, maxDelayMs: 5_000 };

/** Waits `ms` milliseconds; tests inject one that moves a test clock instead. */
export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Whether a failed try is worth another: the service was not reachable (no answer at all), or it
 * answered 429. A timeout is not retried: the call may still be running, and three of them would
 * keep a trader waiting for the better part of a minute.
 */
export function isRetryable(error: unknown): error is ServiceRequestError {
  return error instanceof ServiceRequestError && (error.code === 'OFFLINE' || error.code === 'RATE_LIMITED');
}

/** The wait before try number `attempt + 1`: `Retry-After` when the service gave one, capped. */
export function delayBefore(policy: RetryPolicy, attempt: number, error: ServiceRequestError): number {
  const backoff = policy.baseDelayMs * 2 ** (attempt - 1);
  const asked = error.retryAfterMs ?? backoff;
  return Math.min(Math.max(asked, 0), policy.maxDelayMs);
}

/** Runs `once` until it succeeds, fails for good, or has been tried `policy.maxAttempts` times. */
export async function withRetry<T>(once: () => Promise<T>, policy: RetryPolicy, sleep: Sleep): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await once();
    } catch (error) {
      if (!isRetryable(error) || attempt >= policy.maxAttempts) throw error;
      await sleep(delayBefore(policy, attempt, error));
    }
  }
}
