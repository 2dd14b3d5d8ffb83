// The copy engine: source orders become copy positions in users' embedded wallets, mark prices
// close them, users close or unlink them (docs/semantics.md, Copy engine; docs/copy-engine.md).
import { walCatchUp } from '../../node/wal-checkpointer';
import { copyTradeRuleIssues, type CopyTrade } from '../../shared/api/copy-trades';
import type { ServiceConfig } from '../config';
import { roundUsd } from '../copy-trading/money';
import { cannotPay, copySide, followAction } from './position-fills';
import { ServiceError } from '../http/errors';
import type { ServiceDb } from '../store/database';
import { CopyBook, type Cause } from './book';
import { exitAt } from './exits';
import { DEFAULT_COPY_FEES, type CopyFees } from './fills';
import { skipReason } from './filters';
import { Followers, type Follow } from './followers';
import { sourceKey } from './ids';
import { assertSourceOrder } from './source-orders';
import { DEFAULT_LOOK_BACK_ORDERS, increaseMargin, openSize, volumeFactor } from './sizing';
import type { EnginePosition } from './position-rows';
import { EngineStore } from './store';
import { TokenCatalogue, type TokenInfo } from './token-catalogue';
import type { CopyEvent, PriceTick, SourceOrder } from './types';

/** Settings of the engine that the service configuration does not hold. */
export interface CopyEngineOptions {
  /** Fee rates of copy fills (default: taker 0.035 %, service 0.025 %). */
  copyFees?: CopyFees;
}

/**
 * A copy for one copy trade failed: the transaction is rolled back and run again with that copy
 * replaced by a FAILED activity log (docs/copy-engine.md, Failures).
 */
class IsolatedFailure extends Error {
  constructor(
    readonly key: string,
    readonly reason: string,
    override readonly cause: unknown,
  ) {
    super(reason);
  }
}

/** How many copies of one call may fail before the call itself fails (each failure reruns it). */
const MAX_ISOLATED_FAILURES = 64;

/** A reason fit for an activity log: one line, at most 300 characters. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `copy failed: ${message.replace(/\s+/g, ' ').trim().slice(0, 280)}`;
}

/** The rules a stored copy trade breaks (one written before the bounds), cached per trade object. */
const brokenRules = new WeakMap<CopyTrade, string | null>();
function outOfBounds(trade: CopyTrade): string | null {
  let reason = brokenRules.get(trade);
  if (reason === undefined) {
    const issues = copyTradeRuleIssues(trade);
    reason =
      issues.length === 0
        ? null
        : `copy trade settings out of bounds: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`;
    brokenRules.set(trade, reason);
  }
  return reason;
}

/** One source order being copied: what every follower shares, computed once. */
class OrderRun {
  readonly key: string;
  private fill: number | null = null;
  private readonly factors = new Map<number, number>();

  constructor(
    readonly order: SourceOrder,
    readonly token: TokenInfo,
    private readonly store: EngineStore,
  ) {
    this.key = sourceKey(order.account, order.protocol, order.indexToken, order.isLong);
  }

  /** The fill price: the token's mark now, or the order's price when no mark is known. */
  price(): number {
    return (this.fill ??= this.store.markPrice(this.token.indexToken) ?? this.order.price);
  }

  /** volumeProtection's f over the account's last `lookBack` OPEN/INCREASE orders. */
  factor(lookBack: number): number {
    let f = this.factors.get(lookBack);
    if (f === undefined) {
      const o = this.order;
      f = volumeFactor(
        o.collateralDeltaUsd,
        this.store.lookBack(o.account, o.protocol, o.blockTimeMs, lookBack),
      );
      this.factors.set(lookBack, f);
    }
    return f;
  }

  /** A fill caused by this order; `suffix` tells the fills of one order apart. */
  cause(suffix: string): Cause & { order: SourceOrder } {
    return { label: `${this.order.id}|${suffix}`, atMs: this.order.blockTimeMs, order: this.order };
  }
}

/**
 * Copies source orders into copy positions; each public call is one SQLite transaction. The
 * working state is held in memory by the store, which writes its journal at the end of the
 * transaction (docs/copy-engine.md, Speed).
 */
