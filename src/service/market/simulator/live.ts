// The live market: after the demo world's history, prices keep moving and traders keep trading.
// Every tick moves every symbol (mark_prices; the minutes kept by live-marks.ts), liquidates the
// open positions the new prices cross, and lets a handful of traders open, increase, decrease, top
// up or close positions. Each change is committed before its event goes out, so a listener can
// read the store.
import type { Statement } from 'better-sqlite3';
import { getAddress } from 'viem';
import type { SeededRandom } from '../../fixture/random';
import type { ServiceDb } from '../../store/database';
import { positionWriters, type OrderRow, type PositionRow } from '../../store/positions';
import { positionKey } from '../../positions/keys';
import { hashString, hex32, mix32, normal, substream } from './draws';
import { LiveMarksRecorder } from './live-marks';
import { ACTIVITY_WINDOW_MS, HOUR_MS, dynamicsOf } from './parameters';
import { SimPosition, cents, type OrderStamper, type PositionIdentity } from './position-book';
import { stepReturn } from './prices';
import { drawHumanKind, drawStyle, type TraderStyle } from './styles';
import { chooseSize, chooseToken, pad36, planIncrease } from './trader';
import { catalogueMarkets, type MarketToken, type ProtocolMarket } from './world';

/** A token's new mark price. */
export interface LivePrice {
  indexToken: string;
  price: number;
  timeMs: number;
}

/** What the live market reports, each after its rows are committed. */
export type LiveEvent =
  | { kind: 'prices'; prices: LivePrice[] }
  | { kind: 'order'; order: OrderRow; position: PositionRow }
  | { kind: 'positionClosed'; account: string; protocol: string; positionId: string };

/** Options of the live market. */
export interface LiveMarketOptions {
  seed: number;
  /** The market's clock (a tick stamps its rows with it). */
  nowMs: () => number;
  /** Milliseconds between ticks of the timer (default 1,000). */
  tickMs?: number;
  onEvent?: (event: LiveEvent) => void;
  /** Mean trader actions per tick (default 3). */
  actionsPerTick?: number;
  /**
   * Market time per clock time for price moves (default 60: a one-second tick moves prices as
   * much as a minute of the world's paths), so that a demo shows movement.
   */
  pace?: number;
  /** Start the timer (default true). Tests pass false and call step(). */
  timer?: boolean;
  /**
   * Where a failing tick's error goes when the timer runs it (default console.error), with how
   * many ticks in a row have failed and when the next try is. The market does not stop: it tries
   * again after `tickMs × 2^(failures)`, at most `maxRetryMs` (docs/service.md, The live market's state).
   */
  onError?: (error: unknown, retry: { failures: number; retryInMs: number }) => void;
  /** A tick succeeded after failures (the market runs again). */
  onRecovered?: (failures: number) => void;
  /** The longest wait between two tries of a failing tick (default 60,000 ms). */
  maxRetryMs?: number;
}

/** A running live market. */
export interface LiveMarket {
  /** Runs one tick at `nowMs` (default: the clock) and returns its events. */
  step(nowMs?: number): LiveEvent[];
  /** Stops the timer; later steps do nothing. */
  stop(): void;
}

/** Starts the live market over the store; the timer is unref'd, so it never keeps Node alive. */
export function startLiveMarket(db: ServiceDb, options: LiveMarketOptions): LiveMarket {
  const market = new LiveMarketState(db, options);
  const tickMs = options.tickMs ?? 1_000;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const stop = () => {
    if (!stopped) market.flushMarks();
    stopped = true;
    if (timer) clearTimeout(timer);
    timer = null;
  };
  const step = (nowMs = options.nowMs()): LiveEvent[] => (stopped ? [] : market.tick(nowMs, tickMs));
  if (options.timer !== false) {
    // A failing tick (SQLITE_BUSY, a full disk) is tried again with backoff, never dropped for
    // good: the next tick starts from what was committed (each change commits on its own).
    let failures = 0;
    const schedule = (ms: number) => {
      if (stopped) return;
      timer = setTimeout(run, ms);
      timer.unref();
    };
    const run = () => {
      timer = null;
      if (stopped) return;
      try {
        step();
      } catch (error) {
        failures += 1;
        const retryInMs = Math.min(options.maxRetryMs ?? 60_000, tickMs * 2 ** Math.min(failures, 20));
        try {
          (options.onError ?? ((e: unknown) => console.error(e)))(error, { failures, retryInMs });
        } finally {
          schedule(retryInMs);
        }
        return;
      }
      if (failures > 0) {
        const recovered = failures;
        failures = 0;
        options.onRecovered?.(recovered);
      }
      schedule(tickMs);
    };
    schedule(tickMs);
  }
  return { step, stop };
}

