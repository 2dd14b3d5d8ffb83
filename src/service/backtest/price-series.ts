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
const BLOCK = 16;

/**
 * Prices at points in time: either explicit times (the stored mark ticks, or a trader's own
 * fills) or a regular step from `startMs` (the demo market's minute path). Optionally the
 * cumulative funding rate, for funding.
 */
export class PriceSeries {
  /** Leaves: the blocks' min and max; node k's children are 2k and 2k + 1; the root is 1. */
  private readonly treeMin: Float64Array;
  private readonly treeMax: Float64Array;
  private readonly leaves: number;

  constructor(
    readonly values: Float64Array,
    /** Time of each point, ascending; null: point i is at startMs + i × stepMs. */
    private readonly times: Float64Array | null,
    private readonly startMs = 0,
    private readonly stepMs = 1,
    /** Cumulative funding rate at `fundingStartMs + h × fundingStepMs`; null: no funding known. */
    private readonly funding: { index: Float64Array; startMs: number; stepMs: number } | null = null,
  ) {
    const blocks = Math.max(1, Math.ceil(values.length / BLOCK));
    let leaves = 1;
    while (leaves < blocks) leaves *= 2;
    this.leaves = leaves;
    this.treeMin = new Float64Array(2 * leaves).fill(Infinity);
    this.treeMax = new Float64Array(2 * leaves).fill(-Infinity);
    for (let i = 0; i < values.length; i += 1) {
      const leaf = leaves + ((i / BLOCK) | 0);
      const v = values[i]!;
      if (v < this.treeMin[leaf]!) this.treeMin[leaf] = v;
      if (v > this.treeMax[leaf]!) this.treeMax[leaf] = v;
    }
    for (let k = leaves - 1; k >= 1; k -= 1) {
      this.treeMin[k] = Math.min(this.treeMin[2 * k]!, this.treeMin[2 * k + 1]!);
      this.treeMax[k] = Math.max(this.treeMax[2 * k]!, this.treeMax[2 * k + 1]!);
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

  /**
   * The first point at or after index `from` whose price is ≤ low or ≥ high, or −1: the rest of
   * `from`'s block point by point, then the first later block whose min or max crosses, found by
   * descending the block tree, then that block point by point. O(log n + BLOCK).
   */
  firstCross(from: number, low: number, high: number): number {
    const values = this.values;
    const n = values.length;
    let i = Math.max(0, from);
    if (i >= n) return -1;
    const first = (i / BLOCK) | 0;
    const blockEnd = Math.min(n, (first + 1) * BLOCK);
    // The rest of `from`'s block is scanned only if the block as a whole crosses.
    const leaf = this.leaves + first;
    if (this.treeMin[leaf]! <= low || this.treeMax[leaf]! >= high)
      for (; i < blockEnd; i += 1) {
        const v = values[i]!;
        if (v <= low || v >= high) return i;
      }
    i = blockEnd;
    if (i >= n) return -1;
    const block = this.nextBlock((i / BLOCK) | 0, low, high);
    if (block < 0) return -1;
    const end = Math.min(n, (block + 1) * BLOCK);
    for (let j = block * BLOCK; j < end; j += 1) {
      const v = values[j]!;
      if (v <= low || v >= high) return j;
    }
    return -1;
  }

  /** The first block at or after `block` whose min ≤ low or max ≥ high, or −1. */
  private nextBlock(block: number, low: number, high: number): number {
    // The test is written out (no closure): this runs at every fill of a backtest.
    const { treeMin, treeMax, leaves } = this;
    let k = leaves + block;
    if (!(treeMin[k]! <= low || treeMax[k]! >= high)) {
      // Up while a right child; then over to the right sibling, until a subtree crosses.
      for (;;) {
        while (k & 1) k >>= 1;
        if (k === 0) return -1;
        k += 1;
        if (treeMin[k]! <= low || treeMax[k]! >= high) break;
      }
    }
    while (k < leaves) {
      const left = 2 * k;
      k = treeMin[left]! <= low || treeMax[left]! >= high ? left : left + 1;
    }
    return k - leaves;
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
