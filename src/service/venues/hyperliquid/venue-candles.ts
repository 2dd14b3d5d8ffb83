// The venue's candles (`candleSnapshot`), fetched within the feed's request budget and stored, so
// that each (coin, interval) range is asked of the venue once (docs/venue-feed.md, Candles).
import {
  CANDLE_INTERVAL_MS,
  CANDLE_INTERVALS,
  type CandleInterval,
  type VenueCandleFetch,
  type VenueCandleState,
} from '../../../shared/api/candles';
import type { ServiceDb } from '../../store/database';
import { CandleStore } from './candle-store';
import { RateLimitedError, VenueUnreachableError, type InfoClient } from './info-client';
import { readCandlesPage, type VenueCandle } from './venue-candle-page';
import { PageError } from './venue-fills';

/** The venue answers at most this many candles, and keeps only the most recent ones per interval. */
export const CANDLE_CAP = 5_000;

/** How a fetch of one coin's candles ended (the states: src/shared/api/candles.ts). */
export interface CandleFetch extends VenueCandleFetch {
  coin: string;
  interval: CandleInterval;
}

/** A range's candles as stored, ready to draw or to walk. */
export interface StoredCandles {
  interval: CandleInterval;
  intervalMs: number;
  candles: VenueCandle[];
  /** Whether every closed candle of the range has been fetched (a range never asked is not). */
  complete: boolean;
}

/**
 * The finest interval whose candles the venue still keeps from `fromMs` on (its most recent
 * CANDLE_CAP per interval, counted back from `nowMs`) and of which the window holds at most
 * CANDLE_CAP: 1m up to about 3.5 days back, then 5m (17 days), 15m (52 days), 1h (208 days),
 * 4h (2.3 years), else 1d.
 */
export function intervalForWindow(fromMs: number, toMs: number, nowMs: number): CandleInterval {
  for (const interval of CANDLE_INTERVALS) {
    const ms = CANDLE_INTERVAL_MS[interval];
    const reach = nowMs - CANDLE_CAP * ms;
    if (fromMs >= reach && (toMs - fromMs) / ms <= CANDLE_CAP) return interval;
  }
  return '1d';
}

/** Fetches and serves one venue's candles; one per feed, sharing its info client's budget. */
export class VenueCandles {
  private readonly store: CandleStore;
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(
    db: ServiceDb,
    private readonly client: InfoClient,
    venue: string,
    /** The venue's clock: whether a candle has closed, and how far back the venue keeps them. */
    readonly nowMs: () => number = Date.now,
    private readonly log: (message: string) => void = () => undefined,
  ) {
    this.store = new CandleStore(db, venue);
  }

  /**
   * Makes sure the closed candles of [fromMs, toMs) are stored, fetching the missing parts within
   * the budget, and waits at most `waitMs` for it (the fetch goes on after that, and its candles
   * serve the next ask).
   */
  async ensure(
    coin: string,
    interval: CandleInterval,
    fromMs: number,
    toMs: number,
    waitMs: number,
  ): Promise<CandleFetch> {
    const [from, to] = this.aligned(interval, fromMs, toMs);
    if (this.store.missing(coin, interval, from, this.closedBefore(interval, to)).length === 0)
      return { coin, interval, state: 'stored', complete: true };
    const work = this.fetch(coin, interval, from, to);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'waiting'>((resolve) => {
      timer = setTimeout(() => resolve('waiting'), waitMs);
    });
    const outcome = await Promise.race([
      work.then(
        () => 'fetched' as const,
        (error: unknown) => error,
      ),
      timeout,
    ]);
    clearTimeout(timer);
    const complete = this.stored(coin, interval, fromMs, toMs).complete;
    if (outcome === 'fetched') return { coin, interval, state: 'fetched', complete };
    if (outcome === 'waiting')
      return {
        coin,
        interval,
        state: 'waiting',
        complete,
        message: `still waiting for the budget after ${waitMs} ms`,
      };
    return { coin, interval, state: stateOf(outcome), complete, message: (outcome as Error).message };
  }

  /** The stored candles opening in [fromMs, toMs), and whether that range is fetched whole. */
  stored(coin: string, interval: CandleInterval, fromMs: number, toMs: number): StoredCandles {
    const intervalMs = CANDLE_INTERVAL_MS[interval];
    const [from, to] = this.aligned(interval, fromMs, toMs);
    const complete = this.store.missing(coin, interval, from, this.closedBefore(interval, to)).length === 0;
    return { interval, intervalMs, candles: this.store.read(coin, interval, from, to), complete };
  }

  /** Fetches the missing parts of [from, to) (aligned), once however many ask at the same time. */
  private fetch(coin: string, interval: CandleInterval, from: number, to: number): Promise<void> {
    const key = `${coin}|${interval}|${from}|${to}`;
    let work = this.inFlight.get(key);
    if (!work) {
      work = this.fetchMissing(coin, interval, from, to).finally(() => this.inFlight.delete(key));
      // A caller that stopped waiting does not see the failure; the next ask tries again.
      work.catch((error: unknown) => this.log(`candles of ${coin} ${interval}: ${(error as Error).message}`));
      this.inFlight.set(key, work);
    }
    return work;
  }

  /** Page by page, at most CANDLE_CAP candles each, every page stored as it comes. */
  private async fetchMissing(
    coin: string,
    interval: CandleInterval,
    from: number,
    to: number,
  ): Promise<void> {
    const ms = CANDLE_INTERVAL_MS[interval];
    for (const [gapFrom, gapTo] of this.store.missing(coin, interval, from, to)) {
      for (let start = gapFrom; start < gapTo; start += CANDLE_CAP * ms) {
        const end = Math.min(gapTo, start + CANDLE_CAP * ms);
        const answer = await this.client.candleSnapshot({
          coin,
          interval,
          startTime: start,
          endTime: end - 1,
        });
        const candles = readCandlesPage(answer, { coin, interval, intervalMs: ms, fromMs: start, toMs: end });
        // The candle still open when the venue answered is stored but its range stays unfetched:
        // the next ask replaces it with the closed one.
        this.store.put(coin, interval, candles, [start, Math.min(end, this.closedBefore(interval, end))]);
      }
    }
  }

  /** [fromMs, toMs) widened to whole candles. */
  private aligned(interval: CandleInterval, fromMs: number, toMs: number): [number, number] {
    const ms = CANDLE_INTERVAL_MS[interval];
    return [Math.floor(fromMs / ms) * ms, Math.ceil(toMs / ms) * ms];
  }

  /** `toMs`, cut back to the opening of the candle open now (candles before it have closed). */
  private closedBefore(interval: CandleInterval, toMs: number): number {
    const ms = CANDLE_INTERVAL_MS[interval];
    return Math.min(toMs, Math.floor(this.nowMs() / ms) * ms);
  }
}

function stateOf(error: unknown): VenueCandleState {
  if (error instanceof VenueUnreachableError) return 'offline';
  if (error instanceof PageError) return 'refused';
  if (error instanceof RateLimitedError) return 'rate-limited';
  return 'failed';
}
