// The lowest and highest price of a stretch of a price path, and the first point of a stretch
// that leaves a band, without reading every point: block and super-block minima and maxima, built
// once per path and kept as long as the path is (docs/backtest.md, Speed). The backtest asks these
// of the stretches between a trader's orders, which can span days of minute marks.

/** Points per block, and blocks per super-block (both powers of two). */
const BLOCK_BITS = 4;
const SUPER_BITS = 8;
const BLOCK = 1 << BLOCK_BITS;
const SUPER = 1 << SUPER_BITS;

/** The extremes of a path's blocks and super-blocks. */
export interface PathExtremes {
  values: Float64Array;
  blockLow: Float64Array;
  blockHigh: Float64Array;
  superLow: Float64Array;
  superHigh: Float64Array;
}

const built = new WeakMap<Float64Array, PathExtremes>();

/** The extremes of `values`, built on first use (one pass) and kept with the array. */
export function extremesOf(values: Float64Array): PathExtremes {
  const known = built.get(values);
  if (known) return known;
  const blocks = Math.ceil(values.length / BLOCK);
  const supers = Math.ceil(values.length / SUPER);
  const e: PathExtremes = {
    values,
    blockLow: new Float64Array(blocks).fill(Infinity),
    blockHigh: new Float64Array(blocks).fill(-Infinity),
    superLow: new Float64Array(supers).fill(Infinity),
    superHigh: new Float64Array(supers).fill(-Infinity),
  };
  // `<` and `>` leave NaN out, as the crossing test (v ≤ low or v ≥ high) never crosses at NaN.
  for (let i = 0; i < values.length; i += 1) {
    const v = values[i]!;
    const b = i >> BLOCK_BITS;
    if (v < e.blockLow[b]!) e.blockLow[b] = v;
    if (v > e.blockHigh[b]!) e.blockHigh[b] = v;
    const s = i >> SUPER_BITS;
    if (v < e.superLow[s]!) e.superLow[s] = v;
    if (v > e.superHigh[s]!) e.superHigh[s] = v;
  }
  built.set(values, e);
  return e;
}

/**
 * The min and max of points [from, to] into out[at] and out[at + 1]: Infinity and −Infinity
 * when the stretch is empty. Points up to a block edge, blocks up to a super-block edge, whole
 * super-blocks, then blocks and points again: each loop is straight, with no test of alignment.
 */
export function stretchExtremes(
  e: PathExtremes,
  from: number,
  to: number,
  out: Float64Array,
  at: number,
): void {
  const { values, blockLow, blockHigh, superLow, superHigh } = e;
  let low = Infinity;
  let high = -Infinity;
  let i = Math.max(0, from);
  const end = to + 1;
  // Points before the first whole block (all of them when the stretch holds none).
  const firstBlock = Math.min(end, (i + BLOCK - 1) & ~(BLOCK - 1));
  for (; i < firstBlock; i += 1) {
    const v = values[i]!;
    if (v < low) low = v;
    if (v > high) high = v;
  }
  const blocksEnd = end & ~(BLOCK - 1);
  if (i < blocksEnd) {
    const firstSuper = Math.min(blocksEnd, (i + SUPER - 1) & ~(SUPER - 1));
    for (; i < firstSuper; i += BLOCK) {
      const b = i >> BLOCK_BITS;
      if (blockLow[b]! < low) low = blockLow[b]!;
      if (blockHigh[b]! > high) high = blockHigh[b]!;
    }
    const supersEnd = end & ~(SUPER - 1);
    for (; i < supersEnd; i += SUPER) {
      const s = i >> SUPER_BITS;
      if (superLow[s]! < low) low = superLow[s]!;
      if (superHigh[s]! > high) high = superHigh[s]!;
    }
    for (; i < blocksEnd; i += BLOCK) {
      const b = i >> BLOCK_BITS;
      if (blockLow[b]! < low) low = blockLow[b]!;
      if (blockHigh[b]! > high) high = blockHigh[b]!;
    }
  }
  for (; i < end; i += 1) {
    const v = values[i]!;
    if (v < low) low = v;
    if (v > high) high = v;
  }
  out[at] = low;
  out[at + 1] = high;
}
/**
 * The first point in [from, to] whose price is ≤ low or ≥ high, or −1. A super-block or block
 * whose extremes stay inside the band holds no such point, whatever part of it the stretch
 * covers, so it is skipped from any point in it; only a block that crosses is read.
 */
export function firstCrossIn(e: PathExtremes, from: number, to: number, low: number, high: number): number {
  const { values, blockLow, blockHigh, superLow, superHigh } = e;
  let i = Math.max(0, from);
  while (i <= to) {
    const s = i >> SUPER_BITS;
    if (!(superLow[s]! <= low || superHigh[s]! >= high)) {
      i = (s + 1) << SUPER_BITS;
      continue;
    }
    const b = i >> BLOCK_BITS;
    if (!(blockLow[b]! <= low || blockHigh[b]! >= high)) {
      i = (b + 1) << BLOCK_BITS;
      continue;
    }
    const end = Math.min(to, ((b + 1) << BLOCK_BITS) - 1);
    for (; i <= end; i += 1) {
      const v = values[i]!;
      if (v <= low || v >= high) return i;
    }
  }
  return -1;
}
