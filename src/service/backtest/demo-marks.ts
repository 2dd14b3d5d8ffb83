// The demo market's mark history. The seeded part is not stored: its minute paths are regenerated
// from the demo seed and the instant the world was seeded (the store's `statistics_as_of`),
// exactly as seeding drew them (market/simulator/prices.ts). After it come the live market's
// minutes, which are stored (market/simulator/live-marks.ts). A path is used for a trader only
// when it reproduces every price of the trader's own orders on it, so a store whose history came
// from elsewhere falls back to the fills (docs/backtest.md, Price path).
import { buildPricePaths } from '../market/simulator/prices';
import { LiveMarksReader, type LiveMinute } from '../market/simulator/live-marks';
import { STEP_MS, dynamicsOf } from '../market/simulator/parameters';
import { DEMO_WORLD } from '../market/simulator';
import type { ServiceDb } from '../store/database';
import { readMeta } from '../store/meta';
import { DEMO_SEED } from '../preparation/demo-world';
import { PriceSeries } from './price-series';
import { ORDER_CODE, type TraderOrders } from './trader-orders';

const HOUR_MS = 3_600_000;
/** Relative room around a minute's low and high within which a live fill is inside it (rounding). */
const IN_MINUTE = 1e-9;

/** Mark paths by symbol, built when first asked for and kept. */
export class DemoMarks {
  private readonly bySymbol = new Map<string, DemoMarkHistory | null>();
  private readonly live: LiveMarksReader;

  constructor(
    private readonly db: ServiceDb,
    /** Whether the store holds the demo world (`--demo`). */
    private readonly enabled: boolean,
  ) {
    this.live = new LiveMarksReader(db);
  }

  /** The mark history of `symbol`, or null when the store holds no demo world. */
  series(symbol: string): DemoMarkHistory | null {
    if (!this.enabled) return null;
    let found = this.bySymbol.get(symbol);
    if (found === undefined) {
      found = this.build(symbol);
      this.bySymbol.set(symbol, found);
    }
    return found;
  }

  private build(symbol: string): DemoMarkHistory | null {
    const seededAt = readMeta(this.db, 'statistics_as_of');
    const endMs = seededAt === null ? NaN : Date.parse(seededAt);
    if (!Number.isFinite(endMs)) return null;
    const path = buildPricePaths(DEMO_SEED, [symbol], endMs, DEMO_WORLD.days).get(symbol);
    if (!path) return null;
    // The simulator's funding is an hourly cumulative rate; sampled at the hours it is exact. The
    // live market accrues the symbol's mean rate on clock time: the index goes on at that rate
    // over the days the live minutes are kept.
    const seededHours = Math.ceil((path.endMs - path.startMs) / HOUR_MS) + 1;
    const hours = seededHours + DEMO_WORLD.days * 24;
    const funding = new Float64Array(hours);
    for (let h = 0; h < seededHours; h += 1) funding[h] = path.fundingAt(path.startMs + h * HOUR_MS);
    const perHour = dynamicsOf(symbol).fundingPerHour;
    for (let h = seededHours; h < hours; h += 1) funding[h] = funding[h - 1]! + perHour;
    return new DemoMarkHistory(
      symbol,
      path.values,
      path.startMs,
      { index: funding, startMs: path.startMs, stepMs: HOUR_MS },
      this.live,
    );
  }
}

/**
 * One symbol's demo marks: the seeded minute path (this series) and, after its end, the live
 * market's stored minutes, read when a window reaches past the seeded end.
 */
export class DemoMarkHistory extends PriceSeries {
  /** The live minutes read so far (the last one may still grow), in time order. */
  private minutes: LiveMinute[] = [];

  constructor(
    readonly symbol: string,
    values: Float64Array,
    startMs: number,
    private readonly fundingIndex: { index: Float64Array; startMs: number; stepMs: number },
    private readonly live: LiveMarksReader,
  ) {
    super(values, null, startMs, STEP_MS, fundingIndex);
  }

  /** The live market's minutes after the seeded path, up to `toMs` (newly stored ones are read). */
  liveMinutes(toMs: number): LiveMinute[] {
    const seededEnd = this.endMs;
    const last = this.minutes.at(-1);
    // The last minute read is read again: the market may have written more of it since.
    const fromMinute = last ? last.minuteMs : seededEnd - STEP_MS;
    if (last) this.minutes.pop();
    // A minute that began before the seeded end is not after it (statistics recomputed later).
    for (const m of this.live.minutes(this.symbol, fromMinute, Infinity))
      if (m.firstMs > seededEnd) this.minutes.push(m);
    const end = upperBound(this.minutes, toMs);
    return end === this.minutes.length ? this.minutes : this.minutes.slice(0, end);
  }

