// The venue's WebSocket: allMids for every mark, and userFills for up to 10 accounts (the venue's
// limit on distinct users). Pings as the venue expects; on a drop it reconnects with backoff and
// tells the feed, which fills the gap by fills-by-time (docs/venue-feed.md, Live).
import WebSocket from 'ws';

/** The venue closes a connection that has sent nothing for a minute; the SDK pings every 50 s. */
const PING_MS = 50_000;
/** The venue allows user subscriptions for at most this many distinct users. */
export const MAX_SOCKET_USERS = 10;
const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 30_000;

export interface SocketHandlers {
  /**
   * New fills of `user` (lower case as subscribed); `snapshot`: the venue's recent fills on
   * subscribing; `receivedAt`: performance.now() when the message arrived (for latency).
   */
  onFills(user: string, fills: unknown, snapshot: boolean, receivedAt: number): void;
  onMids(mids: unknown): void;
  /** The connection is open (again) with these users subscribed: the feed fills their gap. */
  onOpen(users: readonly string[]): void;
  onClose(reason: string): void;
}

export class LiveSocket {
  private socket: WebSocket | null = null;
  private users = new Set<string>();
  private pingTimer: NodeJS.Timeout | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private failures = 0;
  private stopped = false;
  open = false;

  constructor(
    private readonly url: string,
    private readonly handlers: SocketHandlers,
  ) {}

  start(): void {
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.stopPing();
    this.socket?.terminate();
    this.socket = null;
  }

  /** The accounts followed by WebSocket (lower case); at most MAX_SOCKET_USERS are kept. */
  follow(accounts: readonly string[]): void {
    const next = new Set(accounts.slice(0, MAX_SOCKET_USERS).map((a) => a.toLowerCase()));
    if (this.open) {
      for (const user of this.users)
        if (!next.has(user)) this.send('unsubscribe', { type: 'userFills', user });
      for (const user of next) if (!this.users.has(user)) this.send('subscribe', { type: 'userFills', user });
    }
    this.users = next;
  }

  get followed(): ReadonlySet<string> {
    return this.users;
  }

  private connect(): void {
    if (this.stopped) return;
    const socket = new WebSocket(this.url, { handshakeTimeout: 10_000 });
    this.socket = socket;
    socket.on('open', () => {
      this.open = true;
      this.failures = 0;
      this.send('subscribe', { type: 'allMids' });
      for (const user of this.users) this.send('subscribe', { type: 'userFills', user });
      this.startPing();
      this.handlers.onOpen([...this.users]);
    });
    socket.on('message', (data) => this.receive(data.toString()));
    socket.on('error', () => undefined); // 'close' follows and reconnects
    socket.on('close', (code) => {
      if (this.socket !== socket) return;
      const wasOpen = this.open;
      this.open = false;
      this.stopPing();
      if (this.stopped) return;
      this.handlers.onClose(wasOpen ? `the connection dropped (${code})` : 'the venue cannot be reached');
      this.scheduleReconnect();
    });
  }

  private receive(text: string): void {
    let message: { channel?: unknown; data?: unknown };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return; // not ours to act on; the gap fill catches anything a garbled message held
    }
    const receivedAt = performance.now();
    if (message.channel === 'userFills') {
      const data = message.data as { user?: unknown; isSnapshot?: unknown; fills?: unknown } | undefined;
      if (typeof data?.user !== 'string') return;
      this.handlers.onFills(data.user.toLowerCase(), data.fills, data.isSnapshot === true, receivedAt);
    } else if (message.channel === 'allMids') {
      this.handlers.onMids((message.data as { mids?: unknown } | undefined)?.mids);
    }
  }

  private send(method: 'subscribe' | 'unsubscribe', subscription: Record<string, string>): void {
    this.socket?.send(JSON.stringify({ method, subscription }));
  }

  private startPing(): void {
    this.stopPing();
    this.pingTimer = setInterval(() => this.socket?.send(JSON.stringify({ method: 'ping' })), PING_MS);
    this.pingTimer.unref();
  }

  private stopPing(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  private scheduleReconnect(): void {
    this.failures += 1;
    const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** (this.failures - 1));
    const delay = ceiling / 2 + Math.random() * (ceiling / 2);
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
    this.reconnectTimer.unref();
  }
}
