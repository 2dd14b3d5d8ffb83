// The Hyperliquid venue as a real HTTP and WebSocket server on 127.0.0.1, for the feed's tests and
// benchmark: the info API request types the feed reads, the venue's per-IP weight limit, its
// WebSocket subscriptions and its leaderboard file. Answers come from the recorded answers in
// tests/fixtures/hyperliquid/ until a test sets its own data; faults come on demand (failures,
// malformed pages, going offline, dropped WebSockets). Everything the feed asked is kept
// (`requests`, `wsMessagesReceived`) so a test can check how it behaved, not only what it computed.
//
// Choices where the venue is silent or unknowable from here:
// - Weight: a request is refused (429) when its whole weight, the extra for what its answer holds
//   included, would take the last 60 s over `weightPerMinute`. A refused request (429, a forced
//   failure, a 422) is charged its base weight, as the venue counts the requests it refuses; so a
//   client that keeps asking while refused stays refused, and `maxWeightInAnyMinute()` counts every
//   charge, refused ones included: a client whose own budget is right never sees it above the limit.
//   Extra weight is floor(fills / 20) and floor(candles / 60).
// - A body that is not JSON, misses a field, has a field of the wrong type, a `user` that is not a
//   0x address, or an unknown `type` answers 422 with a text body, as the venue does
//   ("Failed to deserialize the JSON body into the target type: …").
// - `userFillsByTime` without `endTime` reaches the end of the history (not the fake's clock), and
//   `aggregateByTime` is ignored; there is no 10,000-fill reach limit.
// - Pages list fills newest first across milliseconds but in execution order inside one, as the
//   recorded userFills answer does.
// - WebSocket `user`s are echoed in lower case.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';

/** A fill as the venue sends it (numbers as decimal strings). 2023 shape lacks tid/feeToken. */
export interface VenueFill {
  coin: string;
  px: string;
  sz: string;
  side: 'B' | 'A';
  time: number;
  startPosition: string;
  dir: string;
  closedPnl: string;
  hash: string;
  oid: number;
  crossed: boolean;
  fee: string;
  tid?: number;
  feeToken?: string;
}

export interface VenueAsset {
  name: string;
  szDecimals: number;
  maxLeverage: number;
}

/** A candle as `candleSnapshot` answers it. */
export interface VenueCandle {
  t: number;
  T: number;
  s: string;
  i: string;
  o: string;
  h: string;
  l: string;
  c: string;
  v: string;
  n: number;
}

export interface WindowPerformance {
  pnl: string;
  roi: string;
  vlm: string;
}

/** A row of the venue's leaderboard file; `displayName` is null for most accounts there. */
export interface LeaderboardRow {
  ethAddress: string;
  accountValue: string;
  displayName: string | null;
  prize: number;
  windowPerformances: [string, WindowPerformance][];
}

export interface FakeHyperliquidOptions {
  /** Max fills per userFills/userFillsByTime answer (2,000 today, 500 in 2023); default 2000. */
  pageCap?: number;
  /** Order of a userFillsByTime page: the 2023 recordings are newest first, the docs page oldest first. */
  pageOrder?: 'newest-first' | 'oldest-first';
  /** The venue's own per-IP limit; over it, 429. Default 1200. */
  weightPerMinute?: number;
  /** The fake's clock for its sliding minute; default Date.now. */
  nowMs?: () => number;
}

export interface InfoRequest {
  type: string;
  user?: string;
  /** The weight the venue charged for it. */
  weight: number;
  atMs: number;
  status: number;
  body: unknown;
}

export interface Subscription {
  type: string;
  user?: string;
}

export const MINUTE_MS = 60_000;
/** The venue's limit on distinct users across user subscriptions (per IP). */
export const WS_USER_LIMIT = 10;
const CANDLE_LIMIT = 5_000;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const LIGHT_TYPES = new Set(['allMids', 'clearinghouseState', 'l2Book', 'orderStatus', 'exchangeStatus']);
const FILL_TYPES = new Set(['userFills', 'userFillsByTime']);

/** The weight the venue charges for an info request of `type` answering `items` fills or candles. */
export function infoWeight(type: string, items = 0): number {
  if (LIGHT_TYPES.has(type)) return 2;
  if (type === 'userRole') return 60;
  if (FILL_TYPES.has(type)) return 20 + Math.floor(items / 20);
  if (type === 'candleSnapshot') return 20 + Math.floor(items / 60);
  return 20;
}