/** A trader of the live market: an account on a protocol. */
interface LiveTrader {
  account: string;
  market: ProtocolMarket;
}

/** The weight of a trader who opened nothing in the window: rare, but not never. */
const DORMANT_WEIGHT = 0.1;

/** The live market's state between ticks. */
class LiveMarketState {
  private readonly random: SeededRandom;
  private readonly markets = new Map<string, ProtocolMarket>();
  private readonly prices = new Map<string, number>();
  private readonly open = new Map<string, SimPosition>();
  private readonly traders: LiveTrader[];
  /** Running sums of the traders' weights, for picks in proportion to them. */
  private readonly traderWeights: number[];
  private readonly styles = new Map<string, TraderStyle>();
  private readonly write: ReturnType<typeof positionWriters>;
  private readonly writePrice: Statement<[string, number, number]>;
  /**
   * The key of a series' stored positions, if any (docs/simulator.md, Keys): any of them, as a
   * series' positions share one key, so the first the index meets will do. Null when the store's
   * keys are the one positionKey, which the engine hashes anyway: no query per open then.
   */
  private readonly storedKey: Statement<[string, string, string, number], string> | null;
  /** The marks per minute, kept for the backtest and the charts (docs/simulator.md). */
  private readonly marks: LiveMarksRecorder;
  private lastMs: number | null = null;
  private seq = 0;
  private events: LiveEvent[] = [];

  constructor(
    private readonly db: ServiceDb,
    private readonly options: LiveMarketOptions,
  ) {
    this.random = substream(options.seed, hashString('live'));
    for (const m of catalogueMarkets()) this.markets.set(m.protocol, m);
    this.write = positionWriters(db);
    this.writePrice = db.prepare<[string, number, number]>(
      `INSERT INTO mark_prices (index_token, price, time_ms) VALUES (?, ?, ?)
       ON CONFLICT(index_token) DO UPDATE SET price = excluded.price, time_ms = excluded.time_ms`,
    );
    this.storedKey = keyedBefore(db)
      ? db.prepare<[string, string, string, number], string>(STORED_KEY_SQL).pluck()
      : null;
    this.marks = new LiveMarksRecorder(db);
    this.loadPrices();
    this.loadOpenPositions();
    const { traders, weights } = this.loadTraders();
    this.traders = traders;
    this.traderWeights = weights;
  }

  /** One tick: prices, liquidations, then the traders' orders. */
  tick(nowMs: number, tickMs: number): LiveEvent[] {
    this.events = [];
    const elapsed = this.lastMs === null ? tickMs : Math.max(0, nowMs - this.lastMs);
    this.lastMs = nowMs;
    this.movePrices(nowMs, elapsed * (this.options.pace ?? 60));
    this.liquidate(nowMs);
    const mean = this.options.actionsPerTick ?? 3;
    for (let n = this.random.int(0, 2 * mean); n > 0; n -= 1) this.act(nowMs);
    return this.events;
  }

  /** Writes the minute being collected; a minute cut short by a crash is lost (a gap). */
  flushMarks(): void {
    try {
      this.marks.flush();
    } catch (error) {
      // Stopping never throws: the store may already be closing.
      console.error(error);
    }
  }

  private emit(event: LiveEvent): void {
    this.events.push(event);
    this.options.onEvent?.(event);
  }

  /** Symbols start from the store's mark prices (the demo world's last values) or their start price. */
  private loadPrices(): void {
    const rows = this.db.prepare('SELECT index_token, price FROM mark_prices').all() as {
      index_token: string;
      price: number;
    }[];
    const stored = new Map(rows.map((r) => [r.index_token, r.price]));
    for (const token of this.tokens()) {
      if (this.prices.has(token.symbol)) continue;
      const price = stored.get(token.indexToken);
      if (price !== undefined && price > 0) this.prices.set(token.symbol, price);
    }
    for (const token of this.tokens())
      if (!this.prices.has(token.symbol)) this.prices.set(token.symbol, dynamicsOf(token.symbol).startPrice);
  }

  /** The open positions of the catalogue's protocols, ready to trade on. */
  private loadOpenPositions(): void {
    const rows = this.db
      .prepare("SELECT * FROM positions WHERE status = 'OPEN' ORDER BY id")
      .all() as PositionRow[];
    for (const row of rows) {
      const market = this.markets.get(row.protocol);
      if (!market || row.size_in_token <= 0) continue;
      const p = SimPosition.fromRow(row, market.feeRate, fundingIndexOf(row.pair), this.stamper());
      this.open.set(row.id, p);
    }
  }

