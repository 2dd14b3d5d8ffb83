import type { Channel } from '../../../shared/ipc/names';
import type { ChannelRequest, ChannelResponse } from '../../../shared/ipc/contract';
import type { AppError, Result } from '../../../shared/result';
import { toast } from '../stores/toasts';
import { api } from './bridge';

/** A failed call, after its toast was raised; carries the core's AppError. */
export class CallFailure extends Error {
  constructor(
    readonly channel: Channel,
    readonly error: AppError,
  ) {
    super(error.message);
    this.name = 'CallFailure';
  }
}

// What the user was doing, for the toast's title. A channel missing here gets a generic title.
const failureTitles: Partial<Record<Channel, string>> = {
  'app:info': 'Could not read the terminal information',
  'wallet:status': 'Could not read the wallet',
  'wallet:create': 'Could not create the wallet',
  'wallet:import': 'Could not import the private key',
  'wallet:delete': 'Could not delete the wallet',
  'auth:status': 'Could not read the session',
  'auth:login': 'Could not log in',
  'auth:logout': 'Could not log out',
  'tokens:list': 'Could not load the tokens',
};

/** Calls a channel and returns its Result; never throws, never toasts. */
export async function invoke<C extends Channel>(
  channel: C,
  request: ChannelRequest<C>,
): Promise<Result<ChannelResponse<C>>> {
  try {
    return await api.invoke(channel, request);
  } catch (error) {
    // The preload should answer with a Result; a throw means the bridge itself broke.
    const detail = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: { code: 'INTERNAL', message: `The terminal core failed to answer: ${detail}` },
    };
  }
}

export interface CallOptions {
  /** Skip the toast: for background reads whose failure the page already shows. */
  quiet?: boolean;
}

/**
 * Calls a channel and unwraps its Result. A failure raises a toast here — the one place that
 * does — then rejects with a CallFailure so the caller can stop what it was doing.
 */
export async function call<C extends Channel>(
  channel: C,
  request: ChannelRequest<C>,
  options: CallOptions = {},
): Promise<ChannelResponse<C>> {
  const result = await invoke(channel, request);
  if (result.ok) return result.value;
  if (!options.quiet) {
    toast({
      tone: 'error',
      title: failureTitles[channel] ?? 'The request failed',
      message: result.error.message,
      code: result.error.code,
    });
  }
  throw new CallFailure(channel, result.error);
}

/** The AppError behind a rejection from `call`, or null for anything else (a real bug). */
export function failureOf(error: unknown): AppError | null {
  return error instanceof CallFailure ? error.error : null;
}
