// A venue feed's candles where the backtest and the candles endpoint need them: fetched for the
// window within the feed's budget, with a bounded wait, then read from the store
// (docs/venue-feed.md, Candles; docs/backtest.md, Price path).
import type { CandleInterval, VenueCandleFetch } from '../../shared/api/candles';
import { HYPERLIQUID_PROTOCOL } from '../../shared/api/feed';
import { storedAddress } from '../store/conditions';
import type { ServiceDb } from '../store/database';
import {
  intervalForWindow,
  type StoredCandles,
  type VenueCandles,
} from '../venues/hyperliquid/venue-candles';

/** How long a backtest or a chart waits for the venue's candles before it runs on what is stored. */
export const CANDLE_WAIT_MS = 10_000;

/** The venue feed's candles of one protocol's tokens (a token's symbol is the venue's coin). */
export class VenuePrices {
  readonly protocol = HYPERLIQUID_PROTOCOL;
  private readonly traded;

  constructor(
    db: ServiceDb,
    private readonly candles: VenueCandles,
    private readonly waitMs = CANDLE_WAIT_MS,
  ) {
    this.traded = db.prepare<[string, string, number, number], { symbol: string }>(
      `SELECT DISTINCT t.symbol FROM orders o JOIN tokens t ON t.protocol = o.protocol AND t.index_token = o.index_token
       WHERE o.account = ? AND o.protocol = ? AND o.block_time_ms >= ? AND o.block_time_ms <= ?`,
    );
  }

  /** The interval a backtest window [fromTime, toTime] walks (intervalForWindow). */
  windowInterval(fromTime: number, toTime: number): CandleInterval {
    return intervalForWindow(fromTime, toTime + 1, this.candles.nowMs());
  }

  /**
   * Fetches the candles of every token `accounts` traded in [fromTime, toTime], all within one
   * bounded wait; what is not in by then is fetched on, and the backtest walks the fills.
   */
  async prepareWindow(
    accounts: readonly string[],
    fromTime: number,
    toTime: number,
  ): Promise<VenueCandleFetch[]> {
    const symbols = new Set<string>();
    for (const account of accounts)
      for (const { symbol } of this.traded.all(storedAddress(account), this.protocol, fromTime, toTime))
        symbols.add(symbol);
    const interval = this.windowInterval(fromTime, toTime);
    return Promise.all(
      [...symbols].map((symbol) => this.candles.ensure(symbol, interval, fromTime, toTime + 1, this.waitMs)),
    );
  }

  /** The stored candles of `symbol` over [fromTime, toTime] when every closed one is in, else null. */
  windowCandles(symbol: string, fromTime: number, toTime: number): StoredCandles | null {
    const stored = this.candles.stored(symbol, this.windowInterval(fromTime, toTime), fromTime, toTime + 1);
    return stored.complete && stored.candles.length > 0 ? stored : null;
  }

  /** A chart's candles of `symbol` in [fromMs, toMs): fetched if missing (bounded wait), then read. */
  async chartCandles(
    symbol: string,
    interval: CandleInterval,
    fromMs: number,
    toMs: number,
  ): Promise<{ stored: StoredCandles; fetch: VenueCandleFetch }> {
    const {
      coin: _coin,
      interval: _interval,
      ...fetch
    } = await this.candles.ensure(symbol, interval, fromMs, toMs, this.waitMs);
    return { stored: this.candles.stored(symbol, interval, fromMs, toMs), fetch };
  }
}
