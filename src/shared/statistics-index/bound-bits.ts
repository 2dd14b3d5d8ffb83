import {
  mayOrder,
  narrowestRange,
  plainBoundCheck,
  ruledOut,
  type BoundCheck,
  type FreshOrders,
  type IndexCondition,
  type OrderRange,
} from './conditions';
import { pageOfMatches, walkOrder, type SortTerm } from './page';
import type { Permutation, Population } from './population';

/**
 * Below this share of a population (1/16), the narrowest stretch is read record by record
 * (`matchingRecords`) rather than as bitmaps: its few records cost less than setting the wider
 * bounds' bits.
 */
const NARROW_SHARE = 16;

let other = new Int32Array(0);

/** Cumulative bitmaps kept per permutation: the finer, the fewer bits a bound sets by hand. */
const STEPS = 64;

/**
 * Cumulative bitmaps of sorted permutations, kept by a caller for its populations: for each
 * permutation, the records at places [q·step, n) for 65 steps q, so that a stretch is two copies
 * and at most two steps of single bits rather than up to half the population's bits (the
 * terminal's datasets keep one per dataset and count its bytes; 65 bitmaps a column, 1.6 MB at
 * 200,000 records). Keyed by the permutation itself: one made again is a new key, and the old
 * one's bitmaps go with it.
 */
export class StretchBitmaps {
  private readonly kept = new WeakMap<Permutation, { step: number; sets: Int32Array[] }>();
  /** Bytes of the bitmaps made (they stay while their permutation does). */
  bytes = 0;

  /** The records at places [from, to) of `order` into `bits[0..words)`. */
  stretch(order: Permutation, from: number, to: number, bits: Int32Array, words: number): void {
    const { step, sets } = this.of(order, words);
    const n = order.length;
    const qa = Math.ceil(from / step);
    const qb = Math.ceil(to / step);
    const a = sets[qa] as Int32Array;
    const b = sets[qb] as Int32Array;
    for (let w = 0; w < words; w += 1) bits[w] = (a[w] as number) & ~(b[w] as number);
    setPlaces(bits, order, from, Math.min(qa * step, to));
    const end = Math.min(qb * step, n);
    for (let p = Math.max(to, qa * step); p < end; p += 1) {
      const row = order[p] as number;
      bits[row >>> 5] = (bits[row >>> 5] as number) & ~(1 << (row & 31));
    }
  }

  private of(order: Permutation, words: number): { step: number; sets: Int32Array[] } {
    let made = this.kept.get(order);
    if (made) return made;
    const n = order.length;
    const step = Math.max(1, Math.ceil(n / STEPS));
    const count = Math.ceil(n / step) + 1;
    const sets = new Array<Int32Array>(count);
    const running = new Int32Array(words);
    sets[count - 1] = running.slice();
    for (let q = count - 2; q >= 0; q -= 1) {
      setPlaces(running, order, q * step, Math.min(n, (q + 1) * step));
      sets[q] = running.slice();
    }
    made = { step, sets };
    this.kept.set(order, made);
    this.bytes += count * words * 4;
    return made;
  }
}

/**
 * The records meeting `conditions` when every one is a plain numeric bound (`gte`, `gt`, `lte`,
 * `lt`, a numeric `match`), by intersecting bitmaps (docs/statistics.md, "The terminal's
 * datasets"). Each bound is two binary searches in its column's ascending permutation (the
 * stretch `narrowestRange` gives holds exactly its records); the stretch is set as bits, one a
 * record, or, when it is wider than half the population, the places outside it are set and the
 * bits inverted; the bitmaps are ANDed 32 records a word. Reading the
 * narrowest stretch and checking each record against the other bounds (`matchingRecords`) reads
 * the other columns at random places, which costs far more when every stretch is wide (two or
 * three bounds that each keep half the records or more, as a leaderboard's ranges do). Null when
 * some condition is anything else, or when the narrowest stretch is narrow (under 1/16 of the
 * population): then `matchingRecords` is the faster way. The caller prepares the fields first.
 */
