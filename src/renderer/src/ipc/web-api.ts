import type { Channel, EventName } from '@shared/ipc/names';
import { isEventName } from '@shared/ipc/names';
import type { ChannelRequest, ChannelResponse, CopydeskApi, EventPayload } from '@shared/ipc/contract';
import type { AppError, Result } from '@shared/result';
import { WEB_EVENTS_PATH, WEB_IPC_PREFIX, WEB_TOKEN_HEADER, WEB_TOKEN_QUERY } from '@shared/ipc/web-protocol';

/**
 * The link to the core: `up` while the event socket is open, `down` while it is not;
 * `no-token` when the page was opened without its token, `rejected` when the core refused it
 * (the terminal restarted since, with a new token).
 */
export type LinkState = 'connecting' | 'up' | 'down' | 'no-token' | 'rejected';

/** CopydeskApi over the web shell, plus the state of its event socket. */
export interface WebApi extends CopydeskApi {
  linkState(): LinkState;
  onLinkChange(listener: (state: LinkState) => void): () => void;
}

const OFFLINE: AppError = {
  code: 'OFFLINE',
  message: 'The terminal core is not reachable. Is Copydesk still running?',
};
const NO_TOKEN: AppError = {
  code: 'UNAUTHORIZED',
  message:
    'This page was opened without its access token. Open the address the terminal printed when it started (it ends in ?token=…).',
};
const TOKEN_REFUSED: AppError = {
  code: 'UNAUTHORIZED',
  message:
    'The terminal refused this page’s access token; it was probably restarted since. Open the address it printed this time.',
};
/**
 * How long a call may wait for the core. Not while the local service is starting: the core holds
 * calls until it is ready (a first start seeds the demo world, longer than this on a busy
 * machine) and fails them itself when the start fails or stalls (docs/core.md, A starting service).
 */
const INVOKE_TIMEOUT_MS = 30_000;
const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 10_000;

const failure = <T>(error: AppError): Result<T> => ({ ok: false, error });

/** True when `body` has the shape of a Result; the core's own validation happens on its side. */
function isResult(body: unknown): body is Result<unknown> {
  if (typeof body !== 'object' || body === null || !('ok' in body)) return false;
  if (body.ok === true) return 'value' in body;
  if (body.ok !== false || !('error' in body)) return false;
  const error = body.error;
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof error.code === 'string' &&
    'message' in error &&
    typeof error.message === 'string'
  );
}

/** True for a `service:state` payload saying the local service is starting. */
function isStarting(payload: unknown): boolean {
  return (
    typeof payload === 'object' && payload !== null && 'state' in payload && payload.state === 'starting'
  );
}

/**
 * A call's time limit that does not run out while `holding()` says to wait (the local service is
 * starting): it is armed again instead, and `rearm` gives it its full time back.
 */
class Deadline {
  private readonly controller = new AbortController();
  private timer: number | undefined;
  expired = false;

  constructor(
    private readonly ms: number,
    private readonly holding: () => boolean,
  ) {
    this.rearm();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  readonly rearm = (): void => {
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => {
      if (this.holding()) return this.rearm();
      this.expired = true;
      this.controller.abort();
    }, this.ms);
  };

  clear(): void {
    window.clearTimeout(this.timer);
  }
}

/**
 * Builds the API the preload would give, for a browser served by the web shell: each channel is
 * `POST /ipc/<channel>` answered by a JSON Result; events share one WebSocket that reconnects
 * with backoff. Nothing here throws: every failure comes back as a Result.
 */
export function createWebApi(token: string | null): WebApi {
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const linkListeners = new Set<(state: LinkState) => void>();
  let link: LinkState = token ? 'connecting' : 'no-token';
  let socket: WebSocket | null = null;
  let attempt = 0;
  // The local service's last reported state, and the deadlines of the calls waiting meanwhile.
  let serviceStarting = false;
  const deadlines = new Set<() => void>();

  const setLink = (next: LinkState): void => {
    if (next === link) return;
    link = next;
    for (const listener of linkListeners) listener(next);
  };

  const connect = (): void => {
    if (socket || !token) return;
    const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
    const url = `${scheme}//${window.location.host}${WEB_EVENTS_PATH}?${WEB_TOKEN_QUERY}=${encodeURIComponent(token)}`;
    const ws = new WebSocket(url);
    socket = ws;
    ws.addEventListener('open', () => {
      attempt = 0;
      if (link !== 'rejected') setLink('up');
    });
    ws.addEventListener('message', (message: MessageEvent) => {
      if (typeof message.data !== 'string') return;
      let frame: unknown;
      try {
        frame = JSON.parse(message.data);
      } catch {
        return;
      }
      if (typeof frame !== 'object' || frame === null || !('event' in frame) || !('payload' in frame)) return;
      if (!isEventName(frame.event)) return;
      if (frame.event === 'service:state') {
        serviceStarting = isStarting(frame.payload);
        // A start making progress: the calls waiting for it get their full time again.
        if (serviceStarting) for (const rearm of deadlines) rearm();
      }
      for (const listener of listeners.get(frame.event) ?? []) listener(frame.payload);
    });
    ws.addEventListener('close', () => {
      socket = null;
      // A refused token also closes the socket; keep saying why rather than "unreachable".
      if (link !== 'rejected') setLink('down');
      // Exponential backoff with jitter, so a restarting core is not hammered by every open page.
      const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** attempt) * (0.75 + Math.random() / 2);
      attempt += 1;
      window.setTimeout(connect, delay);
    });
  };

  return {
    async invoke<C extends Channel>(
      channel: C,
      request: ChannelRequest<C>,
    ): Promise<Result<ChannelResponse<C>>> {
      if (!token) return failure(NO_TOKEN);
      const deadline = new Deadline(INVOKE_TIMEOUT_MS, () => serviceStarting);
      deadlines.add(deadline.rearm);
      let response: Response;
      try {
        response = await fetch(WEB_IPC_PREFIX + channel, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [WEB_TOKEN_HEADER]: token },
          body: JSON.stringify(request),
          signal: deadline.signal,
        });
      } catch {
        if (deadline.expired) {
          return failure({
            code: 'TIMEOUT',
            message: `The terminal core did not answer within ${INVOKE_TIMEOUT_MS / 1000} seconds.`,
          });
        }
        return failure(OFFLINE);
      } finally {
        deadline.clear();
        deadlines.delete(deadline.rearm);
      }
      // The web shell answers a wrong token with 401 before any handler runs; the service's own
      // UNAUTHORIZED errors come back inside a 200 Result.
      if (response.status === 401 || response.status === 403) {
        setLink('rejected');
        return failure(TOKEN_REFUSED);
      }
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        body = undefined;
      }
      if (isResult(body)) return body as Result<ChannelResponse<C>>;
      return failure({
        code: 'INTERNAL',
        message: `The terminal core sent an answer this window cannot read (HTTP ${response.status}).`,
      });
    },

    on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
      const wrapped = listener as (payload: unknown) => void;
      let set = listeners.get(event);
      if (!set) {
        set = new Set();
        listeners.set(event, set);
      }
      set.add(wrapped);
      connect();
      return () => {
        listeners.get(event)?.delete(wrapped);
      };
    },

    linkState: () => link,

    onLinkChange(listener: (state: LinkState) => void): () => void {
      linkListeners.add(listener);
      return () => {
        linkListeners.delete(listener);
      };
    },
  };
}
