import type { Connectivity } from '../cache/connectivity';
import { CoreError } from '../errors';

/** Signs that the connection broke after the request may have been sent. */
const BROKEN_WHILE_SENDING = /ECONNRESET|EPIPE|socket|other side closed|terminated/i;

/**
 * Runs a write against the service. Writes never answer from the cache: when the service cannot
 * be reached they fail with OFFLINE and say that nothing was changed, or, when the link broke
 * after the request may have left, that the change may have been made.
 */
export function createWriteGuard(connectivity: Connectivity, serviceName: () => string) {
  return async function write<T>(action: () => Promise<T>): Promise<T> {
    try {
      const result = await action();
      connectivity.reportSuccess();
      return result;
    } catch (error) {
      if (!(error instanceof CoreError)) throw error;
      if (error.code === 'OFFLINE') {
        connectivity.reportUnreachable(error.message);
        if (BROKEN_WHILE_SENDING.test(error.message))
          throw new CoreError(
            'OFFLINE',
            `The connection to ${serviceName()} broke while sending; the change may or may not have been made. Check before trying again (${error.message})`,
          );
        throw new CoreError(
          'OFFLINE',
          `${serviceName()} is offline; nothing was changed. (${error.message})`,
        );
      }
      if (error.code === 'TIMEOUT') {
        connectivity.reportUnreachable(error.message);
        throw new CoreError(
          'TIMEOUT',
          `${serviceName()} did not answer in time; the change may or may not have been made. Check before trying again.`,
        );
      }
      throw error;
    }
  };
}

export type WriteGuard = ReturnType<typeof createWriteGuard>;
