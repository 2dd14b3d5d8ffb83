import { channels, isChannel, type Result } from '../../shared';
import { fail, ok } from '../../shared/result';
import { describeIssues } from '../../shared/validation';
import { requestScope } from './cache/request-scope';
import { CoreError } from './errors';
import type { Handlers } from './handlers/handlers';
import { KeychainUnavailableError } from './secrets/secret-store';

/**
 * The one entry every shell calls: checks the channel name, validates the request as `unknown`
 * with the contract's schema, runs the handler, and turns every failure into a Result.
 * Nothing throws across the bridge (docs/architecture.md).
 */
export async function dispatch(
  handlers: Handlers,
  channel: unknown,
  request: unknown,
): Promise<Result<unknown>> {
  if (!isChannel(channel)) return fail('UNKNOWN_CHANNEL', `${nameOf(channel)} is not a Copydesk channel.`);
  try {
    const parsed = channels[channel].request.safeParse(request ?? {});
    if (!parsed.success) return fail('VALIDATION_FAILED', describeIssues(parsed.error, 'request'));
    const handler = handlers[channel] as (req: unknown) => Promise<unknown>;
    // The raw request rides along for the cache-first reads' `data:fresh` keys (request-scope.ts).
    return ok(await requestScope.run({ channel, request: request ?? {} }, () => handler(parsed.data)));
  } catch (error) {
    return failureOf(error);
  }
}

/** A channel name to quote in a message, whatever was sent (some objects cannot even be stringified). */
function nameOf(channel: unknown): string {
  try {
    return String(channel).slice(0, 60);
  } catch {
    return `a ${typeof channel}`;
  }
}

function failureOf(error: unknown): Result<never> {
  if (error instanceof CoreError) return fail(error.code, error.message);
  if (error instanceof KeychainUnavailableError) return fail('KEYCHAIN_UNAVAILABLE', error.message);
  // Unexpected: keep the details in the log, give the user a sentence without internals.
  console.error('[copydesk core] unexpected error', error);
  return fail('INTERNAL', 'Copydesk failed unexpectedly; the details are in its log.');
}