// ---- The recorded answers (tests/fixtures/hyperliquid/README.md); each call gives a fresh copy.

interface Recording {
  request: { method: string; uri: string; body: Record<string, unknown> };
  status: number;
  response: unknown;
}

function recorded(file: string, type: string): Recording {
  const list = JSON.parse(
    readFileSync(new URL(`../fixtures/hyperliquid/${file}`, import.meta.url), 'utf8'),
  ) as Recording[];
  const found = list.find((entry) => entry.request.body.type === type);
  if (!found) throw new Error(`${file} holds no ${type} answer`);
  return found;
}

/** get_user_fills.json: its account, and its fills as recorded (newest first, 2023 shape). */
export function recordedFills(): { account: string; fills: VenueFill[] } {
  const { request, response } = recorded('get_user_fills.json', 'userFills');
  return { account: String(request.body.user), fills: response as VenueFill[] };
}

export function recordedMeta(): { universe: VenueAsset[] } {
  return recorded('get_info.json', 'meta').response as { universe: VenueAsset[] };
}

export function recordedMids(): Record<string, string> {
  return recorded('get_all_mids.json', 'allMids').response as Record<string, string>;
}

export function recordedClearinghouse(): { account: string; state: unknown } {
  const { request, response } = recorded('get_user_state.json', 'clearinghouseState');
  return { account: String(request.body.user), state: response };
}

/** The recorded kPEPE 1h candles. */
export function recordedCandles(): VenueCandle[] {
  return recorded('get_candles_snapshot.json', 'candleSnapshot').response as VenueCandle[];
}

/** An account with no position: the recorded state's shape with nothing in it. */
function emptyClearinghouse(): unknown {
  const summary = { accountValue: '0.0', totalMarginUsed: '0.0', totalNtlPos: '0.0', totalRawUsd: '0.0' };
  return {
    assetPositions: [],
    crossMarginSummary: summary,
    marginSummary: { ...summary },
    withdrawable: '0.0',
  };
}

// ---- Fill histories.