  /**
   * The path a backtest of [fromTime, toTime] walks on trader's token k. Within the seeded
   * history it is this series. Past it, each stored minute goes open → the extreme nearer the
   * open → the other → close, from its first tick to its last, with the trader's own fills at
   * their instants (the live market fills at the tick's mark); null when an open, increase or
   * decrease of the window after the seeded end is not inside a stored minute's low and high.
   */
  pathFor(trader: TraderOrders, k: number, fromTime: number, toTime: number): PriceSeries | null {
    const seededEnd = this.endMs;
    if (toTime <= seededEnd) return this;
    const minutes = this.liveMinutes(toTime + 1);
    if (!liveOrdersInside(trader, k, minutes, seededEnd, fromTime, toTime)) return null;
    // The seeded points from the last one in force at fromTime (nothing earlier is walked), four
    // per live minute, and the fills after the seeded end: written into arrays of that size.
    const s = Math.max(0, this.indexAt(fromTime));
    const firstFill = trader.firstAtOrAfter(seededEnd + 1);
    const size = this.length - s + 4 * minutes.length + (trader.n - firstFill);
    const times = new Float64Array(size);
    const values = new Float64Array(size);
    values.set(this.values.subarray(s));
    let n = 0;
    for (let i = s; i < this.length; i += 1) times[n++] = this.time(i);
    const push = (t: number, price: number) => {
      times[n] = t;
      values[n] = price;
      n += 1;
    };
    let o = firstFill;
    const fillsBefore = (t: number) => {
      for (; o < trader.n && trader.time[o]! < t; o += 1)
        if (trader.token[o] === k && isMarkFill(trader, o)) push(trader.time[o]!, trader.price[o]!);
    };
    for (const m of minutes) {
      const [first, second] = m.close >= m.open ? [m.low, m.high] : [m.high, m.low];
      const third = (m.lastMs - m.firstMs) / 3;
      // A fill at a point's instant comes after it: the price then is the fill's own.
      fillsBefore(m.firstMs);
      push(m.firstMs, m.open);
      fillsBefore(Math.floor(m.firstMs + third));
      push(Math.floor(m.firstMs + third), first);
      fillsBefore(Math.floor(m.firstMs + 2 * third));
      push(Math.floor(m.firstMs + 2 * third), second);
      fillsBefore(m.lastMs);
      push(m.lastMs, m.close);
    }
    fillsBefore(Infinity);
    // Exact lengths: the arrays may be handed to a sweep's worker thread.
    const exact = (a: Float64Array) => (n === size ? a : a.slice(0, n));
    return new PriceSeries(exact(values), exact(times), 0, 1, this.fundingIndex);
  }
}

/** Whether order `o` filled at the live mark: not a liquidation (its own price), not a transfer. */
function isMarkFill(trader: TraderOrders, o: number): boolean {
  const type = trader.type[o];
  return type !== ORDER_CODE.MARGIN_TRANSFERRED && !(type === ORDER_CODE.CLOSE && trader.isLiquidate[o]);
}

/**
 * Whether every open, increase and decrease on token k in [fromTime, toTime] after the seeded end
 * lies in the stored minute it fell in: between its first and last tick, within its low and high.
 */
function liveOrdersInside(
  trader: TraderOrders,
  k: number,
  minutes: readonly LiveMinute[],
  seededEnd: number,
  fromTime: number,
  toTime: number,
): boolean {
  const byMinute = new Map<number, LiveMinute>();
  for (const m of minutes) byMinute.set(m.minuteMs, m);
  for (let i = trader.firstAtOrAfter(Math.max(fromTime, seededEnd + 1)); i < trader.n; i += 1) {
    const t = trader.time[i]!;
    if (t > toTime) break;
    if (trader.token[i] !== k) continue;
    const type = trader.type[i];
    if (type === ORDER_CODE.CLOSE || type === ORDER_CODE.MARGIN_TRANSFERRED) continue;
    const m = byMinute.get(Math.floor(t / STEP_MS) * STEP_MS);
    const price = trader.price[i]!;
    if (!m || t < m.firstMs || t > m.lastMs) return false;
    if (price < m.low * (1 - IN_MINUTE) || price > m.high * (1 + IN_MINUTE)) return false;
  }
  return true;
}

/** The number of minutes opening before `toMs`. */
function upperBound(minutes: readonly LiveMinute[], toMs: number): number {
  let lo = 0;
  let hi = minutes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (minutes[mid]!.minuteMs < toMs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