export class CopyEngine {
  private readonly store: EngineStore;
  private readonly followers: Followers;
  private readonly tokens: TokenCatalogue;
  private readonly book: CopyBook;
  private readonly fees: CopyFees;
  private readonly processTx: (orders: readonly SourceOrder[]) => CopyEvent[];
  private readonly pricesTx: (ticks: readonly PriceTick[]) => CopyEvent[];
  private readonly userTx: (userId: string, id: string, how: 'MANUAL' | 'FORCE_CLOSE') => CopyEvent[];
  /** Copies that failed in this call (key → reason): the rerun writes a FAILED log for each instead. */
  private readonly isolated = new Map<string, string>();
  /** Exits that failed (position|exit type) and were logged once. */
  private readonly failedExits = new Set<string>();
  /** Those logged by the running call: failedExits once it commits. */
  private readonly loggedExits = new Set<string>();

  constructor(
    private readonly db: ServiceDb,
    private readonly config: ServiceConfig,
    options: CopyEngineOptions = {},
  ) {
    this.store = new EngineStore(db);
    this.followers = new Followers(db);
    this.tokens = new TokenCatalogue(db);
    this.fees = options.copyFees ?? DEFAULT_COPY_FEES;
    this.book = new CopyBook(this.store, this.fees, (id) => this.followers.trade(id)?.trade.title ?? '');
    this.processTx = this.transaction((orders: readonly SourceOrder[]) => {
      // Checked up front so that a bad order in a burst fails it before anything is copied.
      orders.forEach(assertSourceOrder);
      return orders.flatMap((o) => this.process(o));
    });
    this.pricesTx = this.transaction((ticks: readonly PriceTick[]) => this.prices(ticks));
    this.userTx = this.transaction((userId: string, id: string, how: 'MANUAL' | 'FORCE_CLOSE') =>
      this.userClose(userId, id, how),
    );
  }

  /**
   * Copies a source order to every copy trade following its account, exactly once per order id.
   * @throws ServiceError VALIDATION_FAILED for an order the engine cannot book (nothing written).
   */
  processSourceOrder(order: SourceOrder): CopyEvent[] {
    return this.processTx([order]);
  }

  /**
   * processSourceOrder for a burst, in order, in one transaction (one commit for all: a
   * throughput lever for ingestion that receives orders in batches). All or nothing.
   */
  processSourceOrders(orders: readonly SourceOrder[]): CopyEvent[] {
    return this.processTx(orders);
  }

  /** Writes mark prices and closes the open copy positions they liquidate, stop or take profit. */
  processPrices(ticks: readonly PriceTick[]): CopyEvent[] {
    return this.pricesTx(ticks);
  }

  /** MANUAL: the user closes their open copy position at the mark. @throws ServiceError NOT_FOUND, CONFLICT */
  closeManually(userId: string, copyPositionId: string): CopyEvent[] {
    return this.userTx(userId, copyPositionId, 'MANUAL');
  }

  /** FORCE_CLOSE: the user unlinks their open copy position, closed at the last mark without a fee. @throws ServiceError NOT_FOUND, CONFLICT */
  unlink(userId: string, copyPositionId: string): CopyEvent[] {
    return this.userTx(userId, copyPositionId, 'FORCE_CLOSE');
  }

  /** Forgets the copy trades and tokens held in memory; call after writing copy trades other than through copy-trading/. */
  invalidateFollowers(): void {
    this.followers.invalidate();
    this.tokens.invalidate();
  }

  /** `work` as one SQLite transaction around the store's journal; a failure drops what memory holds. */
  private transaction<A extends unknown[]>(work: (...args: A) => CopyEvent[]): (...args: A) => CopyEvent[] {
    const tx = this.db.transaction((...args: A) => {
      this.store.begin();
      const events = work(...args);
      this.store.finish();
      return events;
    });
    return (...args: A) => {
      let events: CopyEvent[];
      try {
        for (;;) {
          try {
            this.loggedExits.clear();
            events = tx(...args);
            for (const exit of this.loggedExits) this.failedExits.add(exit);
            break;
          } catch (error) {
            // The rollback (of the transaction, or of its savepoint when nested) undid every
            // write of the call; memory forgets them too.
            this.store.failed();
            if (!(error instanceof IsolatedFailure)) throw error;
            if (this.isolated.has(error.key) || this.isolated.size >= MAX_ISOLATED_FAILURES)
              throw error.cause;
            this.isolated.set(error.key, error.reason);
          }
        }
      } finally {
        this.isolated.clear();
      }
      this.store.committed();
      // Checkpoints run off this thread; past its hard cap the WAL is caught up here, after the commit.
      walCatchUp(this.db);
      return events;
    };
  }