export function boundMatches(
  population: Population,
  conditions: readonly IndexCondition[],
  /** Cumulative bitmaps kept by the caller (faster, at 1.6 MB a column at 200,000 records). */
  kept: StretchBitmaps | null = null,
): BoundMatches | null {
  const n = population.size;
  if (conditions.length === 0) return null;
  const stretches: OrderRange[] = [];
  for (const c of conditions) {
    if (!isPlainBound(population, c)) return null;
    const stretch = narrowestRange(population, [c]);
    if (!stretch) return null;
    stretches.push(stretch);
  }
  stretches.sort((a, b) => a.to - a.from - (b.to - b.from));
  const narrowest = stretches[0] as OrderRange;
  if ((narrowest.to - narrowest.from) * NARROW_SHARE < n) return null;
  const words = (n + 31) >>> 5;
  if (other.length < words) other = new Int32Array(words);
  const bits = new Int32Array(words);
  stretchBits(population, narrowest, bits, words, kept);
  for (let s = 1; s < stretches.length; s += 1) {
    stretchBits(population, stretches[s] as OrderRange, other, words, kept);
    for (let w = 0; w < words; w += 1) bits[w] = (bits[w] as number) & (other[w] as number);
  }
  return new BoundMatches(bits);
}

/**
 * The records a filter of bounds matched, one bit a record (a 32nd of a list of records): its
 * count, its records in record order, and a page of them in a sort's order.
 */
export class BoundMatches {
  readonly count: number;
  private rows: Uint32Array | null = null;

  constructor(readonly bits: Int32Array) {
    this.count = countBits(bits);
  }

  /** The records, ascending (made once, when first asked). */
  records(): Uint32Array {
    this.rows ??= recordsOf(this.bits, this.count);
    return this.rows;
  }

  /** Bytes held. */
  get byteLength(): number {
    return this.bits.byteLength + (this.rows?.byteLength ?? 0);
  }

  /**
   * Records `offset` to `offset + limit` in the order of `sort`, of `population` (the one matched,
   * or one with the same records). A sort by a number column then
   * the id ascending, over matches dense enough to be met soon (more than an eighth, as
   * `pageOfMatches` walks), walks the column's order testing bits (`walkOrder`, page.ts). Any
   * other page is `pageOfMatches` over the records.
   */
  page(population: Population, sort: readonly SortTerm[], offset: number, limit: number): readonly number[] {
    const terms = sort.filter((t) => population.kindOf(t.field) !== 'constant');
    const lead = terms[0];
    const walkable =
      lead !== undefined &&
      population.kindOf(lead.field) === 'number' &&
      terms.length === 2 &&
      terms[1]!.field === population.tieField &&
      !terms[1]!.desc;
    if (!walkable || this.count * 8 <= population.size)
      return pageOfMatches(population, this.records(), sort, offset, limit);
    const bits = this.bits;
    return walkOrder(
      population,
      lead,
      Math.min(offset + limit, this.count),
      (row) => ((bits[row >>> 5] as number) & (1 << (row & 31))) !== 0,
    ).slice(offset);
  }
}

/** Whether `c` is a bound on a number column and nothing else (its stretch is its records). */
function isPlainBound(population: Population, c: IndexCondition): boolean {
  if ('or' in c || population.kindOf(c.field) !== 'number') return false;
  if (c.in !== undefined || c.nin !== undefined || c.exists !== undefined) return false;
  if (c.match !== undefined && typeof c.match !== 'number') return false;
  return [c.gte, c.gt, c.lte, c.lt].every((b) => b === undefined || typeof b === 'number');
}

/** The records at places [from, to) of the stretch's order, as bits into `bits[0..words)`. */
function stretchBits(
  population: Population,
  stretch: OrderRange,
  bits: Int32Array,
  words: number,
  kept: StretchBitmaps | null,
): void {
  const order = population.ascending(stretch.field);
  if (kept) {
    kept.stretch(order, stretch.from, stretch.to, bits, words);
    return;
  }
  const n = order.length;
  bits.fill(0, 0, words);
  if ((stretch.to - stretch.from) * 2 <= n) {
    setPlaces(bits, order, stretch.from, stretch.to);
    return;
  }
  // Wide: the places outside it are fewer; the complement of theirs is the stretch's.
  setPlaces(bits, order, 0, stretch.from);
  setPlaces(bits, order, stretch.to, n);
  for (let w = 0; w < words; w += 1) bits[w] = ~(bits[w] as number);
  if (n % 32 !== 0) bits[words - 1] = (bits[words - 1] as number) & ((1 << (n % 32)) - 1);
}

