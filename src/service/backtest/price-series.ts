// A token's price path as the backtest walks it: points in time order, the price in force at any
// time, and the first point that crosses an exit level (docs/backtest.md, Price path).

/** A series as plain data, to hand to a worker thread (structured clone). */
export interface PriceSeriesData {
  values: Float64Array;
  times: Float64Array | null;
  startMs: number;
  stepMs: number;
  funding: { index: Float64Array; startMs: number; stepMs: number } | null;
}

/** Points per summary block: a block whose min and max cannot cross a level is skipped whole. */
const BLOCK = 64;

/**
 * Prices at points in time: either explicit times (the stored mark ticks, or a trader's own
 * fills) or a regular step from `startMs` (the demo market's minute path). Optionally the
 * cumulative funding rate, for funding.
 */
export class PriceSeries {
  private readonly blockMin: Float64Array;
  private readonly blockMax: Float64Array;

  constructor(
    readonly values: Float64Array,
    /** Time of each point, ascending; null: point i is at startMs + i × stepMs. */
    private readonly times: Float64Array | null,
    private readonly startMs = 0,
    private readonly stepMs = 1,
    /** Cumulative funding rate at `fundingStartMs + h × fundingStepMs`; null: no funding known. */
    private readonly funding: { index: Float64Array; startMs: number; stepMs: number } | null = null,
  ) {
    const blocks = Math.ceil(values.length / BLOCK);
    this.blockMin = new Float64Array(blocks).fill(Infinity);
    this.blockMax = new Float64Array(blocks).fill(-Infinity);
    for (let i = 0; i < values.length; i += 1) {
      const b = (i / BLOCK) | 0;
      const v = values[i]!;
      if (v < this.blockMin[b]!) this.blockMin[b] = v;
      if (v > this.blockMax[b]!) this.blockMax[b] = v;
    }
  }

  /** The series as plain data; `PriceSeries.of` rebuilds it. */
  data(): PriceSeriesData {
    const { values, times, startMs, stepMs, funding } = this;
    return { values, times, startMs, stepMs, funding };
  }

  static of(d: PriceSeriesData): PriceSeries {
    return new PriceSeries(d.values, d.times, d.startMs, d.stepMs, d.funding);
  }

  get length(): number {
    return this.values.length;
  }

  /** Time of point `i`. */
  time(i: number): number {
    return this.times === null ? this.startMs + i * this.stepMs : this.times[i]!;
  }

  /** Time of the last point (−Infinity when empty). */
  get endMs(): number {
    return this.values.length === 0 ? -Infinity : this.time(this.values.length - 1);
  }

  /** Time of the first point (Infinity when empty). */
  get startTimeMs(): number {
    return this.values.length === 0 ? Infinity : this.time(0);
  }

  /** The last point at or before `t`, or −1. */
  indexAt(t: number): number {
    const n = this.values.length;
    if (n === 0 || t < this.time(0)) return -1;
    if (this.times === null) return Math.min(n - 1, Math.floor((t - this.startMs) / this.stepMs));
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.times[mid]! <= t) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The price in force at `t` (the last point at or before it), or NaN before the first point. */
  priceAt(t: number): number {
    const i = this.indexAt(t);
    return i < 0 ? NaN : this.values[i]!;
  }

  /** The first point in [from, to] (indexes) whose price is ≤ low or ≥ high, or −1. */
  firstCross(from: number, to: number, low: number, high: number): number {
    const values = this.values;
    let i = Math.max(0, from);
    const last = Math.min(to, values.length - 1);
    while (i <= last) {
      const b = (i / BLOCK) | 0;
      if (i % BLOCK === 0 && this.blockMin[b]! > low && this.blockMax[b]! < high) {
        i += BLOCK;
        continue;
      }
      const v = values[i]!;
      if (v <= low || v >= high) return i;
      i += 1;
    }
    return -1;
  }

  /** Whether funding rates are known for this path. */
  get hasFunding(): boolean {
    return this.funding !== null;
  }

  /** Cumulative funding rate at `t`, interpolated within a funding step; 0 without funding. */
  fundingAt(t: number): number {
    const f = this.funding;
    if (f === null) return 0;
    const last = f.index.length - 1;
    const x = Math.min(Math.max((t - f.startMs) / f.stepMs, 0), last);
    const h = Math.min(Math.floor(x), last - 1);
    if (h < 0) return f.index[0] ?? 0;
    const lo = f.index[h]!;
    return lo + (f.index[h + 1]! - lo) * (x - h);
  }
}