  /**
   * One copy trade's share of a source order. A failure rolls the call back and reruns it with
   * this copy replaced by `failed(reason)` (a FAILED activity log), so that the half-written copy
   * is undone and every other copy, and the order's mark, commit.
   */
  private isolate(
    key: string,
    work: () => CopyEvent[],
    failed: (reason: string) => CopyEvent[],
  ): CopyEvent[] {
    const reason = this.isolated.get(key);
    if (reason !== undefined) {
      if (this.isolated.has(`${key}|log`)) return [];
      try {
        return failed(reason);
      } catch (error) {
        console.error(`copydesk service: a copy failed and so did its log (${reason}): ${reasonOf(error)}`);
        throw new IsolatedFailure(`${key}|log`, reason, error);
      }
    }
    try {
      return work();
    } catch (error) {
      if (error instanceof IsolatedFailure) throw error;
      throw new IsolatedFailure(key, reasonOf(error), error);
    }
  }

  private process(order: SourceOrder): CopyEvent[] {
    if (!this.store.markSource(order, this.config.now().getTime())) return [];
    if (order.type === 'MARGIN_TRANSFERRED') return [];
    if (order.type === 'OPEN') {
      const follows = this.followers.of(order.protocol, order.account);
      if (follows.length === 0) return [];
      const run = new OrderRun(order, this.tokens.of(order.protocol, order.indexToken), this.store);
      return follows.flatMap((follow) =>
        this.isolate(
          `${order.id}|${follow.followed.trade.id}`,
          () => this.copyOpen(follow, run),
          (reason) => this.failOpen(follow, run, reason),
        ),
      );
    }
    const run = new OrderRun(order, this.tokens.of(order.protocol, order.indexToken), this.store);
    return this.store.copiesOfSource(run.key).flatMap((p) =>
      this.isolate(
        `${order.id}|${p.id}`,
        () => this.follow(p, run),
        (reason) => {
          const type =
            order.type === 'INCREASE' ? 'INCREASE' : order.type === 'DECREASE' ? 'DECREASE' : 'CLOSE';
          return this.book.fail(this.book.partyOfPosition(p), type, run.cause(p.id), run.price(), 0, reason);
        },
      ),
    );
  }

  /** The FAILED OPEN log of a copy that could not be made. */
  private failOpen({ followed, account }: Follow, run: OrderRun, reason: string): CopyEvent[] {
    const trade = followed.trade;
    const leverage = Math.min(trade.leverage, run.token.maxLeverage ?? trade.leverage);
    const party = this.book.partyOfOpen(followed, account, run.token, run.order, leverage);
    return this.book.fail(party, 'OPEN', run.cause(`${trade.id}|open`), run.price(), 0, reason);
  }

  /** A source OPEN for one follower: filters, OVERWRITE, sizing, the balance check, the open. */
  private copyOpen(follow: Follow, run: OrderRun): CopyEvent[] {
    const { followed, account } = follow;
    const trade = followed.trade;
    // A copy trade stored before the bounds, outside them: nothing is copied, the log says why.
    const broken = outOfBounds(trade);
    if (broken !== null) return this.failOpen(follow, run, broken);
    const reason = skipReason(followed, run.order);
    if (reason !== null) {
      this.store.skip(trade.id, run.key, reason);
      return [];
    }
    this.store.unskip(trade.id, run.key);
    const price = run.price();
    const events = this.overwrite(follow, run, price);
    const factor = trade.volumeProtection ? run.factor(trade.lookBackOrders ?? DEFAULT_LOOK_BACK_ORDERS) : 1;
    const size = openSize(trade.volume, factor, trade.leverage, run.token.maxLeverage, price);
    const cause = run.cause(`${trade.id}|open`);
    const failure = this.cannotPay(trade.copyWalletId, size.margin, size.notional);
    if (failure !== null) {
      const party = this.book.partyOfOpen(followed, account, run.token, run.order, size.leverage);
      return [...events, ...this.book.fail(party, 'OPEN', cause, price, size.notional, failure)];
    }
    const input = { followed, account, token: run.token, sourceKey: run.key, price, size, cause };
    return [...events, ...this.book.open(input)];
  }

  /** Why the wallet cannot hold `margin` and pay the open fee on `notional`, or null when it can. */
  private cannotPay(walletId: string, margin: number, notional: number): string | null {
    if (margin <= 0) return cannotPay(margin, notional, this.fees, 0);
    return cannotPay(margin, notional, this.fees, this.store.availableBalance(walletId));
  }

