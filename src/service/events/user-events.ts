import { randomBytes } from 'node:crypto';
import type { CopyEvent } from '../copy-engine/types';

/** An event with the id its stream sends as `id:` (what a reconnecting client sends back). */
export interface NumberedEvent {
  id: string;
  event: CopyEvent;
}

/** Gets each event and its id. */
type Listener = (event: CopyEvent, id: string) => void;

/** Events kept per user for replay to a reconnecting stream (Last-Event-ID). */
export const REPLAY_EVENTS_PER_USER = 256;
/** Users whose recent events are kept; the one who had an event longest ago is forgotten first. */
export const REPLAY_USERS_MAX = 10_000;

/**
 * Events for users' terminals, by user: copy positions opened, updated and closed, activity logs
 * written, withdrawals settled. Whoever changes those publishes here; each user's event streams
 * subscribe to their own events only.
 *
 * Every event gets an id `<run>-<n>`: `run` is drawn when the service starts, `n` counts up. The
 * last REPLAY_EVENTS_PER_USER events of each user are kept in memory, so a stream that reconnects
 * with the id of the last event it saw gets what it missed; an id of another run (the service
 * restarted) or older than what is kept cannot be replayed, and `since` says so (null).
 */
export class UserEvents {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly recent = new Map<string, { seq: number; event: NumberedEvent }[]>();
  private readonly run = randomBytes(6).toString('base64url');
  private seq = 0;

  /** Delivers events to the streams of each event's user. */
  publish(events: readonly CopyEvent[]): void {
    for (const event of events) {
      this.seq += 1;
      const numbered = { id: `${this.run}-${this.seq}`, event };
      this.remember(event.userId, this.seq, numbered);
      for (const listener of this.listeners.get(event.userId) ?? []) listener(event, numbered.id);
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

  /**
   * The user's events after `lastId`, oldest first; null when they cannot all be given (the id
   * is of another run, malformed, or older than the events kept): the client must reload.
   */
  since(userId: string, lastId: string): NumberedEvent[] | null {
    const match = /^(.+)-(\d{1,15})$/.exec(lastId.trim());
    if (!match || match[1] !== this.run) return null;
    const last = Number(match[2]);
    if (last > this.seq) return null;
    const kept = this.recent.get(userId) ?? [];
    const after = kept.filter((entry) => entry.seq > last);
    // Events were dropped between `last` and the oldest kept one: the replay would have a gap.
    if (kept.length === REPLAY_EVENTS_PER_USER && after.length === kept.length && kept[0]!.seq > last + 1)
      return null;
    return after.map((entry) => entry.event);
  }

  private remember(userId: string, seq: number, event: NumberedEvent): void {
    let kept = this.recent.get(userId);
    if (kept) this.recent.delete(userId);
    else kept = [];
    this.recent.set(userId, kept);
    kept.push({ seq, event });
    if (kept.length > REPLAY_EVENTS_PER_USER) kept.shift();
    if (this.recent.size > REPLAY_USERS_MAX) this.recent.delete(this.recent.keys().next().value as string);
  }
}
