import type { CoreEvents } from '../events';

type State = 'online' | 'offline' | 'connecting';

/**
 * Whether the active profile's service answers, as learnt from the calls themselves; every change
 * is pushed as `connection:state` so the terminal can say "offline, showing cached data".
 */
export class Connectivity {
  private state: State = 'connecting';

  constructor(
    private readonly events: CoreEvents,
    private profileId: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  isOnline(): boolean {
    return this.state !== 'offline';
  }

  current(): State {
    return this.state;
  }

  reportSuccess(): void {
    this.set('online', null);
  }

  reportUnreachable(message: string): void {
    this.set('offline', message);
  }

  /** A new profile starts unknown until its first call answers. */
  switchProfile(profileId: string): void {
    this.profileId = profileId;
    this.state = 'online';
    this.set('connecting', null);
  }

  private set(state: State, message: string | null): void {
    if (state === this.state) return;
    this.state = state;
    this.events.emit('connection:state', {
      profileId: this.profileId,
      state,
      since: this.now().toISOString(),
      message,
    });
  }
}
