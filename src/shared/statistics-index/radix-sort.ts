/**
 * Sorting record indexes by a numeric column in linear time: an LSD radix sort over the 64 bits
 * of each value, 16 bits a pass. It is stable, so equal values keep index order (records are in
 * id order: the service's tie-breaker). Comparison sorts of 200,000 indexes cost tens of
 * milliseconds per column on the machines this runs on; this costs a few.
 *
 * The one NaN rule, for the terminal's datasets and the service's statistics index alike: NaN
 * stands for a missing value (SQL NULL) and sorts as SQLite sorts NULL, before every number
 * ascending and after every number descending (docs/statistics.md, "The columnar index").
 * Plain TypeScript over typed arrays: no Node, Electron or DOM API, so both sides import it.
 */

const DIGITS = 1 << 16;

/**
 * The arrays a sort of n values works in. A download's completion ranks 13 columns of one
 * population one after the other: in one set of arrays rather than ~9 MB of new ones a column.
 */
export class RadixScratch {
  readonly hi: Uint32Array;
  readonly lo: Uint32Array;
  readonly hi2: Uint32Array;
  readonly lo2: Uint32Array;
  readonly order: Uint32Array;
  readonly order2: Uint32Array;
  readonly counts = new Uint32Array(DIGITS);
  readonly below: Uint32Array;

  constructor(readonly n: number) {
    this.hi = new Uint32Array(n);
    this.lo = new Uint32Array(n);
    this.hi2 = new Uint32Array(n);
    this.lo2 = new Uint32Array(n);
    this.order = new Uint32Array(n);
    this.order2 = new Uint32Array(n);
    this.below = new Uint32Array(n);
  }
}

/**
 * Turns a pass's digit counts into where each digit's first index goes (an exclusive prefix sum,
 * in place): the one step both the codes' sort and the doubles' sort share between counting and
 * placing.
 */
function toOffsets(counts: Uint32Array): void {
  let sum = 0;
  for (let d = 0; d < counts.length; d += 1) {
    const c = counts[d] as number;
    counts[d] = sum;
    sum += c;
  }
}

/**
 * The indexes of `values` in ascending order, NaN (null) first, ties by index; or, with `desc`,
 * in descending order, NaN last, ties still by index. -0 and 0 are equal (as `<` sees them).
 */
export function sortedIndexes(values: Float64Array, desc = false): Uint32Array {
  return radixSort(values, desc).order;
}

/**
 * The indexes of integer codes in ascending order, ties by index: one counting pass for 16-bit
 * codes, two of 16 bits for 32-bit ones (against four over a double's 64 bits). A narrow
 * column's codes sort as its values do, the missing value's code (the lowest) first, so this
 * is its ascending permutation (number-column.ts).
 */
export function sortedCodes(codes: Int16Array | Int32Array): Uint32Array {
  const n = codes.length;
  let order = new Uint32Array(n);
  for (let i = 0; i < n; i += 1) order[i] = i;
  const counts = new Uint32Array(DIGITS);
  // A digit of code k: its low or high 16 bits, the sign bit flipped so negatives come first.
  const passes: ((k: number) => number)[] =
    codes instanceof Int16Array
      ? [(k) => (k + 0x8000) & 0xffff]
      : [(k) => k & 0xffff, (k) => ((k >>> 16) ^ 0x8000) & 0xffff];
  let next = new Uint32Array(n);
  for (const digit of passes) {
    counts.fill(0);
    for (let k = 0; k < n; k += 1) counts[digit(codes[order[k] as number] as number)]! += 1;
    toOffsets(counts);
    for (let k = 0; k < n; k += 1) {
      const row = order[k] as number;
      const d = digit(codes[row] as number);
      next[counts[d]!++] = row;
    }
    [order, next] = [next, order];
  }
  return order;
}

/**
 * For each value, how many values are strictly below it (NaN counts as below every number and
 * equal to other NaNs): one radix sort, then one walk over runs of equal keys. With `scratch`,
 * the answer is its `below`, good until its next use.
 */
export function countStrictlyBelow(
  values: Float64Array,
  scratch: RadixScratch = new RadixScratch(values.length),
): Uint32Array {
  const { order, hi, lo } = radixSort(values, false, scratch);
  const below = scratch.below;
  let runStart = 0;
  for (let k = 0; k < order.length; k += 1) {
    if (k > 0 && (hi[k] !== hi[k - 1] || lo[k] !== lo[k - 1])) runStart = k;
    below[order[k] as number] = runStart;
  }
  return below;
}

/**
 * Sorts the indexes 16 bits a pass, lowest first, carrying each index's key halves along so that
 * every pass reads its input in sequence. Answers the order and the keys in that order.
 */
function radixSort(
  values: Float64Array,
  desc: boolean,
  scratch: RadixScratch = new RadixScratch(values.length),
): { order: Uint32Array; hi: Uint32Array; lo: Uint32Array } {
  const n = values.length;
  if (scratch.n !== n) throw new Error(`A radix scratch for ${scratch.n} values cannot sort ${n}.`);
  sortableKeys(values, desc, scratch.hi, scratch.lo);
  let { hi, lo, order, order2, hi2, lo2 } = scratch;
  for (let i = 0; i < n; i += 1) order[i] = i;
  const counts = scratch.counts;
  for (let pass = 0; pass < 4; pass += 1) {
    const digits = pass < 2 ? lo : hi;
    const shift = pass % 2 === 0 ? 0 : 16;
    counts.fill(0);
    for (let k = 0; k < n; k += 1) counts[((digits[k] as number) >>> shift) & 0xffff]! += 1;
    // Every key has the same digit: this pass would not move anything.
    if (n === 0 || counts[((digits[0] as number) >>> shift) & 0xffff] === n) continue;
    toOffsets(counts);
    for (let k = 0; k < n; k += 1) {
      const d = ((digits[k] as number) >>> shift) & 0xffff;
      const at = counts[d] as number;
      counts[d] = at + 1;
      order2[at] = order[k] as number;
      hi2[at] = hi[k] as number;
      lo2[at] = lo[k] as number;
    }
    [order, order2] = [order2, order];
    [hi, hi2] = [hi2, hi];
    [lo, lo2] = [lo2, lo];
  }
  return { order, hi, lo };
}

/**
 * The 64 bits of each value as two unsigned halves whose order is the values' order (IEEE 754
 * read through a little-endian view, as on every platform Copydesk runs on).
 */
function sortableKeys(values: Float64Array, desc: boolean, hi: Uint32Array, lo: Uint32Array): void {
  const n = values.length;
  const scratch = new Float64Array(1);
  const bits = new Uint32Array(scratch.buffer);
  for (let i = 0; i < n; i += 1) {
    const v = values[i] as number;
    // NaN (null) sorts first ascending, last descending: it is -Infinity here (JSON cannot carry
    // infinities, so no real value is confused with it); -0 becomes 0.
    scratch[0] = v !== v ? -Infinity : v === 0 ? 0 : v;
    let h = bits[1] as number;
    let l = bits[0] as number;
    if (h & 0x80000000) {
      h = ~h >>> 0;
      l = ~l >>> 0;
    } else h = (h | 0x80000000) >>> 0;
    if (desc) {
      h = ~h >>> 0;
      l = ~l >>> 0;
    }
    hi[i] = h;
    lo[i] = l;
  }
}
