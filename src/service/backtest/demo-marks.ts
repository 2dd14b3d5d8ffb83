// The demo market's mark history. The simulator does not store it: its minute paths are
// regenerated from the demo seed and the instant the world was seeded (the store's
// `statistics_as_of`), exactly as seeding drew them (market/simulator/prices.ts). A path is used
// for a trader only when it reproduces every price of the trader's own orders on it, so a store
// whose history came from elsewhere falls back to the fills (docs/backtest.md, Price path).
import { buildPricePaths } from '../market/simulator/prices';
import { STEP_MS } from '../market/simulator/parameters';
import { DEMO_WORLD } from '../market/simulator';
import type { ServiceDb } from '../store/database';
import { readMeta } from '../store/meta';
import { DEMO_SEED } from '../world';
import { PriceSeries } from './price-series';

const HOUR_MS = 3_600_000;

/** Mark paths by symbol, built when first asked for and kept. */
export class DemoMarks {
  private readonly bySymbol = new Map<string, PriceSeries | null>();

  constructor(
    private readonly db: ServiceDb,
    /** Whether the store holds the demo world (`--demo`). */
    private readonly enabled: boolean,
  ) {}

  /** The minute path of `symbol`, or null when the store holds no demo world. */
  series(symbol: string): PriceSeries | null {
    if (!this.enabled) return null;
    let found = this.bySymbol.get(symbol);
    if (found === undefined) {
      found = this.build(symbol);
      this.bySymbol.set(symbol, found);
    }
    return found;
  }

  private build(symbol: string): PriceSeries | null {
    const seededAt = readMeta(this.db, 'statistics_as_of');
    const endMs = seededAt === null ? NaN : Date.parse(seededAt);
    if (!Number.isFinite(endMs)) return null;
    const path = buildPricePaths(DEMO_SEED, [symbol], endMs, DEMO_WORLD.days).get(symbol);
    if (!path) return null;
    // The simulator's funding is an hourly cumulative rate; sampled at the hours it is exact.
    const hours = Math.ceil((path.endMs - path.startMs) / HOUR_MS) + 1;
    const funding = new Float64Array(hours);
    for (let h = 0; h < hours; h += 1) funding[h] = path.fundingAt(path.startMs + h * HOUR_MS);
    return new PriceSeries(path.values, null, path.startMs, STEP_MS, {
      index: funding,
      startMs: path.startMs,
      stepMs: HOUR_MS,
    });
  }
}
