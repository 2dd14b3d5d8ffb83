import type { Channel } from '@shared/ipc/names';
import type { ChannelRequest, ChannelResponse } from '@shared/ipc/contract';
import type { AppError, Result } from '@shared/result';
import { toast } from '@renderer/stores/toasts';
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
// Every channel has one (the Record type insists), so no failure toast says only "failed".
const failureTitles: Record<Channel, string> = {
  'app:info': 'Could not read the terminal information',
  'wallet:status': 'Could not read the login key',
  'wallet:create': 'Could not create the login key',
  'wallet:import': 'Could not import the private key',
  'wallet:delete': 'Could not delete the login key',
  'auth:status': 'Could not read the session',
  'auth:login': 'Could not log in',
  'auth:logout': 'Could not log out',
  'tokens:list': 'Could not load the tokens',
  'live:top': 'Could not load the top open positions',
  'live:positions': 'Could not load the live positions',
  'live:orders': 'Could not load the live orders',
  'copyTrades:list': 'Could not load your copy trades',
  'copyTrades:create': 'Could not create the copy trade',
  'copyTrades:update': 'Could not save the copy trade',
  'copyTrades:setStatus': 'Could not change the copy trade’s status',
  'copyPositions:page': 'Could not load your copy positions',
  'copyPositions:orders': 'Could not load the position’s orders',
  'copyPositions:close': 'Could not close the position',
  'copyPositions:unlink': 'Could not unlink the position',
  'activityLogs:page': 'Could not load the activity log',
  'wallets:list': 'Could not load your wallets',
  'withdraw:preview': 'Could not work out the withdrawal fees',
  'withdraw:submit': 'The withdrawal was not made',
  'withdrawals:list': 'Could not load your withdrawals',
  'profiles:list': 'Could not read the service profiles',
  'profiles:save': 'Could not save the profile',
  'profiles:delete': 'Could not delete the profile',
  'profiles:switch': 'Could not switch the service',
  'settings:get': 'Could not read the settings',
  'settings:update': 'Could not save the setting',
  'cache:stats': 'Could not read the cache size',
  'cache:clear': 'Could not clear the cache',
  'downloads:list': 'Could not list the offline downloads',
  'downloads:start': 'Could not start the offline download',
  'downloads:cancel': 'Could not pause the offline download',
  'downloads:delete': 'Could not delete the offline data',
  'leaderboard:page': 'Could not load the leaderboard',
  'statistics:pnl': 'Could not load the daily PnL',
  'trader:statistics': 'Could not load the trader’s statistics',
  'trader:positions': 'Could not load the trader’s positions',
  'trader:orders': 'Could not load the position’s orders',
  'export:csv': 'Could not export the table',
  'export:cancel': 'Could not cancel the export',
  'feed:status': 'Could not read the Hyperliquid feed’s status',
  'feed:accounts': 'Could not change the tracked accounts',
  'backtest:run': 'The backtest did not run',
  'backtest:sweep': 'The sweep did not run',
  'backtest:cancel': 'Could not cancel the sweep',
  'prices:candles': 'Could not load the price chart',
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