  /**
   * Everyone who traded on a catalogue protocol, each weighted by the positions they opened in
   * the week before now (plus a little), so that who acts live follows who was active: the
   * leaderboard's busy traders keep trading, and a user who copies one sees copies. A store
   * without positions gets newcomers, all alike.
   */
  private loadTraders(): { traders: LiveTrader[]; weights: number[] } {
    const rows = this.db
      .prepare(
        `SELECT protocol, account, SUM(open_time_ms >= ?) AS recent FROM positions
         GROUP BY protocol, account ORDER BY protocol, account`,
      )
      .all(this.options.nowMs() - ACTIVITY_WINDOW_MS) as {
      protocol: string;
      account: string;
      recent: number;
    }[];
    const traders: LiveTrader[] = [];
    const weights: number[] = [];
    const add = (trader: LiveTrader, weight: number) => {
      traders.push(trader);
      weights.push((weights.at(-1) ?? 0) + weight);
    };
    for (const r of rows) {
      const market = this.markets.get(r.protocol);
      if (market) add({ account: r.account, market }, r.recent + DORMANT_WEIGHT);
    }
    if (traders.length === 0) {
      const markets = [...this.markets.values()];
      for (let i = 0; i < 64; i += 1)
        add({ account: getAddress(`0x${this.random.hex(20)}`), market: markets[i % markets.length]! }, 1);
    }
    return { traders, weights };
  }