/** The first index whose time is ≥ `time` (`after` false) or > `time` (`after` true). */
function searchTime(fills: VenueFill[], time: number, after: boolean): number {
  let low = 0;
  let high = fills.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const at = (fills[middle] as VenueFill).time;
    if (at < time || (after && at === time)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Newest first across milliseconds, execution order inside one: how the venue lists fills. */
function newestFirst(fills: VenueFill[]): VenueFill[] {
  const out: VenueFill[] = [];
  let end = fills.length;
  while (end > 0) {
    const time = (fills[end - 1] as VenueFill).time;
    let start = end - 1;
    while (start > 0 && (fills[start - 1] as VenueFill).time === time) start -= 1;
    for (let i = start; i < end; i += 1) out.push(fills[i] as VenueFill);
    end = start;
  }
  return out;
}

function accountKey(account: string): string {
  if (!ADDRESS.test(account)) throw new Error(`${account} is not a 0x address, which the venue would refuse`);
  return account.toLowerCase();
}

// ---- The sliding minute of charged weight.

class WeightWindow {
  private readonly times: number[] = [];
  private readonly weights: number[] = [];
  private head = 0;
  private sum = 0;

  /** The weight charged in the 60 s up to `now` (entries older than now − 60 s have left). */
  used(now: number): number {
    while (this.head < this.times.length && (this.times[this.head] as number) <= now - MINUTE_MS) {
      this.sum -= this.weights[this.head] as number;
      this.head += 1;
    }
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times.splice(0, this.head);
      this.weights.splice(0, this.head);
      this.head = 0;
    }
    return this.sum;
  }

  charge(now: number, weight: number): void {
    this.times.push(now);
    this.weights.push(weight);
    this.sum += weight;
  }
}

/** A 422: the body does not deserialize into the request type. */
class BadBody extends Error {}

interface Answer {
  payload: unknown;
  /** Fills or candles returned (the extra weight). */
  items: number;
  /** Set on fills pages: whose page it is, for malformNext. */
  fillsOf?: string;
}

interface Malformation {
  mutate: (page: VenueFill[]) => unknown;
  times: number;
}

interface Connection {
  socket: WebSocket;
  subscriptions: Map<string, Subscription>;
}

export class FakeHyperliquid {
  pageCap: number;
  readonly requests: InfoRequest[] = [];
  readonly wsMessagesReceived: unknown[] = [];
  /** GETs of the leaderboard file. */
  leaderboardFetches = 0;

  private readonly pageOrder: 'newest-first' | 'oldest-first';
  private readonly weightPerMinute: number;
  private readonly nowMs: () => number;
  private readonly window = new WeightWindow();
  private readonly histories = new Map<string, VenueFill[]>();
  private readonly clearinghouses = new Map<string, unknown>();
  private readonly candles = new Map<string, VenueCandle[]>();
  private readonly malformations = new Map<string, Malformation>();
  private readonly connections = new Set<Connection>();
  private readonly sockets = new WebSocketServer({ noServer: true });
  private readonly server: Server;
  private mids = recordedMids();
  private meta = recordedMeta();
  private leaderboard: LeaderboardRow[] = [];
  private failures: { count: number; status: number } = { count: 0, status: 429 };
  private offline = false;
  private port = 0;

  private constructor(options: FakeHyperliquidOptions) {
    this.pageCap = options.pageCap ?? 2000;
    this.pageOrder = options.pageOrder ?? 'oldest-first';
    this.weightPerMinute = options.weightPerMinute ?? 1200;
    this.nowMs = options.nowMs ?? Date.now;
    this.candles.set('kPEPE', recordedCandles());
    this.server = createServer((request, response) => this.route(request, response));
    this.server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) =>
      this.upgrade(request, socket, head),
    );
  }

  /** HTTP and WebSocket on 127.0.0.1, on a free port. */
  static async start(options: FakeHyperliquidOptions = {}): Promise<FakeHyperliquid> {
    const venue = new FakeHyperliquid(options);
    await new Promise<void>((resolve) => venue.server.listen(0, '127.0.0.1', resolve));
    venue.port = (venue.server.address() as AddressInfo).port;
    return venue;
  }

  /** The feed POSTs to `${baseUrl}/info`. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get wsUrl(): string {
    return `ws://127.0.0.1:${this.port}/ws`;
  }

  get leaderboardUrl(): string {
    return `http://127.0.0.1:${this.port}/Mainnet/leaderboard`;
  }

  // ---- Data.

  /** The account's whole history, kept sorted by time (ties in the order given). */
  setFills(account: string, fills: VenueFill[]): void {
    const sorted = [...fills].sort((a, b) => a.time - b.time);
    this.histories.set(accountKey(account), sorted);
  }

  fillsOf(account: string): VenueFill[] {
    return [...(this.histories.get(accountKey(account)) ?? [])];
  }

  /** New fills: appended to the history and sent to the account's userFills subscribers. */
  pushFill(account: string, ...fills: VenueFill[]): void {
    const key = accountKey(account);
    const history = this.histories.get(key) ?? [];
    this.histories.set(key, history);
    for (const fill of fills) {
      const last = history[history.length - 1];
      if (!last || last.time <= fill.time) history.push(fill);
      else history.splice(searchTime(history, fill.time, true), 0, fill);
    }
    this.broadcast({ type: 'userFills', user: key }, () => ({
      channel: 'userFills',
      data: { user: key, isSnapshot: false, fills },
    }));
  }

  setMids(mids: Record<string, string>): void {
    this.mids = { ...mids };
  }

  pushMids(mids: Record<string, string>): void {
    this.setMids(mids);
    this.broadcast({ type: 'allMids' }, () => ({ channel: 'allMids', data: { mids: this.mids } }));
  }

  setMeta(universe: VenueAsset[]): void {
    this.meta = { universe: [...universe] };
  }

  setClearinghouse(account: string, state: unknown): void {
    this.clearinghouses.set(accountKey(account), state);
  }

  /** Candles of one coin, any intervals (each candle's `i`); default: the recorded kPEPE 1h ones. */
  setCandles(coin: string, candles: VenueCandle[]): void {
    const sorted = [...candles].sort((a, b) => a.t - b.t);
    this.candles.set(coin, sorted);
  }

  setLeaderboard(rows: LeaderboardRow[]): void {
    this.leaderboard = rows;
  }

  // ---- Faults.

  /** The next `count` /info requests answer `status` without being served. */
  failNext(count: number, status = 429): void {
    this.failures = { count, status };
  }

  /** The next `times` fills pages of the account (userFills, userFillsByTime) are `mutate(page)`. */
  malformNext(account: string, mutate: (page: VenueFill[]) => unknown, times = 1): void {
    this.malformations.set(accountKey(account), { mutate, times });
  }

  /** Offline: HTTP connections are reset, WebSocket upgrades refused and open ones terminated. */
  setOffline(offline: boolean): void {
    this.offline = offline;
    if (!offline) return;
    this.dropWebSockets();
    this.server.closeAllConnections();
  }

  /** Terminates every open WebSocket: the client sees a drop, with no close frame. */
  dropWebSockets(): void {
    for (const connection of this.connections) connection.socket.terminate();
    // Gone now, not when each socket's close event comes: subscriptions() must not list them.
    this.connections.clear();
  }

  // ---- What the feed did.

  /** The largest weight charged in any 60 s (refused requests included: see the file's head). */
  maxWeightInAnyMinute(): number {
    const charges = [...this.requests].sort((a, b) => a.atMs - b.atMs);
    let largest = 0;
    let sum = 0;
    let first = 0;
    for (const charge of charges) {
      sum += charge.weight;
      while ((charges[first] as InfoRequest).atMs <= charge.atMs - MINUTE_MS) {
        sum -= (charges[first] as InfoRequest).weight;
        first += 1;
      }
      largest = Math.max(largest, sum);
    }
    return largest;
  }

  /** Current WebSocket subscriptions across connections. */
  subscriptions(): Subscription[] {
    return [...this.connections].flatMap((connection) => [...connection.subscriptions.values()]);
  }

  async close(): Promise<void> {
    this.dropWebSockets();
    this.sockets.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // ---- HTTP.

  private route(request: IncomingMessage, response: ServerResponse): void {
    if (this.offline) {
      request.socket.destroy();
      return;
    }
    const path = new URL(request.url ?? '/', this.baseUrl).pathname;
    if (request.method === 'POST' && path === '/info') {
      readBody(request, (text) => this.info(text, response));
    } else if (request.method === 'GET' && path === '/Mainnet/leaderboard') {
      this.leaderboardFetches += 1;
      send(response, 200, JSON.stringify({ leaderboardRows: this.leaderboard }));
    } else {
      send(response, 404, 'Not Found', 'text/plain');
    }
  }

  private info(text: string, response: ServerResponse): void {
    const now = this.nowMs();
    const body = parseJson(text);
    const type = typeof body?.type === 'string' ? body.type : '';
    const user = typeof body?.user === 'string' ? body.user.toLowerCase() : undefined;
    const charge = (weight: number, status: number) =>
      this.charge({
        type,
        ...(user === undefined ? {} : { user }),
        weight,
        atMs: now,
        status,
        body: body ?? text,
      });
    const refuse = (status: number, message: string) => {
      charge(infoWeight(type), status);
      send(response, status, message, 'text/plain');
    };
    if (this.failures.count > 0) {
      this.failures.count -= 1;
      return refuse(this.failures.status, `fake venue: forced failure ${this.failures.status}`);
    }
    let answer: Answer;
    try {
      answer = this.answer(body);
    } catch (error) {
      if (!(error instanceof BadBody)) throw error;
      return refuse(422, `Failed to deserialize the JSON body into the target type: ${error.message}`);
    }
    const weight = infoWeight(type, answer.items);
    if (this.window.used(now) + weight > this.weightPerMinute) return refuse(429, 'null');
    charge(weight, 200);
    send(response, 200, JSON.stringify(this.malformed(answer)));
  }

  private charge(request: InfoRequest): void {
    this.requests.push(request);
    this.window.charge(request.atMs, request.weight);
  }

  private malformed(answer: Answer): unknown {
    const malformation = answer.fillsOf === undefined ? undefined : this.malformations.get(answer.fillsOf);
    if (!malformation) return answer.payload;
    malformation.times -= 1;
    if (malformation.times <= 0) this.malformations.delete(answer.fillsOf as string);
    return malformation.mutate((answer.payload as VenueFill[]).map((fill) => ({ ...fill })));
  }

  // ---- The info API's request types.

  private answer(body: Record<string, unknown> | undefined): Answer {
    if (!body) throw new BadBody('expected value at line 1 column 1');
    switch (body.type) {
      case 'meta':
        return { payload: this.meta, items: 0 };
      case 'metaAndAssetCtxs':
        return {
          payload: [this.meta, this.meta.universe.map((asset) => this.assetContext(asset))],
          items: 0,
        };
      case 'allMids':
        return { payload: this.mids, items: 0 };
      case 'userFills':
        return this.recentFills(userOf(body));
      case 'userFillsByTime':
        return this.fillsByTime(userOf(body), timeOf(body, 'startTime'), optionalTimeOf(body, 'endTime'));
      case 'clearinghouseState': {
        const user = userOf(body);
        return { payload: this.clearinghouses.get(user) ?? emptyClearinghouse(), items: 0 };
      }
      case 'candleSnapshot':
        return this.candleSnapshot(body.req);
      case 'userFunding':
        userOf(body);
        timeOf(body, 'startTime');
        return { payload: [], items: 0 };
      default:
        throw new BadBody(
          typeof body.type === 'string' ? `unknown variant \`${body.type}\`` : 'missing field `type`',
        );
    }
  }

  private assetContext(asset: VenueAsset): unknown {
    const mid = this.mids[asset.name] ?? null;
    return {
      funding: '0.0000125',
      openInterest: '0.0',
      prevDayPx: mid,
      dayNtlVlm: '0.0',
      premium: '0.0',
      oraclePx: mid,
      markPx: mid,
      midPx: mid,
      impactPxs: mid === null ? null : [mid, mid],
    };
  }

  /** userFills: the most recent `pageCap` fills, newest first. */
  private recentFills(user: string): Answer {
    const history = this.histories.get(user) ?? [];
    const page = newestFirst(history.slice(Math.max(0, history.length - this.pageCap)));
    return { payload: page, items: page.length, fillsOf: user };
  }

  /** userFillsByTime: the first `pageCap` fills of [startTime, endTime] in time order, in `pageOrder`. */
  private fillsByTime(user: string, startTime: number, endTime: number | undefined): Answer {
    const history = this.histories.get(user) ?? [];
    const first = searchTime(history, startTime, false);
    const end = endTime === undefined ? history.length : searchTime(history, endTime, true);
    const page = history.slice(first, Math.max(first, Math.min(end, first + this.pageCap)));
    const ordered = this.pageOrder === 'newest-first' ? newestFirst(page) : page;
    return { payload: ordered, items: page.length, fillsOf: user };
  }

  private candleSnapshot(req: unknown): Answer {
    if (typeof req !== 'object' || req === null) throw new BadBody('missing field `req`');
    const fields = req as Record<string, unknown>;
    if (typeof fields.coin !== 'string') throw new BadBody('missing field `coin`');
    if (typeof fields.interval !== 'string') throw new BadBody('missing field `interval`');
    const startTime = timeOf(fields, 'startTime');
    const endTime = timeOf(fields, 'endTime');
    const { coin, interval } = fields;
    const inRange = (this.candles.get(coin) ?? []).filter(
      (candle) => candle.i === interval && candle.t >= startTime && candle.t <= endTime,
    );
    const page = inRange.slice(Math.max(0, inRange.length - CANDLE_LIMIT));
    return { payload: page, items: page.length };
  }

  // ---- WebSocket.

  private upgrade(request: IncomingMessage, socket: Socket, head: Buffer): void {
    const path = new URL(request.url ?? '/', this.baseUrl).pathname;
    if (this.offline || path !== '/ws') {
      socket.destroy();
      return;
    }
    this.sockets.handleUpgrade(request, socket, head, (ws) => this.attach(ws));
  }

  private attach(socket: WebSocket): void {
    const connection: Connection = { socket, subscriptions: new Map() };
    this.connections.add(connection);
    socket.on('close', () => this.connections.delete(connection));
    socket.on('error', () => socket.terminate());
    socket.on('message', (data: Buffer) => this.onMessage(connection, data.toString('utf8')));
  }

  private onMessage(connection: Connection, text: string): void {
    const message = parseJson(text);
    this.wsMessagesReceived.push(message ?? text);
    const reply = (payload: unknown) => sendWs(connection.socket, payload);
    if (message?.method === 'ping') return reply({ channel: 'pong' });
    const subscription = subscriptionOf(message?.subscription);
    if (!subscription || (message?.method !== 'subscribe' && message?.method !== 'unsubscribe')) {
      return reply({ channel: 'error', data: `Invalid message: ${text}` });
    }
    const key = subscriptionKey(subscription);
    const subscribed = connection.subscriptions.has(key);
    if (message.method === 'unsubscribe') {
      if (!subscribed) return reply({ channel: 'error', data: `Already unsubscribed: ${text}` });
      connection.subscriptions.delete(key);
      return reply({
        channel: 'subscriptionResponse',
        data: { method: 'unsubscribe', subscription: message.subscription },
      });
    }
    if (subscribed) return reply({ channel: 'error', data: `Already subscribed: ${text}` });
    if (subscription.user !== undefined && !this.canTrack(subscription.user)) {
      return reply({ channel: 'error', data: `Cannot track more than ${WS_USER_LIMIT} total users.` });
    }
    connection.subscriptions.set(key, subscription);
    reply({
      channel: 'subscriptionResponse',
      data: { method: 'subscribe', subscription: message.subscription },
    });
    reply(this.firstMessage(subscription));
  }

  /** Whether one more user subscription for `user` keeps within the venue's distinct-user limit. */
  private canTrack(user: string): boolean {
    const users = new Set(this.subscriptions().flatMap((s) => (s.user === undefined ? [] : [s.user])));
    users.add(user);
    return users.size <= WS_USER_LIMIT;
  }

  private firstMessage(subscription: Subscription): unknown {
    if (subscription.type === 'allMids') return { channel: 'allMids', data: { mids: this.mids } };
    const user = subscription.user as string;
    const history = this.histories.get(user) ?? [];
    const fills = newestFirst(history.slice(Math.max(0, history.length - this.pageCap)));
    return { channel: 'userFills', data: { user, isSnapshot: true, fills } };
  }

  /** Sends `message()` (built once) to every connection subscribed to `subscription`. */
  private broadcast(subscription: Subscription, message: () => unknown): void {
    const key = subscriptionKey(subscription);
    let text: string | undefined;
    for (const connection of this.connections) {
      if (!connection.subscriptions.has(key)) continue;
      text ??= JSON.stringify(message());
      if (connection.socket.readyState === WebSocket.OPEN) connection.socket.send(text);
    }
  }
}

