// The backtest service: `multiple-order` runs one configuration per account, `sweep` every
// combination of the listed settings, ranked (docs/backtest.md). Reads the store, writes nothing.
import type {
  BacktestRequest,
  BacktestResponse,
  SweepRequest,
  SweepResponse,
} from '../../shared/api/backtest';
import type { ServiceDb } from '../store/database';
import { DemoMarks } from './demo-marks';
import { pricePathsFor, venuePathsFor } from './price-paths';
import { filterMask, simulate } from './simulate';
import { filtersOf, runSettingsOf, sweptOf, windowOf, type ListedToken } from './settings';
import { StoredOrders } from './stored-orders';
import { summaryOf } from './summary';
import { configurationsOf, sweepJobs, type PreparedTrader } from './sweep-runs';
import { SweepPool } from './sweep-pool';
import type { FilterSubject } from '../copy-engine/filters';
import type { VenuePrices } from '../prices/venue-prices';

/** Backtests over one service's store. */
export class Backtests {
  private readonly stored: StoredOrders;
  private readonly marks: DemoMarks;
  /** One worker thread per core, for large sweeps. */
  private readonly pools = [new SweepPool(), new SweepPool()];
  private readonly listed;
  private readonly nowMs: () => number;
  /** The venue feed's candles, for its protocol's traders (null without a feed). */
  private readonly venue: VenuePrices | null;

  /**
   * `demo`: the store holds the demo world, whose mark history can be rebuilt; `venue`: the venue
   * feed's candles.
   */
  constructor(db: ServiceDb, options: { demo: boolean; nowMs: () => number; venue?: VenuePrices | null }) {
    this.nowMs = options.nowMs;
    this.venue = options.venue ?? null;
    this.stored = new StoredOrders(db);
    this.marks = new DemoMarks(db, options.demo);
    this.listed = db.prepare('SELECT symbol, index_token AS indexToken FROM tokens WHERE protocol = ?');
  }

  /** One result per account, in request order. */
  multipleOrder(protocol: string, body: BacktestRequest): BacktestResponse {
    const window = windowOf(body, this.nowMs());
    const filters = filtersOf(body, this.listedTokens(protocol));
    const s = runSettingsOf(body, sweptOf(body), filters, window);
    return body.accounts.map((account) => {
      const p = this.prepare(account, protocol, filters, window);
      const run = simulate(p.trader, p.paths, s, p.mask, body.isReturnPositions ? 'positions' : 'equity');
      const summary = summaryOf(account, protocol, s.balance, run.totals, p.paths.kind);
      return body.isReturnPositions
        ? { ...summary, equity: run.equity!, simulatorPositions: run.positions! }
        : { ...summary, equity: run.equity! };
    });
  }

  /** Every combination's summary, best first by `rankBy`. Large sweeps use a worker thread too. */
  async sweep(protocol: string, body: SweepRequest): Promise<SweepResponse> {
    const window = windowOf(body, this.nowMs());
    const filters = filtersOf(body, this.listedTokens(protocol));
    const rankBy = body.rankBy ?? 'roi';
    const configs = configurationsOf(body);
    const traders = body.accounts.map((account) => this.prepare(account, protocol, filters, window));
    const data = await sweepJobs(this.pools, { body, filters, window, configs, rankBy }, traders);
    return {
      protocol,
      rankBy,
      combinations: data.length,
      fromTime: window.fromTime,
      toTime: window.toTime,
      data,
    };
  }

  /**
   * Fetches the venue's candles a run of `body` on `protocol` walks, within the feed's budget and
   * a bounded wait (docs/backtest.md, Price path); nothing for another protocol.
   */
  async fetchPrices(
    protocol: string,
    body: { accounts: string[]; fromTime?: number | undefined; toTime?: number | undefined },
  ): Promise<void> {
    if (this.venue?.protocol !== protocol) return;
    const window = windowOf(body, this.nowMs());
    await this.venue.prepareWindow(body.accounts, window.fromTime, window.toTime);
  }

  async close(): Promise<void> {
    await Promise.all(this.pools.map((pool) => pool.close()));
  }

  private listedTokens(protocol: string): ListedToken[] {
    return this.listed.all(protocol) as ListedToken[];
  }

  private prepare(
    account: string,
    protocol: string,
    filters: FilterSubject,
    window: { fromTime: number; toTime: number },
  ): PreparedTrader {
    const trader = this.stored.trader(account, protocol, window.toTime);
    const venue = this.venue?.protocol === protocol ? this.venue : null;
    const symbol = (pair: string) => pair.replace(/\/USD$/, '');
    const paths = venue
      ? venuePathsFor(
          trader,
          (pair) => venue.windowCandles(symbol(pair), window.fromTime, window.toTime),
          window.fromTime,
          window.toTime,
        )
      : pricePathsFor(trader, (pair) => this.marks.series(symbol(pair)), window.fromTime, window.toTime);
    return { trader, paths, mask: filterMask(trader, filters) };
  }
}
