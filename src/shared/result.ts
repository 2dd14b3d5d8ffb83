/** The one shape every handler answers with: nothing throws across the bridge (docs/architecture.md). */
export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

import { SERVICE_ERROR_CODES } from './api/common';

/**
 * Codes only the terminal raises, about itself: no service answers with these. The service's
 * codes are written once, in `SERVICE_ERROR_CODES` (docs/api.md, Errors).
 */
export const TERMINAL_ERROR_CODES = [
  'OFFLINE',
  'TIMEOUT',
  'NO_WALLET',
  'NOT_LOGGED_IN',
  'KEYCHAIN_UNAVAILABLE',
  'UNKNOWN_CHANNEL',
] as const;

/** Error codes the terminal shows to the user: the service's, passed through unchanged, and its own. */
export const appErrorCodes = [...SERVICE_ERROR_CODES, ...TERMINAL_ERROR_CODES] as const;
export type AppErrorCode = (typeof appErrorCodes)[number];

/** Whether `code` (read from an answer, so of any type) is one the terminal knows. */
export const isAppErrorCode = (code: unknown): code is AppErrorCode =>
  (appErrorCodes as readonly unknown[]).includes(code);

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
