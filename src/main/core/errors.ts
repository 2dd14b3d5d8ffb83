import type { AppErrorCode } from '../../shared/result';

/** A failure the core reports to the user as it is: a code and one sentence. */
export class CoreError extends Error {
  constructor(
    readonly code: AppErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CoreError';
  }
}
