import type { EventPayload } from '@shared/ipc/contract';
import type { Channel } from '@shared/ipc/names';
import { subscribe } from './events';

/**
 * A `data:fresh` event: the refreshed answer to a cache-first read, pushed by the core under the
 * read's channel and its request key (`requestKey` in src/shared/ipc/request-key.ts, which the
 * renderer computes the same way for the requests it sends).
 */
export type FreshAnswer = EventPayload<'data:fresh'>;

/** A fresh answer taken as ours: the request key it answers and the answer as sent. */
export interface FreshMatch {
  key: string;
  value: unknown;
}

/**
 * The one rule that pairs a fresh answer with a request: the same channel and a request key the
 * caller asked for (`isOurs`). Every event carries some channel's answer; anything else is not ours.
 */
export function matchFresh(
  event: FreshAnswer,
  channel: Channel,
  isOurs: (key: string) => boolean,
): FreshMatch | null {
  if (event.channel !== channel || !isOurs(event.key)) return null;
  return { key: event.key, value: event.value };
}

/**
 * Listens to the fresh answers to `channel`'s requests that `isOurs` accepts (asked when the event
 * arrives, so a caller may keep its set of keys changing); returns the function that stops.
 */
export function subscribeFresh(
  channel: Channel,
  isOurs: (key: string) => boolean,
  listener: (answer: FreshMatch) => void,
): () => void {
  return subscribe('data:fresh', (event) => {
    const match = matchFresh(event, channel, isOurs);
    if (match) listener(match);
  });
}
