import { AsyncLocalStorage } from 'node:async_hooks';
import type { Channel } from '../../../shared';

/** The channel call being handled, with the request exactly as the renderer sent it. */
export interface RequestScope {
  channel: Channel;
  request: unknown;
}

/**
 * Set by the dispatcher around each handler. Handlers receive the validated request (defaults
 * filled in), but the renderer matches `data:fresh` events by the key of the request it sent, so
 * the cache-first reads take the event key from here (see ReadThrough).
 */
export const requestScope = new AsyncLocalStorage<RequestScope>();
