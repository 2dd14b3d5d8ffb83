import type { CopyEvent } from '../copy/types';

type Listener = (event: CopyEvent) => void;

/**
 * Events for users' terminals, by user: copy positions opened, updated and closed, activity logs
 * written, withdrawals settled. Whoever changes those publishes here; each user's event streams
 * subscribe to their own events only.
 */
export class UserEvents {
  private readonly listeners = new Map<string, Set<Listener>>();

  /** Delivers events to the streams of each event's user. */
  publish(events: readonly CopyEvent[]): void {
    for (const event of events) {
      for (const listener of this.listeners.get(event.userId) ?? []) listener(event);
    }
  }

  /** Listens to one user's events; returns the unsubscribe function. */
  subscribe(userId: string, listener: Listener): () => void {
    let set = this.listeners.get(userId);
    if (!set) this.listeners.set(userId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(userId);
    };
  }
}