  /** A trader drawn in proportion to their weight. */
  private pickTrader(): LiveTrader {
    const sums = this.traderWeights;
    const x = this.random.next() * sums[sums.length - 1]!;
    let lo = 0;
    let hi = sums.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sums[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return this.traders[lo]!;
  }

  private tokens(): MarketToken[] {
    return [...this.markets.values()].flatMap((m) => m.tokens);
  }

  /** Moves every symbol by a step of `marketMs` of its dynamics and writes every token's mark price. */
  private movePrices(nowMs: number, marketMs: number): void {
    const shock = normal(this.random);
    for (const symbol of [...this.prices.keys()].sort()) {
      const r = marketMs > 0 ? stepReturn(this.random, dynamicsOf(symbol), shock, marketMs) : 0;
      const price = (this.prices.get(symbol) as number) * Math.exp(r);
      this.prices.set(symbol, price);
      this.marks.record(symbol, price, nowMs);
    }
    const prices = this.tokens().map((t) => ({
      indexToken: t.indexToken,
      price: this.prices.get(t.symbol) as number,
      timeMs: nowMs,
    }));
    this.db.transaction(() => prices.forEach((p) => this.writePrice.run(p.indexToken, p.price, p.timeMs)))();
    this.emit({ kind: 'prices', prices });
  }

  /** Liquidates, at its liquidation price, every open position the new price has crossed. */
  private liquidate(nowMs: number): void {
    for (const position of [...this.open.values()]) {
      if (position.isLiquidatableAt(this.priceOf(position))) this.commit(position, position.liquidate(nowMs));
    }
  }

  /** One trader's action: often on a position they hold, otherwise a new position. */
  private act(nowMs: number): void {
    const held = [...this.open.values()];
    if (held.length > 0 && this.random.chance(0.6)) return this.manage(this.random.pick(held), nowMs);
    const trader = this.pickTrader();
    const mine = held.filter(
      (p) => p.identity.account === trader.account && p.identity.protocol === trader.market.protocol,
    );
    if (mine.length > 0 && this.random.chance(0.7)) return this.manage(this.random.pick(mine), nowMs);
    this.openPosition(trader, nowMs);
  }

  /** Close (55 %), decrease (20 %), increase (15 %) or top up (10 %) a held position. */
  private manage(position: SimPosition, nowMs: number): void {
    const price = this.priceOf(position);
    const x = this.random.next();
    if (x < 0.55) return this.commit(position, position.close(nowMs, price));
    if (x < 0.75)
      return this.commit(position, position.decrease(nowMs, price, this.random.between(0.25, 0.6)));
    if (x < 0.9) return this.increase(position, nowMs, price);
    this.commit(
      position,
      position.addMargin(nowMs, price, cents(position.collateral * this.random.between(0.3, 1))),
    );
  }

  private increase(position: SimPosition, nowMs: number, price: number): void {
    const token = this.tokenOf(position.identity.protocol, position.identity.indexToken);
    const plan = planIncrease(this.random, position, price, token?.maxLeverage ?? 20);
    if (plan) this.commit(position, position.increase(nowMs, price, plan.sizeUsd, plan.collateral));
  }

  /**
   * A new position in the trader's style; the same series and side already open is increased
   * instead. Matched by account, protocol, token and side rather than by key: a database seeded
   * before the one positionKey keeps its open positions' stored keys (docs/simulator.md).
   */
  private openPosition(trader: LiveTrader, nowMs: number): void {
    const style = this.styleOf(trader.account);
    const token = chooseToken(this.random, style, trader.market);
    const isLong = this.random.chance(style.longBias);
    const { leverage, collateral } = chooseSize(this.random, style, token);
    const same = [...this.open.values()].find(
      ({ identity: p }) =>
        p.account === trader.account &&
        p.protocol === token.protocol &&
        p.indexToken === token.indexToken &&
        p.isLong === isLong,
    );
    if (same) return this.increase(same, nowMs, this.prices.get(token.symbol) as number);
    this.seq += 1;
    const identity: PositionIdentity = {
      id: `L${pad36(nowMs, 9)}${pad36(this.seq, 4)}`,
      account: trader.account,
      protocol: token.protocol,
      symbol: token.symbol,
      indexToken: token.indexToken,
      pair: token.pair,
      isLong,
      storedKey: this.storedKey?.get(token.protocol, trader.account, token.indexToken, isLong ? 1 : 0),
    };
    const position = new SimPosition(
      identity,
      trader.market.feeRate,
      fundingIndexOf(token.pair),
      this.stamper(),
    );
    const price = this.prices.get(token.symbol) as number;
    this.commit(position, position.open(nowMs, price, collateral * leverage, collateral));
  }

  /** Writes the position and its new order in one transaction, then tells the listener. */
  private commit(position: SimPosition, order: OrderRow): void {
    const row = position.toRow();
    try {
      this.db.transaction(() => {
        this.write.position(row);
        this.write.order(order);
      })();
    } catch (error) {
      // The position has moved past its stored row: trading on would write orders its row lacks.
      this.open.delete(row.id);
      throw error;
    }
    const closed = row.status === 'CLOSE';
    if (closed) this.open.delete(row.id);
    else this.open.set(row.id, position);
    this.emit({ kind: 'order', order, position: row });
    if (closed)
      this.emit({ kind: 'positionClosed', account: row.account, protocol: row.protocol, positionId: row.id });
  }

  /** Order ids continue the position's sequence; hashes mix the seed, the position and the order. */
  private stamper(): OrderStamper {
    const seed = this.options.seed;
    return (p, seq) => ({
      id: `${p.id}-${pad36(seq, 2)}`,
      txHash: hex32(mix32(seed, hashString(p.id)), seq, 0x11fe),
      logId: (mix32(hashString(p.id), seq) % 400) + 1,
    });
  }

  private priceOf(position: SimPosition): number {
    return this.prices.get(position.identity.symbol) ?? position.averagePrice;
  }

  private tokenOf(protocol: string, indexToken: string): MarketToken | undefined {
    return this.markets.get(protocol)?.tokens.find((t) => t.indexToken === indexToken);
  }

  /** A trader's live style, drawn from the seed and the account: the same on every run. */
  private styleOf(account: string): TraderStyle {
    let style = this.styles.get(account);
    if (!style) {
      const random = substream(this.options.seed, hashString(account.toLowerCase()));
      style = drawStyle(random, drawHumanKind(random));
      this.styles.set(account, style);
    }
    return style;
  }
}

const STORED_KEY_SQL = `SELECT key FROM positions
  WHERE protocol = ? AND account = ? AND index_token = ? AND is_long = ? LIMIT 1`;

/**
 * Whether the store holds keys other than the one positionKey (seeded before it): its first
 * position is the oldest seeded row, and its key tells.
 */
function keyedBefore(db: ServiceDb): boolean {
  const first = db
    .prepare('SELECT account, protocol, index_token, is_long, key FROM positions ORDER BY rowid LIMIT 1')
    .get() as Pick<PositionRow, 'account' | 'protocol' | 'index_token' | 'is_long' | 'key'> | undefined;
  if (!first) return false;
  const series = {
    account: first.account,
    protocol: first.protocol,
    symbol: '',
    indexToken: first.index_token,
  };
  return first.key !== positionKey(series, first.is_long === 1);
}

/** Live funding: the symbol's mean hourly rate, accrued on clock time. */
function fundingIndexOf(pair: string): (timeMs: number) => number {
  const perHour = dynamicsOf(pair.split('/')[0] ?? pair).fundingPerHour;
  return (timeMs) => (perHour * timeMs) / HOUR_MS;
}
