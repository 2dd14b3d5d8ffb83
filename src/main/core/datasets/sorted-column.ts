import { sortedIndexes } from './radix';

/** Cumulative bitmaps per column: the finer, the fewer single bits a range sets by hand. */
const STEPS = 64;

/** A set of record indexes, one bit each. */
export type Bits = Uint32Array;

/** An empty set for `size` records. */
export const emptyBits = (size: number): Bits => new Uint32Array((size + 31) >>> 5);

/** The number of records in a set. */
export function countBits(bits: Bits): number {
  let total = 0;
  for (let w = 0; w < bits.length; w += 1) {
    let v = bits[w] as number;
    v -= (v >>> 1) & 0x55555555;
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    total += (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  }
  return total;
}

/** `into` ∩= `other`. */
export function intersect(into: Bits, other: Bits): void {
  for (let w = 0; w < into.length; w += 1) into[w] = (into[w] as number) & (other[w] as number);
}

/** True when record `i` is in the set. */
export const hasBit = (bits: Bits, i: number): boolean => ((bits[i >>> 5] as number) & (1 << (i & 31))) !== 0;

const setBit = (bits: Bits, i: number): void => {
  bits[i >>> 5] = (bits[i >>> 5] as number) | (1 << (i & 31));
};
const clearBit = (bits: Bits, i: number): void => {
  bits[i >>> 5] = (bits[i >>> 5] as number) & ~(1 << (i & 31));
};

/**
 * One numeric column sorted (a bitmap index): the records in ascending order of the value (NaN,
 * the nulls, first; ties by index), and the sets "records at sorted place ≥ k·step" kept for
 * every step. A bound (`v >= b`, `v < b`, …) is a binary search for its place p, a copy of the
 * nearest kept set, and at most one step of single bits: a few thousand word operations for
 * 200,000 records, where a scan would compare every value.
 */
export class SortedColumn {
  /** Record indexes in ascending order of value, nulls first, ties by index. */
  readonly order: Uint32Array;
  private readonly nulls: number;
  private readonly step: number;
  private readonly suffixes: Bits[];
  private readonly notNull: Bits;

  constructor(private readonly values: Float64Array) {
    const n = values.length;
    this.order = sortedIndexes(values);
    let nulls = 0;
    while (nulls < n && Number.isNaN(values[this.order[nulls] as number] as number)) nulls += 1;
    this.nulls = nulls;
    this.step = Math.max(1, Math.ceil(n / STEPS));
    // suffixes[q] = records at sorted places [q·step, n).
    const count = Math.ceil(n / this.step) + 1;
    this.suffixes = new Array<Bits>(count);
    const running = emptyBits(n);
    this.suffixes[count - 1] = running.slice();
    for (let q = count - 2; q >= 0; q -= 1) {
      const from = q * this.step;
      const to = Math.min(n, from + this.step);
      for (let p = from; p < to; p += 1) setBit(running, this.order[p] as number);
      this.suffixes[q] = running.slice();
    }
    this.notNull = (this.suffixes[0] as Bits).slice();
    for (let p = 0; p < nulls; p += 1) clearBit(this.notNull, this.order[p] as number);
  }

  /** Records with a value ≥ `bound` (`strict`: > `bound`). */
  atLeast(bound: number, strict: boolean): Bits {
    return this.fromPlace(this.placeOf(bound, strict));
  }

  /** Records with a value ≤ `bound` (`strict`: < `bound`). */
  atMost(bound: number, strict: boolean): Bits {
    const bits = this.fromPlace(this.placeOf(bound, !strict));
    // The complement, less the nulls (which fail every bound) and the bits past the end.
    for (let w = 0; w < bits.length; w += 1) bits[w] = ~(bits[w] as number) & (this.notNull[w] as number);
    return bits;
  }

  /**
   * `into` ∩= atLeast(bound, strict), without a new set: a filter of several bounds allocates
   * only its result, which keeps the worker's garbage (and its full collections, the tail of a
   * page) down. The few records of the partial step that `into` holds are set back after the AND.
   */
  andAtLeast(into: Bits, bound: number, strict: boolean): void {
    const p = this.placeOf(bound, strict);
    const { suffix, to } = this.nearest(p);
    const kept: number[] = [];
    for (let place = p; place < to; place += 1) {
      const i = this.order[place] as number;
      if (hasBit(into, i)) kept.push(i);
    }
    intersect(into, suffix);
    for (const i of kept) setBit(into, i);
  }

  /** `into` ∩= atMost(bound, strict), without a new set (see andAtLeast). */
  andAtMost(into: Bits, bound: number, strict: boolean): void {
    const p = this.placeOf(bound, !strict);
    const { suffix, to } = this.nearest(p);
    for (let w = 0; w < into.length; w += 1)
      into[w] = (into[w] as number) & ~(suffix[w] as number) & (this.notNull[w] as number);
    for (let place = p; place < to; place += 1) clearBit(into, this.order[place] as number);
  }

  /** Bytes held. */
  bytes(): number {
    return this.order.byteLength + this.notNull.byteLength * (this.suffixes.length + 1);
  }

  /** The first sorted place (past the nulls) whose value is ≥ `bound`, or > it when `strict`. */
  private placeOf(bound: number, strict: boolean): number {
    let lo = this.nulls;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.values[this.order[mid] as number] as number;
      if (strict ? v <= bound : v < bound) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Records at sorted places [p, n). */
  private fromPlace(p: number): Bits {
    const { suffix, to } = this.nearest(p);
    const bits = suffix.slice();
    for (let place = p; place < to; place += 1) setBit(bits, this.order[place] as number);
    return bits;
  }

  /** The kept set nearest above place p (places [to, n)); places [p, to) are the partial step. */
  private nearest(p: number): { suffix: Bits; to: number } {
    const q = Math.ceil(p / this.step);
    return {
      suffix: this.suffixes[Math.min(q, this.suffixes.length - 1)] as Bits,
      to: Math.min(q * this.step, this.order.length),
    };
  }
}
