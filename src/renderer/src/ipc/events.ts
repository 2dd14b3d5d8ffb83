import type { EventName } from '@shared/ipc/names';
import type { EventPayload } from '@shared/ipc/contract';
import type { LinkState } from './bridge';
import { api, bridgeLink } from './bridge';

/** Listens to an event the core pushes; returns the function that stops listening. */
export function subscribe<E extends EventName>(
  event: E,
  listener: (payload: EventPayload<E>) => void,
): () => void {
  return api.on(event, (payload) => {
    try {
      listener(payload);
    } catch (error) {
      // One bad listener must not silence the others sharing the socket.
      console.error(`Listener for ${event} failed`, error);
    }
  });
}

/** Listens to the link to the core going up or down (web shell only; Electron stays up). */
export function subscribeLink(listener: (state: LinkState) => void): () => void {
  return bridgeLink.onChange(listener);
}

/** The link's state now. */
export const currentLink = (): LinkState => bridgeLink.state();
