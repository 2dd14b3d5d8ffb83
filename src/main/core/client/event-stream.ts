/** What the event stream needs to reach one profile's service. */
export interface EventStreamOptions {
  /** The service's base URL now (the local one changes port when it restarts). */
  baseUrl: () => Promise<string>;
  /** The session's token; null stops the stream (logged out). */
  token: () => Promise<string | null>;
  /** Signs in again after a 401; null when that failed (the stream stops). */
  renew: () => Promise<string | null>;
  /** One server-sent event: its name and its parsed JSON data. */
  onEvent: (event: string, data: unknown) => void;
  /** The stream is open (the service answers). */
  onOpen?: () => void;
  /** Waits between reconnections: `baseMs` doubling to `maxMs`. Default 1 s to 30 s. */
  backoff?: { baseMs: number; maxMs: number };
  /** No byte for this long (the service sends a heartbeat every 15 s) means a dead link. Default 45 s. */
  idleTimeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * The service's authenticated event stream, `GET /events` (server-sent events, JWT): kept open
 * while the user is logged in, reconnected with a growing wait when it drops, renewed once by
 * signing in again when the service refuses the token.
 */
export class ServiceEventStream {
  private running = false;
  private loop: Promise<void> | null = null;
  private controller: AbortController | null = null;
  private wake: (() => void) | null = null;

  constructor(private readonly options: EventStreamOptions) {}

  get active(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run().finally(() => (this.running = false));
  }

  /** Reconnects now instead of at the end of the current wait (the service is known to be back). */
  retryNow(): void {
    this.wake?.();
  }

  /** Closes the stream and waits for its loop to end. */
  async stop(): Promise<void> {
    this.running = false;
    this.controller?.abort();
    this.wake?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    const { baseMs, maxMs } = this.options.backoff ?? { baseMs: 1_000, maxMs: 30_000 };
    let failures = 0;
    let renewed = false;
    while (this.running) {
      const token = await this.options.token().catch(() => null);
      if (!token || !this.running) return;
      let status: number | null = null;
      try {
        status = await this.connect(token, () => {
          failures = 0;
          renewed = false;
          this.options.onOpen?.();
        });
      } catch {
        // No answer, or the link dropped: try again after a wait.
      }
      if (!this.running) return;
      if (status === 401) {
        // The token expired or was revoked: sign in again, once until a stream opens.
        if (renewed || (await this.options.renew().catch(() => null)) === null) return;
        renewed = true;
        continue;
      }
      failures += 1;
      await this.sleep(Math.min(baseMs * 2 ** (failures - 1), maxMs));
    }
  }

  /** One connection: reads events until the stream ends; returns the HTTP status. */
  private async connect(token: string, opened: () => void): Promise<number> {
    const controller = new AbortController();
    this.controller = controller;
    const url = new URL('/events', await this.options.baseUrl()).toString();
    const response = await (this.options.fetch ?? fetch)(url, {
      headers: { authorization: token, accept: 'text/event-stream' },
      signal: controller.signal,
    });
    if (response.status !== 200 || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      return response.status;
    }
    opened();
    const idleMs = this.options.idleTimeoutMs ?? 45_000;
    let idle = setTimeout(() => controller.abort(), idleMs);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        clearTimeout(idle);
        idle = setTimeout(() => controller.abort(), idleMs);
        buffer += decoder.decode(value, { stream: true });
        let end: RegExpExecArray | null;
        while ((end = /\r?\n\r?\n/.exec(buffer))) {
          this.dispatch(buffer.slice(0, end.index));
          buffer = buffer.slice(end.index + end[0].length);
        }
      }
    } finally {
      clearTimeout(idle);
    }
    return 200;
  }

  /** One event block: `event:` and `data:` lines; comments (`:`) are heartbeats. */
  private dispatch(block: string): void {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length === 0) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.join('\n'));
    } catch {
      return; // not JSON: not an event of this service
    }
    try {
      this.options.onEvent(event, parsed);
    } catch (error) {
      console.error('[copydesk core] a service event could not be handled', error);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = null;
        resolve();
      }, ms);
      timer.unref();
      this.wake = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
    });
  }
}