// ---- Small pieces of the wire.

function readBody(request: IncomingMessage, then: (text: string) => void): void {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => then(Buffer.concat(chunks).toString('utf8')));
}

function send(
  response: ServerResponse,
  status: number,
  text: string,
  contentType = 'application/json',
): void {
  response.writeHead(status, { 'content-type': contentType }).end(text);
}

function sendWs(socket: WebSocket, payload: unknown): void {
  if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(payload));
}

/** A JSON object, or undefined for anything else (not JSON, an array, a number). */
function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function userOf(body: Record<string, unknown>): string {
  if (body.user === undefined) throw new BadBody('missing field `user`');
  if (typeof body.user !== 'string' || !ADDRESS.test(body.user))
    throw new BadBody('invalid `user`: not an address');
  return body.user.toLowerCase();
}

function timeOf(body: Record<string, unknown>, name: string): number {
  if (body[name] === undefined) throw new BadBody(`missing field \`${name}\``);
  const value = body[name];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new BadBody(`invalid \`${name}\`: expected a u64`);
  }
  return value;
}

function optionalTimeOf(body: Record<string, unknown>, name: string): number | undefined {
  return body[name] === undefined || body[name] === null ? undefined : timeOf(body, name);
}

/** The subscriptions the fake serves, normalised (user in lower case); undefined for any other. */
function subscriptionOf(value: unknown): Subscription | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { type, user } = value as Record<string, unknown>;
  if (type === 'allMids') return { type };
  if (type === 'userFills' && typeof user === 'string' && ADDRESS.test(user)) {
    return { type, user: user.toLowerCase() };
  }
  return undefined;
}

function subscriptionKey(subscription: Subscription): string {
  return `${subscription.type}:${subscription.user ?? ''}`;
}
