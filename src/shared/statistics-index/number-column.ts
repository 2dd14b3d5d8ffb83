/**
 * A numeric column held in the narrowest typed array that gives every value back exactly
 * (docs/statistics.md, "Narrow columns"). A value is `code / scale + offset`; a missing value
 * (NaN, SQL NULL) is the integer array's lowest code, or NaN in a float array. A narrowing is
 * chosen only when every value of the column decodes to the very double it was, so a range
 * filter or a sort over the column answers exactly what it would over the doubles: no boundary
 * check is needed, because nothing is rounded.
 */

/** The arrays a column's codes may be held in. */
export type NumberCodes = Float64Array | Float32Array | Int32Array | Int16Array;

/** How a column is held, for the index's memory report. */
export type NumberColumnKind = 'float64' | 'float32' | 'int32' | 'int16';

const INT16_NAN = -32768;
const INT32_NAN = -2147483648;
/** Decimal scales tried for values stored with bounded precision (percentiles have two decimals). */
const SCALES = [1, 10, 100, 1000, 10000];

export class NumberColumn {
  /** Made by `NumberColumn.of` or `gather`, which check that every value reads back exactly. */
  constructor(
    readonly codes: NumberCodes,
    readonly scale: number,
    readonly offset: number,
    /** The code of a missing value; NaN (never equal to anything) in a float array. */
    readonly nanCode: number,
  ) {}

  /** The narrowest exact form of `values` (NaN for a missing value). */
  static of(values: Float64Array): NumberColumn {
    return narrowest(values);
  }

  get length(): number {
    return this.codes.length;
  }

  get kind(): NumberColumnKind {
    if (this.codes instanceof Float64Array) return 'float64';
    if (this.codes instanceof Float32Array) return 'float32';
    return this.codes instanceof Int32Array ? 'int32' : 'int16';
  }

  get byteLength(): number {
    return this.codes.byteLength;
  }

  /** The value of record `row`: exactly the double the column was made from. */
  at(row: number): number {
    const c = this.codes[row] as number;
    return c === this.nanCode ? NaN : c / this.scale + this.offset;
  }

  /** Every value as doubles (a temporary for sorting). */
  toFloat64(): Float64Array {
    if (this.codes instanceof Float64Array) return this.codes;
    const out = new Float64Array(this.codes.length);
    for (let i = 0; i < out.length; i += 1) out[i] = this.at(i);
    return out;
  }

  /**
   * A column of `size` values: record i is this column's `from[i]` when that is ≥ 0, else
   * `fresh(-1 - from[i])`. The codes of kept records are copied as they are when the fresh
   * values fit this column's form; otherwise the merged values are narrowed afresh.
   */
  gather(from: ArrayLike<number>, fresh: (i: number) => number): NumberColumn {
    const size = from.length;
    const codes = new (this.codes.constructor as new (n: number) => NumberCodes)(size);
    for (let i = 0; i < size; i += 1) {
      const s = from[i] as number;
      if (s >= 0) {
        codes[i] = this.codes[s] as number;
        continue;
      }
      const code = this.encode(fresh(-1 - s));
      if (code === null) {
        const values = new Float64Array(size);
        for (let j = 0; j < size; j += 1) {
          const t = from[j] as number;
          values[j] = t >= 0 ? this.at(t) : fresh(-1 - t);
        }
        return narrowest(values);
      }
      codes[i] = code;
    }
    return new NumberColumn(codes, this.scale, this.offset, this.nanCode);
  }

  /** The code of `v` in this column's form, or null when the form cannot hold it exactly. */
  private encode(v: number): number | null {
    if (v !== v) return Number.isNaN(this.nanCode) ? NaN : this.nanCode;
    if (this.codes instanceof Float64Array) return v;
    if (this.codes instanceof Float32Array) return Math.fround(v) === v ? v : null;
    const k = Math.round((v - this.offset) * this.scale);
    const limit = this.codes instanceof Int16Array ? 32767 : 2147483647;
    if (!(Math.abs(k) <= limit) || k / this.scale + this.offset !== v) return null;
    return k;
  }