function setPlaces(bits: Int32Array, order: ArrayLike<number>, from: number, to: number): void {
  for (let p = from; p < to; p += 1) {
    const row = order[p] as number;
    bits[row >>> 5] = (bits[row >>> 5] as number) | (1 << (row & 31));
  }
}

function countBits(bits: Int32Array): number {
  let count = 0;
  for (let w = 0; w < bits.length; w += 1) {
    let v = bits[w] as number;
    v -= (v >>> 1) & 0x55555555;
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    count += (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  }
  return count;
}

/** The `count` rows whose bits are set, ascending. */
function recordsOf(bits: Int32Array, count: number): Uint32Array {
  return fillRows(bits, new Uint32Array(count));
}

/** The rows whose bits are set, ascending, into `out` (as long as their count). */
function fillRows(bits: Int32Array, out: Uint32Array): Uint32Array {
  let k = 0;
  for (let w = 0; w < bits.length; w += 1) {
    let v = bits[w] as number;
    while (v !== 0) {
      const low = v & -v;
      out[k++] = (w << 5) + 31 - Math.clz32(low);
      v ^= low;
    }
  }
  return out;
}

/** The search's bitmaps (scratch the next population overwrites): its matches, a bound, an `or`. */
let found = new Int32Array(0);
let either = new Int32Array(0);

/**
 * The records of one population meeting `conditions`, as bits into a scratch bitmap the next
 * call overwrites (a search reads it at once), when every condition is a plain numeric bound,
 * an `or` of them, or a condition on the population's shared texts (settled by `ruledOut` and
 * checked again here); null otherwise, or when the narrowest bound keeps under 1/16 of the
 * population (then reading its stretch record by record is cheaper). Each bound is its stretch
 * of its column's ascending order set as bits (its complement when wider than half): no branch
 * on a record's value, where checking records one by one mispredicted about half of them
 * (docs/statistics.md, "Index search by bitmaps").
 */
export function searchBits(
  population: Population,
  conditions: readonly IndexCondition[],
): { bits: Int32Array; count: number } | null {
  const n = population.size;
  let narrowest = n;
  const stretches: OrderRange[] = [];
  const ors: OrderRange[][] = [];
  // Bounds on columns this search may not sort now (conditions.ts, FRESH_ORDERS): checked by
  // reading their codes, after the stretches.
  const unsorted: { bound: BoundCheck; count: number }[] = [];
  const fresh: FreshOrders = { made: 0 };
  for (const c of conditions) {
    if ('or' in c) {
      const members: OrderRange[] = [];
      for (const m of c.or) {
        const ordered =
          isPlainBound(population, m) && mayOrder(population, (m as { field: string }).field, fresh);
        const stretch = ordered ? narrowestRange(population, [m]) : null;
        if (!stretch) return null;
        members.push(stretch);
      }
      ors.push(members);
      continue;
    }
    const kind = population.kindOf(c.field);
    if (kind === 'constant') {
      if (ruledOut(population, [c])) return { bits: found.subarray(0, 0), count: 0 };
      continue;
    }
    if (!isPlainBound(population, c)) return null;
    if (!mayOrder(population, c.field, fresh)) {
      const bound = plainBoundCheck(population, c);
      if (!bound) return null;
      const count = boundCount(bound);
      narrowest = Math.min(narrowest, count);
      // A bound every record meets (`gte: 0` on a field never negative) has nothing to clear.
      if (count < n) unsorted.push({ bound, count });
      continue;
    }
    const stretch = narrowestRange(population, [c]);
    if (!stretch) return null;
    narrowest = Math.min(narrowest, stretch.to - stretch.from);
    stretches.push(stretch);
  }
  if (stretches.length === 0 || narrowest * NARROW_SHARE < n) return null;
  const words = (n + 31) >>> 5;
  if (found.length < words) {
    found = new Int32Array(words);
    either = new Int32Array(words);
  }
  if (other.length < words) other = new Int32Array(words);
  const bits = found.subarray(0, words);
  stretches.sort((a, b) => a.to - a.from - (b.to - b.from));
  stretchBits(population, stretches[0] as OrderRange, bits, words, null);
  for (let s = 1; s < stretches.length; s += 1) {
    const stretch = stretches[s] as OrderRange;
    if ((stretch.to - stretch.from) * 2 > n) {
      // Wide: the places outside it are fewer, and each clears its record's bit.
      clearOutside(bits, population.ascending(stretch.field), stretch.from, stretch.to);
      continue;
    }
    stretchBits(population, stretch, other, words, null);
    for (let w = 0; w < words; w += 1) bits[w] = (bits[w] as number) & (other[w] as number);
  }
  for (const members of ors) {
    either.fill(0, 0, words);
    for (const m of members) {
      stretchBits(population, m, other, words, null);
      for (let w = 0; w < words; w += 1) either[w] = (either[w] as number) | (other[w] as number);
    }
    for (let w = 0; w < words; w += 1) bits[w] = (bits[w] as number) & (either[w] as number);
  }
  // The narrowest first: each clears bits, and what follows reads fewer records or stops.
  unsorted.sort((a, b) => a.count - b.count);
  for (const { bound, count } of unsorted) {
    const left = count * 2 < n ? keepBitsWithin(bits, words, bound) : clearBitsOutside(bits, bound);
    if (!left) break;
  }
  return { bits, count: countBits(bits) };
}

/** How many records a bound keeps, by reading every code (a column not sorted yet). */
function boundCount({ codes, lo, hi }: BoundCheck): number {
  let count = 0;
  for (let row = 0; row < codes.length; row += 1) {
    const v = codes[row] as number;
    if (v >= lo && v <= hi) count += 1;
  }
  return count;
}

/**
 * Clears the bit of every record whose code is outside `bound`, reading the codes of the records
 * still set only (for a bound that keeps few: most of theirs are cleared); answers whether any
 * bit is left.
 */
function keepBitsWithin(bits: Int32Array, words: number, { codes, lo, hi }: BoundCheck): boolean {
  let left = 0;
  for (let w = 0; w < words; w += 1) {
    let word = bits[w] as number;
    for (let rest = word; rest !== 0; rest &= rest - 1) {
      const bit = 31 - Math.clz32(rest & -rest);
      const v = codes[w * 32 + bit] as number;
      if (!(v >= lo && v <= hi)) word &= ~(1 << bit);
    }
    bits[w] = word;
    left |= word;
  }
  return left !== 0;
}

/**
 * The same for a bound that keeps most records: one pass over its codes, in order, clearing the
 * few records outside it, where reading the set bits one by one cost several times as much a
 * record (docs/statistics.md, "Fields named cold"). Answers whether any bit is left.
 */
function clearBitsOutside(bits: Int32Array, { codes, lo, hi }: BoundCheck): boolean {
  for (let row = 0; row < codes.length; row += 1) {
    const v = codes[row] as number;
    if (!(v >= lo && v <= hi)) bits[row >>> 5] = (bits[row >>> 5] as number) & ~(1 << (row & 31));
  }
  let left = 0;
  for (let w = 0; w < bits.length; w += 1) left |= bits[w] as number;
  return left !== 0;
}

/** Clears the bits of the records at the places of `order` outside [from, to). */
function clearOutside(bits: Int32Array, order: ArrayLike<number>, from: number, to: number): void {
  for (let p = 0; p < from; p += 1) {
    const row = order[p] as number;
    bits[row >>> 5] = (bits[row >>> 5] as number) & ~(1 << (row & 31));
  }
  for (let p = to; p < order.length; p += 1) {
    const row = order[p] as number;
    bits[row >>> 5] = (bits[row >>> 5] as number) & ~(1 << (row & 31));
  }
}

/** The `count` rows whose bits are set, ascending, into a scratch array the next call overwrites. */
export function rowsOfBits(bits: Int32Array, count: number): Uint32Array {
  if (rowScratch.length < count) rowScratch = new Uint32Array(Math.max(count, rowScratch.length * 2));
  return fillRows(bits, rowScratch.subarray(0, count));
}

let rowScratch = new Uint32Array(1024);
