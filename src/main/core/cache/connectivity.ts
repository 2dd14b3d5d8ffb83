import type { CoreEvents } from '../events';

type State = 'online' | 'offline' | 'connecting';

export interface ConnectivityOptions {
  /** Asks the active profile's service whether it answers (e.g. `GET /health`). */
  probe?: () => Promise<boolean>;
  /** How often to probe while offline. Default 3 s. */
  probeIntervalMs?: number;
}

/**
 * Whether the active profile's service answers, as learnt from the calls themselves; every change
 * is pushed as `connection:state` so the terminal can say "offline, showing cached data". While
 * offline a light probe runs every few seconds, so the terminal notices the service came back
 * even when no view is asking for anything.
 */
export class Connectivity {
  private state: State = 'connecting';
  private timer: NodeJS.Timeout | null = null;
  /** The profile a probe is under way for, if any. */
  private probing: string | null = null;
  private closed = false;

  constructor(
    private readonly events: CoreEvents,
    private profileId: string,
    private readonly now: () => Date = () => new Date(),
    private readonly options: ConnectivityOptions = {},
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

  /** A new profile starts unknown until its first call (or the probe) answers. */
  switchProfile(profileId: string): void {
    this.profileId = profileId;
    this.state = 'online';
    this.set('connecting', null);
    void this.probeOnce();
  }

  /** Probes once now; the state follows the answer. */
  async probeOnce(): Promise<void> {
    const profileId = this.profileId;
    if (!this.options.probe || this.probing === profileId || this.closed) return;
    this.probing = profileId;
    try {
      const up = await this.options.probe().catch(() => false);
      // A probe of a profile the user has left says nothing about the active one.
      if (profileId !== this.profileId || this.closed) return;
      if (up) this.reportSuccess();
      else this.reportUnreachable('The service does not answer its health probe.');
    } finally {
      if (this.probing === profileId) this.probing = null;
    }
  }

  /** Stops the probe for good (core shutdown). */
  close(): void {
    this.closed = true;
    this.stopProbe();
  }

  private set(state: State, message: string | null): void {
    if (state === this.state) return;
    this.state = state;
    if (state === 'offline') this.startProbe();
    else this.stopProbe();
    this.events.emit('connection:state', {
      profileId: this.profileId,
      state,
      since: this.now().toISOString(),
      message,
    });
  }

  private startProbe(): void {
    if (!this.options.probe || this.timer || this.closed) return;
    this.timer = setInterval(() => void this.probeOnce(), this.options.probeIntervalMs ?? 3_000);
    this.timer.unref();
  }

  private stopProbe(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