  /** Closes, with OVERWRITE, the follower's open copy of the same account, token and copy side. */
  private overwrite({ followed, account }: Follow, run: OrderRun, price: number): CopyEvent[] {
    const isLong = copySide(run.order.isLong, followed.trade.reverseCopy);
    return this.store
      .openCopies(followed.trade.id, account, run.token.indexToken, isLong)
      .flatMap((p) => this.book.close(p, price, 'OVERWRITE', run.cause(`${p.id}|overwrite`)));
  }

  /** A source INCREASE, DECREASE or CLOSE for one open copy of its position. */
  private follow(p: EnginePosition, run: OrderRun): CopyEvent[] {
    const { order } = run;
    const price = run.price();
    const cause = run.cause(p.id);
    const action = followAction(order, p, price);
    if (action === null) return [];
    if (action.kind === 'close') return this.book.close(p, price, 'COPY_TRADE', cause);
    if (action.kind === 'reduce') {
      const settings = this.followers.trade(p.copyTradeId)?.trade ?? null;
      return this.book.reduce(p, settings, action.fraction, price, cause);
    }
    return this.increase(p, run, price, cause);
  }

  /** A source INCREASE: RUNNING copy trades only, scaled, clipped by maxVolMultiplier, paid from the balance. */
  private increase(p: EnginePosition, run: OrderRun, price: number, cause: Cause): CopyEvent[] {
    const trade = this.followers.trade(p.copyTradeId)?.trade;
    if (!trade || trade.status !== 'RUNNING') return [];
    const broken = outOfBounds(trade);
    if (broken !== null)
      return this.book.fail(this.book.partyOfPosition(p), 'INCREASE', cause, price, 0, broken);
    const marginDelta = increaseMargin({
      sizeDeltaUsd: run.order.sizeDeltaUsd,
      initialVol: p.initialVol,
      sourceInitialVol: Number(p.sourceInitialVol),
      leverage: p.leverage,
      margin: p.margin,
      volume: trade.volume,
      maxVolMultiplier: trade.maxVolMultiplier,
    });
    if (marginDelta <= 0) return [];
    const notional = roundUsd(marginDelta * p.leverage);
    const failure = this.cannotPay(p.copyWalletId, marginDelta, notional);
    if (failure !== null)
      return this.book.fail(this.book.partyOfPosition(p), 'INCREASE', cause, price, notional, failure);
    return this.book.increase(p, trade, marginDelta, price, cause);
  }

  private prices(ticks: readonly PriceTick[]): CopyEvent[] {
    const events: CopyEvent[] = [];
    for (const tick of ticks) {
      const indexToken = this.tokens.canonical(tick.indexToken);
      if (!this.store.writeMark({ indexToken, price: tick.price, timeMs: tick.timeMs })) continue;
      for (const p of this.store.exitCandidates(indexToken, tick.price)) {
        const exit = exitAt(p, tick.price);
        if (exit === null) continue;
        const cause = { label: `${p.id}|${exit}`, atMs: tick.timeMs, order: null };
        // A position whose exit fails stays open; its FAILED log is written once per process (a
        // failing exit would fail again at every tick), and the other exits of the tick go on.
        events.push(
          ...this.isolate(
            `${indexToken}|${tick.timeMs}|${p.id}`,
            () => this.book.close(p, tick.price, exit, cause),
            (reason) => {
              const once = `${p.id}|${exit}`;
              if (this.failedExits.has(once)) return [];
              this.loggedExits.add(once);
              return this.book.fail(this.book.partyOfPosition(p), exit, cause, tick.price, 0, reason);
            },
          ),
        );
      }
    }
    return events;
  }

  private userClose(userId: string, id: string, how: 'MANUAL' | 'FORCE_CLOSE'): CopyEvent[] {
    const p = this.store.position(id);
    if (!p || p.userId !== userId)
      throw new ServiceError('NOT_FOUND', `copy position ${id.slice(0, 60)} does not exist`);
    if (p.status !== 'OPEN')
      throw new ServiceError('CONFLICT', `copy position ${id.slice(0, 60)} is already closed`);
    const price = this.store.markPrice(p.indexToken) ?? p.entryPrice;
    const atMs = this.config.now().getTime();
    if (how === 'FORCE_CLOSE') return this.book.forceClose(p, price, atMs);
    return this.book.close(p, price, 'MANUAL', { label: `${p.id}|MANUAL`, atMs, order: null });
  }
}
