import type { AppError } from '@shared/result';
import { failureOf } from '@renderer/ipc/call';

/**
 * Runs a store's read with its `loading` flag up. A failure, already toasted by call() (or kept
 * quiet), lands in `error`; whatever `read` set before is kept.
 */
export async function readWithLoading(
  set: (patch: { loading: boolean } | { error: AppError | null }) => void,
  read: () => Promise<void>,
): Promise<void> {
  set({ loading: true });
  try {
    await read();
  } catch (error) {
    set({ error: failureOf(error) });
  } finally {
    set({ loading: false });
  }
}

/**
 * One user action at a time for a store with a `pending` field: a second call while one runs is
 * refused (false). Resolves true when `action` succeeded; its failure was toasted by call().
 */
export function oneActionAtATime<P extends string>(
  get: () => { pending: P | null },
  set: (patch: { pending: P | null }) => void,
): (pending: P, action: () => Promise<void>) => Promise<boolean> {
  return async (pending, action) => {
    if (get().pending) return false;
    set({ pending });
    try {
      await action();
      return true;
    } catch {
      return false;
    } finally {
      set({ pending: null });
    }
  };
}