  /**
   * A numeric bound (`lo`…`hi`, each inclusive or strict) as the same bound over the codes, so
   * a scan compares codes without decoding them. Decoding never decreases as the code grows, so
   * the first code whose value passes the lower bound (and the last that passes the upper) is
   * found by binary search over the codes; a missing value's code is outside the result.
   */
  codeBound(lo: number, loStrict: boolean, hi: number, hiStrict: boolean): CodeBound {
    if (this.codes instanceof Float64Array || this.codes instanceof Float32Array)
      return { lo, loStrict, hi, hiStrict };
    const min = this.nanCode + 1;
    const max = -this.nanCode - 1;
    const { scale, offset } = this;
    // No closures here: a query translates its bounds for every population it reads, and under
    // tsx each named closure costs a __name call (docs/statistics.md, "Index search CPU").
    // First code passing the lower bound (max + 1 when none does).
    let a = min;
    let b = max + 1;
    while (a < b) {
      const mid = Math.floor((a + b) / 2);
      const v = mid / scale + offset;
      if (loStrict ? v > lo : v >= lo) b = mid;
      else a = mid + 1;
    }
    const first = a;
    // First code failing the upper bound (max + 1 when none does); the last passing is before it.
    a = min;
    b = max + 1;
    while (a < b) {
      const mid = Math.floor((a + b) / 2);
      const v = mid / scale + offset;
      if (!(hiStrict ? v < hi : v <= hi)) b = mid;
      else a = mid + 1;
    }
    return { lo: first, loStrict: false, hi: a - 1, hiStrict: false };
  }
}

/** A bound over a column's codes: `lo` ≤ (or <) code ≤ (or <) `hi`; a missing value never passes. */
export interface CodeBound {
  lo: number;
  loStrict: boolean;
  hi: number;
  hiStrict: boolean;
}

/** Integer codes at `scale` (and `offset`), or null when some value is not exactly one. */
function integerCodes(values: Float64Array, scale: number, offset: number): Int32Array | Int16Array | null {
  let wide = false;
  const n = values.length;
  const codes = new Int32Array(n);
  for (let i = 0; i < n; i += 1) {
    const v = values[i] as number;
    if (v !== v) {
      codes[i] = INT32_NAN;
      continue;
    }
    const k = Math.round((v - offset) * scale);
    if (!(Math.abs(k) <= 2147483647) || k / scale + offset !== v) return null;
    if (k > 32767 || k < -32767) wide = true;
    codes[i] = k;
  }
  if (wide) return codes;
  const narrow = new Int16Array(n);
  for (let i = 0; i < n; i += 1) {
    const k = codes[i] as number;
    narrow[i] = k === INT32_NAN ? INT16_NAN : k;
  }
  return narrow;
}

function narrowest(values: Float64Array): NumberColumn {
  const make = (codes: NumberCodes, scale: number, offset: number) =>
    new NumberColumn(
      codes,
      scale,
      offset,
      codes instanceof Int16Array ? INT16_NAN : codes instanceof Int32Array ? INT32_NAN : NaN,
    );
  let best: NumberColumn | null = null;
  for (const scale of SCALES) {
    const codes = integerCodes(values, scale, 0);
    if (codes) {
      best = make(codes, scale, 0);
      break;
    }
  }
  if (best?.kind === 'int16') return best;
  // Integers spanning a narrow range far from zero (times): codes counted from the smallest.
  let min = Infinity;
  for (const v of values) if (v < min) min = v;
  if (Number.isFinite(min) && Number.isInteger(min) && min !== 0) {
    const codes = integerCodes(values, 1, min);
    if (codes && (!best || codes.BYTES_PER_ELEMENT < best.codes.BYTES_PER_ELEMENT))
      best = make(codes, 1, min);
  }
  if (best) return best;
  let single = true;
  for (const v of values) {
    if (v === v && Math.fround(v) !== v) {
      single = false;
      break;
    }
  }
  return single ? make(Float32Array.from(values), 1, 0) : make(values, 1, 0);
}
