// The soak's HTTP side: one gate that says whether the service is up (and where), and a request
// function that counts every answer and tells a lost connection (the service was killed) from an
// answer. Clients wait at the gate while the service is down, then go on.

/** Where the service is, while it is up; clients wait here while it restarts. */
export class ServiceGate {
  url: string | null = null;
  private waiters: (() => void)[] = [];
  private stopped = false;

  open(url: string): void {
    this.url = url;
    for (const wake of this.waiters.splice(0)) wake();
  }

  close(): void {
    this.url = null;
  }

  /** Ends the run: every waiting client wakes and sees `done`. */
  stop(): void {
    this.stopped = true;
    this.url = null;
    for (const wake of this.waiters.splice(0)) wake();
  }

  get done(): boolean {
    return this.stopped;
  }

  /** The URL once the service is up, or null when the run has ended. */
  async whenUp(): Promise<string | null> {
    while (!this.stopped && this.url === null) await new Promise<void>((r) => this.waiters.push(r));
    return this.stopped ? null : this.url;
  }
}

/** What the run counted: answers, 5xx answers (with the first few for the report), lost calls. */
export class TrafficCounts {
  requests = 0;
  errors5xx = 0;
  unexpected4xx = 0;
  dropped = 0;
  /** Each distinct unexpected answer, with how often it came. */
  readonly samples = new Map<string, number>();

  note(what: string): void {
    if (this.samples.size < 50 || this.samples.has(what))
      this.samples.set(what, (this.samples.get(what) ?? 0) + 1);
  }
}

/** The connection failed before an answer came: the service was killed or is restarting. */
export class Dropped extends Error {}

export interface Answer {
  status: number;
  body: unknown;
}

/**
 * One request. Resolves with the answer (counted; a 5xx also counted as an error), throws
 * Dropped when there was no answer, and waits at the gate first.
 */
export async function request(
  gate: ServiceGate,
  counts: TrafficCounts,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown; expect4xx?: boolean } = {},
): Promise<Answer> {
  const url = await gate.whenUp();
  if (url === null) throw new Dropped('the run has ended');
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${url}${path}`, {
      method,
      headers: {
        ...(options.body !== undefined && { 'content-type': 'application/json' }),
        ...options.headers,
      },
      ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
      signal: AbortSignal.timeout(30_000),
    });
    text = await response.text();
  } catch (error) {
    counts.dropped += 1;
    throw new Dropped((error as Error).message);
  }
  counts.requests += 1;
  if (response.status >= 500) {
    counts.errors5xx += 1;
    counts.note(`${method} ${path} → ${response.status} ${text.slice(0, 300)}`);
  } else if (response.status >= 400 && !options.expect4xx) {
    counts.unexpected4xx += 1;
    counts.note(`${method} ${path} → ${response.status} ${text.slice(0, 300)}`);
  }
  return { status: response.status, body: parsed(text) };
}

/** The answer's JSON, or its text when it is not JSON. */
function parsed(text: string): unknown {
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return text;
  }
}

/** Calls `attempt` until it gets an answer, waiting for the service between tries. */
export async function untilAnswered<T>(gate: ServiceGate, attempt: () => Promise<T>): Promise<T | null> {
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof Dropped) || gate.done) return null;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

export const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
