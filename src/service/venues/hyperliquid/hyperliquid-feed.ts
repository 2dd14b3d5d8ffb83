// The Hyperliquid feed: follows real traders from the venue's public data. It chooses accounts
// (the leaderboard, the user's, every account a RUNNING copy trade follows), backfills each one's
// history newest window first, follows them live (WebSocket for up to 10, polling for the rest),
// and turns their fills into positions, statistics and copies (docs/venue-feed.md).
import {
  HYPERLIQUID_PROTOCOL,
  hyperliquidIndexToken,
  type FeedAccount,
  type FeedReason,
  type FeedState,
  type FeedStatus,
} from '../../../shared/api/feed';
import { prepareCached } from '../../../node/sqlite';
import { sourceOrderOf } from '../../copy-engine/market-orders';
import { copyTradesVersion } from '../../copy-trading/copy-trades';
import type { CopyEvent, PriceTick, SourceOrder } from '../../copy-engine/types';
import { SeriesBook, type BookedOrder, type BookFill } from '../../market/series-book';
import type { CopyEnginePort } from '../../sandbox/engine-port';
import type { LiveStatistics } from '../../statistics/compute/live-statistics';
import type { ServiceDb } from '../../store/database';
import { FeedAccounts, checksummed, type FeedAccountRow } from './feed-accounts';
import { InfoClient, RateLimitedError, VenueUnreachableError } from './info-client';
import { topAccounts } from './leaderboard';
import { LiveSocket, MAX_SOCKET_USERS } from './live-socket';
import { RequestBudget, type BudgetClock } from './request-budget';
import { PageError, readFillsPage } from './venue-fills';
import { VenueCandles } from './venue-candles';

/** The venue's public endpoints; tests and operators point the feed elsewhere with flags. */
export const HYPERLIQUID_DEFAULTS = {
  infoUrl: 'https://api.hyperliquid.xyz',
  wsUrl: 'wss://api.hyperliquid.xyz/ws',
  leaderboardUrl: 'https://stats-data.hyperliquid.xyz/Mainnet/leaderboard',
  trackTop: 100,
  leverage: 5,
  weightPerMinute: 1_200,
};

export interface FeedConfig {
  infoUrl: string;
  wsUrl: string;
  leaderboardUrl: string;
  /** Accounts the user asked for (`--track`). */
  track: string[];
  /** The leaderboard's top accounts to follow; 0 for none. */
  trackTop: number;
  /** Leverage assumed where the venue reports none. */
  leverage: number;
  weightPerMinute: number;
  /** `--now`: backfill up to this instant and follow nothing live. */
  untilMs: number | null;
  /** How long sending pauses after a 429 (jittered); default 10 s. Tests shorten it. */
  rateLimitPauseMs?: number;
  /** The budget's clock (tests run its minute faster); default the real one. */
  budgetClock?: BudgetClock;
  /** The first wait before an account's failed request is tried again (doubling); default 5 s. Tests shorten it. */
  retryMinMs?: number;
}

export interface FeedDeps {
  db: ServiceDb;
  engine: CopyEnginePort & {
    invalidateFollowers(): void;
    processSourceOrders(orders: readonly SourceOrder[]): CopyEvent[];
  };
  statistics: LiveStatistics;
  publish: (events: CopyEvent[]) => void;
  nowMs: () => number;
  log: (message: string) => void;
}

/** Told after fills that arrived by WebSocket are stored and copied, with performance.now() of their arrival. */
export type LiveListener = (account: string, receivedAt: number) => void;

export const FEED_VENUE = 'hyperliquid';
/** Fills (weight 20 + 1 per 20 fills): what one poll of a quiet account costs. */
const POLL_WEIGHT = 21;
const MIN_POLL_MS = 2_000;
const META_REFRESH_MS = 3_600_000;
const DISCOVERY_REFRESH_MS = 24 * 3_600_000;
const LEVERAGE_REFRESH_MS = 10 * 60_000;
const COPY_REFRESH_MS = 5_000;
/** How often the copy trades' version is compared, to wake the loop when they change. */
const COPY_WATCH_MS = 200;
const RANKING_REFRESH_MS = 5_000;
const RETRY_MIN_MS = 5_000;
const RETRY_MAX_MS = 10 * 60_000;
const OFFLINE_MAX_MS = 60_000;
/** How long a changed account's statistics may lag its fills. */
const STATISTICS_DELAY_MS = 1_000;
/** The least time between two recomputes of one account's statistics. */
const STATISTICS_MIN_INTERVAL_MS = 10_000;

