/** The one shape every handler answers with: nothing throws across the bridge (ARCHITECTURE.md). */
export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

/** Error codes the terminal shows to the user; the service's own codes pass through unchanged. */
export const appErrorCodes = [
  'VALIDATION_FAILED',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'QUOTA_EXCEEDED',
  'INSUFFICIENT_BALANCE',
  'PIT_EXPIRED',
  'RATE_LIMITED',
  'INTERNAL',
  'PREPARING',
  'OFFLINE',
  'TIMEOUT',
  'NO_WALLET',
  'NOT_LOGGED_IN',
  'KEYCHAIN_UNAVAILABLE',
  'UNKNOWN_CHANNEL',
] as const;
export type AppErrorCode = (typeof appErrorCodes)[number];

/** A failure in words: `message` is one sentence a trader can act on. */
export interface AppError {
  code: AppErrorCode;
  message: string;
}

/** Builds a success Result. */
export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
/** Builds a failure Result. */
export const fail = <T = never>(code: AppErrorCode, message: string): Result<T> => ({
  ok: false,
  error: { code, message },
});
