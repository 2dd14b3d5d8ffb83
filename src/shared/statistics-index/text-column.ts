/**
 * A per-record text column (ids, accounts). Ids that are all lowercase hex of one even length
 * (the service's record ids are 24 hex characters) are held as their bytes, 12 bytes a record
 * rather than a ~48-byte string and its pointer; byte order is their text order, so ids are
 * compared without being decoded (docs/statistics.md, "Narrow columns").
 */
export interface TextColumn {
  readonly length: number;
  /** Estimated bytes held (V8 one-byte strings: a pointer each, 16 bytes and the characters a distinct text). */
  readonly byteLength: number;
  at(row: number): string;
  /** Whether record `row`'s text is `text`. */
  is(row: number, text: string): boolean;
  /**
   * A column of `from.length` texts: record i is this column's `from[i]` when that is ≥ 0,
   * else `fresh(-1 - from[i])`.
   */
  gather(from: readonly number[], fresh: (i: number) => string): TextColumn;
}

/** The compact form of `texts` when it has one, else the texts as they are. */
export function textColumn(texts: readonly string[]): TextColumn {
  return HexColumn.of(texts) ?? new StringColumn(texts);
}

/** Order of record `a` of column `x` and record `b` of column `y`, as their texts compare. */
export function compareTexts(x: TextColumn, a: number, y: TextColumn, b: number): number {
  if (x instanceof HexColumn && y instanceof HexColumn && x.width === y.width) return x.compare(a, y, b);
  const s = x.at(a);
  const t = y.at(b);
  return s < t ? -1 : s > t ? 1 : 0;
}

class StringColumn implements TextColumn {
  constructor(private readonly texts: readonly string[]) {}

  get length(): number {
    return this.texts.length;
  }

  get byteLength(): number {
    let total = this.texts.length * 8;
    for (const text of new Set(this.texts)) total += 16 + text.length;
    return total;
  }

  at(row: number): string {
    return this.texts[row] as string;
  }

  is(row: number, text: string): boolean {
    return this.texts[row] === text;
  }

  gather(from: readonly number[], fresh: (i: number) => string): TextColumn {
    return textColumn(from.map((s) => (s >= 0 ? (this.texts[s] as string) : fresh(-1 - s))));
  }
}

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
const HEX_CODES = [...'0123456789abcdef'].map((c) => c.charCodeAt(0));
const NIBBLE = new Map([...'0123456789abcdef'].map((c, i) => [c.charCodeAt(0), i]));

class HexColumn implements TextColumn {
  private constructor(
    private readonly bytes: Uint8Array,
    /** Bytes a text. */
    readonly width: number,
  ) {}

  /** The texts as bytes, or null when some text is not lowercase hex of the first one's even length. */
  static of(texts: readonly string[]): HexColumn | null {
    const chars = texts[0]?.length ?? 0;
    if (chars === 0 || chars % 2 !== 0 || chars > 128) return null;
    const width = chars / 2;
    const bytes = new Uint8Array(texts.length * width);
    for (let r = 0; r < texts.length; r += 1) {
      if (!encodeInto(texts[r] as string, bytes, r * width, width)) return null;
    }
    return new HexColumn(bytes, width);
  }

  get length(): number {
    return this.bytes.length / this.width;
  }

  get byteLength(): number {
    return this.bytes.byteLength;
  }

  at(row: number): string {
    let out = '';
    for (let i = row * this.width, end = i + this.width; i < end; i += 1) out += HEX[this.bytes[i] as number];
    return out;
  }

  is(row: number, text: string): boolean {
    if (text.length !== this.width * 2) return false;
    for (let i = 0; i < this.width; i += 1) {
      const byte = this.bytes[row * this.width + i] as number;
      if (
        text.charCodeAt(i * 2) !== HEX_CODES[byte >> 4] ||
        text.charCodeAt(i * 2 + 1) !== HEX_CODES[byte & 15]
      )
        return false;
    }
    return true;
  }

  compare(a: number, other: HexColumn, b: number): number {
    const x = this.bytes;
    const y = other.bytes;
    for (let i = 0; i < this.width; i += 1) {
      const d = (x[a * this.width + i] as number) - (y[b * this.width + i] as number);
      if (d !== 0) return d < 0 ? -1 : 1;
    }
    return 0;
  }

  gather(from: readonly number[], fresh: (i: number) => string): TextColumn {
    const w = this.width;
    const bytes = new Uint8Array(from.length * w);
    for (let r = 0; r < from.length; r += 1) {
      const s = from[r] as number;
      if (s >= 0) bytes.set(this.bytes.subarray(s * w, s * w + w), r * w);
      else if (!encodeInto(fresh(-1 - s), bytes, r * w, w)) {
        return new StringColumn(from.map((t) => (t >= 0 ? this.at(t) : fresh(-1 - t))));
      }
    }
    return new HexColumn(bytes, w);
  }
}

/** Writes `text`'s bytes at `at`; false when it is not lowercase hex of 2 × `width` characters. */
function encodeInto(text: string, bytes: Uint8Array, at: number, width: number): boolean {
  if (text.length !== width * 2) return false;
  for (let i = 0; i < width; i += 1) {
    const hi = NIBBLE.get(text.charCodeAt(i * 2));
    const lo = NIBBLE.get(text.charCodeAt(i * 2 + 1));
    if (hi === undefined || lo === undefined) return false;
    bytes[at + i] = hi * 16 + lo;
  }
  return true;
}