interface Task {
  name: string;
  account?: string;
  run: () => Promise<void>;
}

export class HyperliquidFeed {
  private readonly accounts: FeedAccounts;
  private readonly book: SeriesBook;
  private readonly client: InfoClient;
  /** The venue's candles, fetched on demand within this feed's budget (docs/venue-feed.md, Candles). */
  readonly candles: VenueCandles;
  private readonly socket: LiveSocket | null;
  private state: FeedState = 'polling';
  private since: number;
  private stopped = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private refusedPages = 0;
  private offlineFailures = 0;
  private copyAccounts = new Set<string>();
  private copyCheckedAt = Number.NEGATIVE_INFINITY;
  private metaAt = Number.NEGATIVE_INFINITY;
  private discoveryAt = Number.NEGATIVE_INFINITY;
  private readonly lastPolled = new Map<string, number>();
  private readonly gapDue = new Set<string>();
  /**
   * Where each due gap starts: the account's last stored fill when its WebSocket subscription
   * began (again). Fills that arrive meanwhile (a snapshot, a new fill) move last_fill_ms past the
   * gap, so the gap's own fill-by-time query must not start from there.
   */
  private readonly gapFrom = new Map<string, number>();
  private readonly retry = new Map<string, { at: number; failures: number }>();
  private readonly leverageAt = new Map<string, number>();
  private readonly knownCoins = new Set<string>();
  private readonly mids = new Map<string, number>();
  private readonly unlistedMids = new Map<string, number>();
  private rankingTimer: NodeJS.Timeout | null = null;
  private copyTimer: NodeJS.Timeout | null = null;
  private copyVersion = -1;
  private liveTurn = false;
  private liveListener: LiveListener | null = null;
  /** Accounts whose statistics are due, with when. */
  private readonly dirty = new Map<string, number>();
  private readonly statisticsAt = new Map<string, number>();
  private statisticsTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly config: FeedConfig,
    private readonly deps: FeedDeps,
  ) {
    this.accounts = new FeedAccounts(deps.db, FEED_VENUE);
    this.book = new SeriesBook(deps.db, HYPERLIQUID_PROTOCOL, config.leverage, hyperliquidIndexToken);
    this.client = new InfoClient(
      config.infoUrl,
      new RequestBudget(config.weightPerMinute, config.budgetClock),
      config.rateLimitPauseMs,
    );
    this.candles = new VenueCandles(deps.db, this.client, FEED_VENUE, Date.now, deps.log);
    this.since = deps.nowMs();
    this.socket =
      config.untilMs === null
        ? new LiveSocket(config.wsUrl, {
            onFills: (user, fills, snapshot, at) => this.onSocketFills(user, fills, snapshot, at),
            onMids: (mids) => this.onMids(mids),
            onOpen: (users) => this.onSocketOpen(users),
            onClose: () => this.setState(this.state === 'offline' ? 'offline' : 'polling'),
          })
        : null;
    for (const coin of prepareCached(deps.db, 'SELECT symbol FROM tokens WHERE protocol = ?', 'pluck').all(
      HYPERLIQUID_PROTOCOL,
    ) as string[])
      this.knownCoins.add(coin);
  }

  start(): void {
    const now = this.backfillEndMs();
    for (const account of this.config.track) this.accounts.ensure(checksummed(account), 'user', now);
    this.socket?.start();
    this.rankingTimer = setInterval(
      () => this.safely(() => this.deps.statistics.refreshRankings()),
      RANKING_REFRESH_MS,
    );
    this.rankingTimer.unref();
    // A new or stopped copy trade changes the tracked accounts at once, not at the next refresh.
    this.copyTimer = setInterval(() => {
      if (copyTradesVersion(this.deps.db) !== this.copyVersion) this.wake?.();
    }, COPY_WATCH_MS);
    this.copyTimer.unref();
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.flushStatistics(true);
    this.stopped = true;
    if (this.rankingTimer) clearInterval(this.rankingTimer);
    if (this.copyTimer) clearInterval(this.copyTimer);
    this.socket?.stop();
    this.wake?.();
    await this.loop;
  }

  /** Adds and removes accounts the user tracks; copy-followed ones stay tracked regardless. */
  changeAccounts(change: { add?: readonly string[]; remove?: readonly string[] }): FeedStatus {
    const now = this.backfillEndMs();
    for (const account of change.add ?? []) this.accounts.ensure(checksummed(account), 'user', now);
    for (const account of change.remove ?? []) this.accounts.remove(checksummed(account));
    this.wake?.();
    return this.status();
  }

  /** Listens to live fills being committed (the latency bench); null stops. */
  observeLive(listener: LiveListener | null): void {
    this.liveListener = listener;
  }

  status(): FeedStatus {
    const tracked = this.tracked();
    const interval = this.pollIntervalMs(tracked);
    return {
      venue: FEED_VENUE,
      state: this.state,
      since: new Date(this.since).toISOString(),
      budget: this.client.budget.snapshot(),
      ...(interval !== null && { pollIntervalMs: Math.round(interval) }),
      assumedLeverage: this.config.leverage,
      refusedPages: this.refusedPages,
      progress: { backfilled: tracked.filter((r) => r.phase === 'done').length, accounts: tracked.length },
      accounts: tracked.map((row) => this.accountView(row)),
    };
  }

  // -------------------------------------------------------------------------------------------
  // The work loop: one request at a time, the most urgent first.
  // -------------------------------------------------------------------------------------------

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.refreshCopyAccounts();
      const tracked = this.tracked();
      this.followOnSocket(tracked);
      const task = this.nextTask(tracked);
      if (!task) {
        await this.idle(this.nextDueInMs(tracked));
        continue;
      }
      try {
        await task.run();
        if (task.account) this.retry.delete(task.account);
        this.reachable();
      } catch (error) {
        if (this.stopped) return;
        await this.failed(task, error);
      }
    }
  }

  private nextTask(tracked: FeedAccountRow[]): Task | null {
    const now = this.deps.nowMs();
    if (now - this.metaAt > META_REFRESH_MS) return { name: 'meta', run: () => this.loadMeta() };
    if (this.config.trackTop > 0 && now - this.discoveryAt > DISCOVERY_REFRESH_MS)
      return { name: 'discovery', run: () => this.discover() };
    const ready = tracked.filter((r) => (this.retry.get(r.account)?.at ?? 0) <= now);
    const live = this.config.untilMs === null ? this.liveTask(ready, tracked, now) : null;
    const backfill = this.backfillTask(ready);
    if (!live || !backfill) return live ?? backfill;
    // Both kinds are waiting: take turns, so that neither starves the other (polls come round
    // every 2 s with a wide budget, and a long backfill would hold new fills back).
    this.liveTurn = !this.liveTurn;
    return this.liveTurn ? live : backfill;
  }

  /** A gap to fill, a poll that is due, or an open position's leverage to read, in that order. */
  private liveTask(ready: FeedAccountRow[], tracked: FeedAccountRow[], now: number): Task | null {
    const gap = ready.find((r) => r.phase !== 'recent' && this.gapDue.has(r.account));
    if (gap) return this.pollTask(gap);
    const interval = this.pollIntervalMs(tracked);
    const due = ready.find(
      (r) =>
        r.phase !== 'recent' &&
        !this.onSocket(r.account) &&
        now - (this.lastPolled.get(r.account) ?? 0) >= (interval ?? 0),
    );
    if (due) return this.pollTask(due);
    const leverage = ready.find(
      (r) =>
        r.phase !== 'recent' &&
        now - (this.leverageAt.get(r.account) ?? Number.NEGATIVE_INFINITY) > LEVERAGE_REFRESH_MS,
    );
    if (leverage)
      return { name: 'leverage', account: leverage.account, run: () => this.loadLeverage(leverage.account) };
    return null;
  }

  /** The next backfill page: every account's recent window before any older history. */
  private backfillTask(ready: FeedAccountRow[]): Task | null {
    const next = ready.find((r) => r.phase === 'recent') ?? ready.find((r) => r.phase === 'history');
    return next
      ? { name: 'backfill', account: next.account, run: () => this.backfillPage(next.account) }
      : null;
  }

  private pollTask(row: FeedAccountRow): Task {
    return { name: 'poll', account: row.account, run: () => this.poll(row.account) };
  }

  /** How long the loop may sleep: until the next poll is due (a wake-up cuts it short). */
  private nextDueInMs(tracked: FeedAccountRow[]): number {
    const interval = this.pollIntervalMs(tracked);
    const now = this.deps.nowMs();
    let next = COPY_REFRESH_MS;
    for (const r of tracked) {
      const retryAt = this.retry.get(r.account)?.at;
      if (retryAt !== undefined && retryAt > now) next = Math.min(next, retryAt - now);
      if (interval !== null && !this.onSocket(r.account) && r.phase !== 'recent')
        next = Math.min(next, (this.lastPolled.get(r.account) ?? 0) + interval - now);
    }
    return Math.max(50, next);
  }

  private idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  private async failed(task: Task, error: unknown): Promise<void> {
    if (error instanceof VenueUnreachableError) {
      this.setState('offline');
      this.offlineFailures += 1;
      const ceiling = Math.min(OFFLINE_MAX_MS, 1_000 * 2 ** (this.offlineFailures - 1));
      await this.idle(ceiling / 2 + Math.random() * (ceiling / 2));
      return;
    }
    if (error instanceof RateLimitedError) return; // the budget is paused and lowered
    const message = (error as Error).message;
    if (error instanceof PageError) this.refusedPages += 1;
    else if (!task.account) this.deps.log(`hyperliquid feed: ${task.name} failed: ${message}`);
    if (task.account) {
      this.accounts.setError(task.account, message);
      const failures = (this.retry.get(task.account)?.failures ?? 0) + 1;
      const wait = Math.min(RETRY_MAX_MS, (this.config.retryMinMs ?? RETRY_MIN_MS) * 2 ** (failures - 1));
      this.retry.set(task.account, { at: this.deps.nowMs() + wait, failures });
    } else if (task.name === 'meta') this.metaAt = this.deps.nowMs() - META_REFRESH_MS + RETRY_MIN_MS * 6;
    else if (task.name === 'discovery')
      this.discoveryAt = this.deps.nowMs() - DISCOVERY_REFRESH_MS + RETRY_MAX_MS;
  }

  private reachable(): void {
    this.offlineFailures = 0;
    this.setState(this.socket?.open ? 'connected' : 'polling');
  }

  private setState(state: FeedState): void {
    if (state === this.state) return;
    this.state = state;
    this.since = this.deps.nowMs();
  }

  // -------------------------------------------------------------------------------------------
  // Tasks
  // -------------------------------------------------------------------------------------------

  /** Lists the venue's perpetuals as the protocol's tokens, with their maximum leverage. */
  private async loadMeta(): Promise<void> {
    const answer = (await this.client.post({ type: 'meta' })) as { universe?: unknown };
    if (this.stopped) return;
    if (!Array.isArray(answer?.universe)) throw new Error("the venue's meta has no universe list");
    const upsert = prepareCached(
      this.deps.db,
      `INSERT INTO tokens (protocol, symbol, index_token, is_forex, max_leverage) VALUES (?, ?, ?, 0, ?)
       ON CONFLICT DO UPDATE SET max_leverage = excluded.max_leverage`,
    );
    this.deps.db.transaction(() => {
      for (const asset of answer.universe as { name?: unknown; maxLeverage?: unknown }[]) {
        if (typeof asset?.name !== 'string' || !(Number(asset.maxLeverage) > 0)) continue;
        upsert.run(
          HYPERLIQUID_PROTOCOL,
          asset.name,
          hyperliquidIndexToken(asset.name),
          Number(asset.maxLeverage),
        );
        this.knownCoins.add(asset.name);
      }
    })();
    this.deps.engine.invalidateFollowers();
    this.metaAt = this.deps.nowMs();
    this.applyUnlistedMids();
  }

  /** Marks that arrived before their coin was listed. */
  private applyUnlistedMids(): void {
    if (this.unlistedMids.size === 0) return;
    const mids = Object.fromEntries(this.unlistedMids);
    this.unlistedMids.clear();
    this.onMids(mids);
  }

  private async discover(): Promise<void> {
    const top = await topAccounts(this.config.leaderboardUrl, this.config.trackTop);
    if (this.stopped) return;
    const now = this.backfillEndMs();
    this.deps.db.transaction(() => {
      for (const account of top) this.accounts.ensure(checksummed(account), 'leaderboard', now);
    })();
    this.discoveryAt = now;
  }

  /** One page of an account's backfill: the recent window forward to now, then the older history. */
  private async backfillPage(account: string): Promise<void> {
    const row = this.accounts.get(account) as FeedAccountRow;
    const recent = row.phase === 'recent';
    const endTime = recent ? (this.config.untilMs ?? undefined) : row.recent_from_ms - 1;
    const answer = await this.client.post({
      type: 'userFillsByTime',
      user: account.toLowerCase(),
      startTime: row.cursor_ms,
      ...(endTime !== undefined && { endTime }),
    });
    if (this.stopped) return;
    const fills = readFillsPage(answer, HYPERLIQUID_PROTOCOL, account);
    const length = (answer as unknown[]).length;
    const ended = !this.client.mayBeFull(length);
    const last = fills.length > 0 ? (fills.at(-1) as BookFill).timeMs : row.cursor_ms;
    // A full page inside one millisecond would come back forever: step past it.
    const cursor = ended ? last : last > row.cursor_ms ? last : row.cursor_ms + 1;
    const nextPhase = !ended ? row.phase : recent && row.recent_from_ms > 0 ? 'history' : 'done';
    const booked = this.deps.db.transaction(() => {
      const result = this.storeFills(account, fills, { defer: !recent });
      if (!recent && nextPhase === 'done') this.book.bookHistory(account, row.recent_from_ms);
      this.accounts.advance(account, {
        phase: nextPhase,
        cursorMs: nextPhase === 'history' && recent ? 0 : cursor,
        ...this.counts(fills, result.added),
      });
      return result;
    });
    const result = this.transact(booked);
    if ((recent && result.added > 0) || (!recent && nextPhase === 'done')) this.changed(account);
    this.copy(account, result.orders);
  }

  /** New fills of an account followed live, from its last stored fill (or its gap's start) on. */
  private async poll(account: string): Promise<void> {
    const row = this.accounts.get(account) as FeedAccountRow;
    this.lastPolled.set(account, this.deps.nowMs());
    const from = this.gapFrom.get(account) ?? row.last_fill_ms ?? row.recent_from_ms;
    const answer = await this.client.post({
      type: 'userFillsByTime',
      user: account.toLowerCase(),
      startTime: from,
    });
    if (this.stopped) return;
    const fills = readFillsPage(answer, HYPERLIQUID_PROTOCOL, account);
    if (!this.client.mayBeFull((answer as unknown[]).length)) {
      this.gapDue.delete(account);
      this.gapFrom.delete(account);
    } else {
      // A full page means more are waiting: stay due, from the page's end.
      this.lastPolled.set(account, 0);
      const last = fills.at(-1)?.timeMs ?? from;
      if (this.gapFrom.has(account)) this.gapFrom.set(account, last > from ? last : from + 1);
    }
    this.ingestLive(account, fills, from);
  }

  /** The venue's own leverage of the account's open positions (fills do not carry it). */
  private async loadLeverage(account: string): Promise<void> {
    this.leverageAt.set(account, this.deps.nowMs());
    const answer = (await this.client.post({ type: 'clearinghouseState', user: account.toLowerCase() })) as {
      assetPositions?: unknown;
    };
    if (this.stopped) return;
    if (!Array.isArray(answer?.assetPositions))
      throw new PageError('clearinghouseState has no assetPositions list');
    let changed = false;
    this.transact(
      this.deps.db.transaction(() => {
        for (const entry of answer.assetPositions as { position?: Record<string, unknown> }[]) {
          const p = entry?.position;
          const size = Number(p?.szi);
          const leverage = Number((p?.leverage as { value?: unknown } | undefined)?.value);
          if (typeof p?.coin !== 'string' || !Number.isFinite(size) || size === 0 || !(leverage > 0))
            continue;
          if (this.book.setOpenLeverage(account, p.coin, size > 0, leverage)) changed = true;
        }
      }),
    );
    if (changed) this.changed(account);
  }

  // -------------------------------------------------------------------------------------------
  // Live
  // -------------------------------------------------------------------------------------------

  private onSocketFills(user: string, raw: unknown, snapshot: boolean, receivedAt: number): void {
    if (this.stopped) return;
    const account = checksummed(user);
    const row = this.accounts.get(account);
    if (!row || row.phase === 'recent') return; // its backfill brings these
    let fills;
    try {
      fills = readFillsPage(raw, HYPERLIQUID_PROTOCOL, account);
    } catch (error) {
      if (!(error instanceof PageError)) throw error;
      this.refusedPages += 1;
      this.accounts.setError(account, `WebSocket ${snapshot ? 'snapshot' : 'fills'}: ${error.message}`);
      this.markGap(account); // fetched again by fills-by-time
      this.wake?.();
      return;
    }
    // A snapshot of an account whose gap is due: the gap's fill-by-time query brings these, in order.
    if (snapshot && this.gapDue.has(account)) return;
    this.safely(() => this.ingestLive(account, fills));
    this.liveListener?.(account, receivedAt);
  }

  private onSocketOpen(users: readonly string[]): void {
    for (const user of users) this.markGap(checksummed(user));
    this.setState(this.state === 'offline' ? 'offline' : 'connected');
    this.wake?.();
  }

  /** allMids: every changed mid of a listed coin is a mark for the copy engine and open positions. */
  private onMids(raw: unknown): void {
    if (this.stopped || typeof raw !== 'object' || raw === null) return;
    const now = this.deps.nowMs();
    const ticks: PriceTick[] = [];
    for (const [coin, text] of Object.entries(raw as Record<string, unknown>)) {
      const price = Number(text);
      if (!(price > 0) || this.mids.get(coin) === price) continue;
      if (!this.knownCoins.has(coin)) {
        // Not listed yet (the venue's meta is still on its way): applied once it is.
        this.unlistedMids.set(coin, price);
        continue;
      }
      this.mids.set(coin, price);
      ticks.push({ indexToken: hyperliquidIndexToken(coin), price, timeMs: now });
    }
    if (ticks.length > 0) this.safely(() => this.deps.publish(this.deps.engine.processPrices(ticks)));
  }

  /**
   * The account's fills from its last stored one on may have been missed (a WebSocket subscription
   * begins, or a message was refused): a fill-by-time query from there is due.
   */
  private markGap(account: string): void {
    const row = this.accounts.get(account);
    if (!this.gapFrom.has(account) && row) this.gapFrom.set(account, row.last_fill_ms ?? row.recent_from_ms);
    this.gapDue.add(account);
  }

  /**
   * Stores fills that arrived live (socket, poll, gap fill) from `fromMs` on (default: the last
   * stored fill), updates statistics, copies.
   */
  private ingestLive(account: string, received: BookFill[], fromMs?: number): void {
    // What is older is stored already, or its backfill or gap query brings it (a WebSocket
    // snapshot repeats the account's recent history).
    const lastMs = fromMs ?? this.accounts.get(account)?.last_fill_ms ?? Number.NEGATIVE_INFINITY;
    const fills = received.filter((f) => f.timeMs >= lastMs);
    if (fills.length === 0) return;
    const result = this.transact(
      this.deps.db.transaction(() => {
        const stored = this.storeFills(account, fills, { defer: false });
        const row = this.accounts.get(account) as FeedAccountRow;
        this.accounts.advance(account, {
          phase: row.phase,
          cursorMs: row.cursor_ms,
          ...this.counts(fills, stored.added),
        });
        return stored;
      }),
    );
    if (result.added === 0) return;
    this.changed(account);
    this.copy(account, result.orders);
    if (result.orders.some((o) => o.order.type === 'OPEN')) this.leverageAt.delete(account);
  }

  // -------------------------------------------------------------------------------------------
  // Storage
  // -------------------------------------------------------------------------------------------

  private storeFills(account: string, fills: BookFill[], options: { defer: boolean }) {
    for (const fill of fills) if (!this.knownCoins.has(fill.coin)) this.listCoin(fill.coin);
    return this.book.store(fills, options);
  }

  /** A coin the venue's meta did not list (delisted since): listed with a default maximum leverage. */
  private listCoin(coin: string): void {
    prepareCached(
      this.deps.db,
      'INSERT OR IGNORE INTO tokens (protocol, symbol, index_token, is_forex, max_leverage) VALUES (?, ?, ?, 0, 50)',
    ).run(HYPERLIQUID_PROTOCOL, coin, hyperliquidIndexToken(coin));
    this.knownCoins.add(coin);
    this.deps.engine.invalidateFollowers();
  }

  private counts(fills: BookFill[], added: number) {
    return {
      added,
      firstMs: fills.length > 0 ? (fills[0] as BookFill).timeMs : null,
      lastMs: fills.length > 0 ? (fills.at(-1) as BookFill).timeMs : null,
    };
  }

  /** Runs a store transaction; a failure drops the ledgers in memory (the rollback undid their rows). */
  private transact<T>(tx: () => T): T {
    try {
      return tx();
    } catch (error) {
      this.book.forget();
      this.accounts.forget();
      throw error;
    }
  }

  /**
   * The account's positions changed: its statistics follow, batched so that a burst of fills or
   * pages costs one recompute. A recompute reads every position of the trader (~15 ms for a few
   * hundred), and a live fill arriving meanwhile waits for it, so an account is recomputed at
   * most every STATISTICS_MIN_INTERVAL_MS while it trades: its statistics lag its fills by at most
   * that, and its copies are not held up.
   */
  private changed(account: string): void {
    if (this.dirty.has(account)) return;
    const now = Date.now();
    const last = this.statisticsAt.get(account) ?? Number.NEGATIVE_INFINITY;
    this.dirty.set(account, Math.max(now + STATISTICS_DELAY_MS, last + STATISTICS_MIN_INTERVAL_MS));
    this.scheduleStatistics();
  }

  private scheduleStatistics(): void {
    if (this.statisticsTimer || this.dirty.size === 0) return;
    let due = Number.POSITIVE_INFINITY;
    for (const at of this.dirty.values()) due = Math.min(due, at);
    this.statisticsTimer = setTimeout(() => this.flushStatistics(), Math.max(0, due - Date.now()));
    this.statisticsTimer.unref();
  }

  /**
   * Recomputes the statistics of the accounts that are due, one account per turn of the event
   * loop, so that a live fill arriving meanwhile waits for one account's recompute at most.
   * `all`: every changed account at once, due or not (stopping).
   */
  flushStatistics(all = false): void {
    if (this.statisticsTimer) clearTimeout(this.statisticsTimer);
    this.statisticsTimer = null;
    if (this.stopped) return;
    const now = Date.now();
    for (const [account, due] of this.dirty) {
      if (!all && due > now) continue;
      this.dirty.delete(account);
      this.statisticsAt.set(account, now);
      this.safely(() => this.deps.statistics.traderChanged(HYPERLIQUID_PROTOCOL, account));
      if (!all) break;
    }
    this.scheduleStatistics();
  }

  /**
   * Hands the account's live orders (from the moment it was first tracked) to the copy engine,
   * which knows who follows whom (a copy trade made a second ago included).
   */
  private copy(account: string, orders: BookedOrder[]): void {
    const row = this.accounts.get(account);
    if (!row || orders.length === 0) return;
    const live = orders.filter((o) => o.order.block_time_ms >= row.live_since_ms);
    if (live.length === 0) return;
    this.safely(() =>
      this.deps.publish(
        this.deps.engine.processSourceOrders(live.map((o) => sourceOrderOf(o.order, o.position))),
      ),
    );
  }

  // -------------------------------------------------------------------------------------------
  // Which accounts
  // -------------------------------------------------------------------------------------------

  private tracked(): FeedAccountRow[] {
    const rows = this.accounts
      .all()
      .filter(
        (r) =>
          this.copyAccounts.has(r.account) || r.by_user === 1 || (r.by_leaderboard === 1 && r.removed === 0),
      );
    const rank = (r: FeedAccountRow) => (this.copyAccounts.has(r.account) ? 0 : r.by_user === 1 ? 1 : 2);
    return rows.sort((a, b) => rank(a) - rank(b));
  }

  private reasonsOf(row: FeedAccountRow): FeedReason[] {
    const reasons: FeedReason[] = [];
    if (this.copyAccounts.has(row.account)) reasons.push('copy');
    if (row.by_user === 1) reasons.push('user');
    if (row.by_leaderboard === 1 && row.removed === 0) reasons.push('leaderboard');
    return reasons;
  }

  /**
   * Every account a RUNNING copy trade on this protocol follows: re-read when the copy trades
   * change through the API (their version counter), and every few seconds for any other writer.
   */
  private refreshCopyAccounts(): void {
    const now = this.deps.nowMs();
    const version = copyTradesVersion(this.deps.db);
    if (version === this.copyVersion && now - this.copyCheckedAt < COPY_REFRESH_MS) return;
    this.copyCheckedAt = now;
    this.copyVersion = version;
    const addedAt = this.backfillEndMs();
    const accounts = prepareCached(
      this.deps.db,
      `SELECT account FROM copy_trades WHERE protocol = ? AND status = 'RUNNING'
       UNION SELECT a.account FROM copy_trade_accounts a JOIN copy_trades t ON t.id = a.copy_trade_id
       WHERE t.protocol = ? AND t.status = 'RUNNING'`,
      'pluck',
    ).all(HYPERLIQUID_PROTOCOL, HYPERLIQUID_PROTOCOL) as string[];
    const next = new Set<string>();
    for (const account of accounts) {
      if (!/^0x[0-9a-fA-F]{40}$/.test(account)) continue;
      const key = checksummed(account);
      next.add(key);
      if (!this.copyAccounts.has(key)) this.accounts.ensure(key, 'copy', addedAt);
    }
    this.copyAccounts = next;
  }

  /** Up to 10 accounts by WebSocket, copy-followed first; only once their recent window is in. */
  private followOnSocket(tracked: FeedAccountRow[]): void {
    if (!this.socket) return;
    const chosen = tracked.filter((r) => r.phase !== 'recent').slice(0, MAX_SOCKET_USERS);
    const next = chosen.map((r) => r.account.toLowerCase());
    const current = this.socket.followed;
    if (next.length === current.size && next.every((a) => current.has(a))) return;
    // Subscribed while the socket is open: what came since the last stored fill is a gap to fill
    // (on (re)connecting, onSocketOpen marks every account).
    if (this.socket.open)
      for (const r of chosen) if (!current.has(r.account.toLowerCase())) this.markGap(r.account);
    this.socket.follow(next);
  }

  /**
   * Where a newly tracked account's backfill ends: `--now` when given (its recent window is the
   * 30 days before it, and nothing after it is fetched), else now.
   */
  private backfillEndMs(): number {
    return this.config.untilMs ?? this.deps.nowMs();
  }

  private onSocket(account: string): boolean {
    return this.socket !== null && this.socket.open && this.socket.followed.has(account.toLowerCase());
  }

  /** How often each polled account is asked: its share of the budget (half while backfills run). */
  private pollIntervalMs(tracked: FeedAccountRow[]): number | null {
    if (this.config.untilMs !== null) return null;
    const polled = tracked.filter((r) => r.phase !== 'recent' && !this.onSocket(r.account)).length;
    if (polled === 0) return null;
    const share = tracked.some((r) => r.phase !== 'done') ? 0.5 : 0.9;
    return Math.max(
      MIN_POLL_MS,
      ((polled * POLL_WEIGHT) / (share * this.client.budget.ratePerMinute)) * 60_000,
    );
  }

  private accountView(row: FeedAccountRow): FeedAccount {
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    const recomputed = this.statisticsAt.get(row.account);
    return {
      account: row.account,
      backfilled: row.phase === 'done',
      fills: row.fills,
      firstFillTime: iso(row.first_fill_ms),
      lastFillTime: iso(row.last_fill_ms),
      live: this.onSocket(row.account) ? 'websocket' : 'polling',
      reasons: this.reasonsOf(row),
      ...(row.error !== null && { error: row.error }),
      ...(recomputed !== undefined && { statisticsTime: new Date(recomputed).toISOString() }),
    };
  }

  /** Work outside the loop (socket messages, timers): a failure is logged, never thrown into the socket. */
  private safely(work: () => void): void {
    try {
      work();
    } catch (error) {
      if (!this.stopped) this.deps.log(`hyperliquid feed: ${(error as Error).message}`);
    }
  }
}
