import { EventEmitter } from 'node:events';
import type { EventName, EventPayload } from '../../shared';

type Listener<E extends EventName> = (payload: EventPayload<E>) => void;

/** The core's push channel to the renderer; both shells forward every event to their windows. */
export class CoreEvents {
  private readonly emitter = new EventEmitter();
  private readonly last = new Map<EventName, unknown>();

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    this.last.set(event, payload);
    this.emitter.emit(event, payload);
  }

  /** Subscribes to one event; returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: Listener<E>): () => void {
    this.emitter.on(event, listener);
    return () => this.emitter.off(event, listener);
  }

  /** Subscribes to every event (for the shells' forwarding). */
  onAny(listener: (event: EventName, payload: unknown) => void, events: readonly EventName[]): () => void {
    const offs = events.map((event) => this.on(event, (payload) => listener(event, payload)));
    return () => offs.forEach((off) => off());
  }

  /** The latest payload of a state-like event, so a window that opens late catches up. */
  latest<E extends EventName>(event: E): EventPayload<E> | undefined {
    return this.last.get(event) as EventPayload<E> | undefined;
  }
}
