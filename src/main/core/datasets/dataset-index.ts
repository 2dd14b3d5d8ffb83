import type { RangeCondition } from '../../../shared/api/common';
import { RANKING_KEYS } from '../../../shared/api/statistics';
import { filterNumber, filterText } from '../../../shared/api/filter-values';
import { CoreError } from '../errors';
import { fieldKind, rankingColumn, type FieldKind } from './fields';
import type { SortValue } from './leaderboard-order';
import { sortedIndexes } from './radix';
import { SortedColumn, countBits, emptyBits, hasBit, intersect, type Bits } from './sorted-column';

/** Where a loaded dataset reads its columns from (the datasets file). */
export interface DatasetSource {
  /** Stored numeric fields (names of COLUMN_FIELDS), read in one pass. */
  columns(fields: readonly string[]): Float64Array[];
  /** A `ranking.<key>` column. */
  ranking(name: string): Float64Array;
  texts(name: 'ids' | 'accounts'): string[];
  /** Each record's key in the records table. */
  seqs(): Float64Array;
}

/** Filters remembered per dataset: paging through one filter reuses its set. */
const FILTERS_KEPT = 8;
/** Records read for pages, remembered per dataset (the top of a leaderboard is read again and again). */
const RECORDS_KEPT = 4096;

/** A record as stored: its JSON rest and its numbers. */
export interface StoredRecord {
  rest: string;
  numbers: Buffer;
}

/**
 * A complete dataset in memory (docs/core-cache.md, Offline filtering). Records are in id order,
 * so an index is also the tie-breaker. A field that is filtered or sorted on is loaded once as a
 * Float64Array (NaN for null) and sorted once (a SortedColumn); a range is then a set of record
 * bits built from the sorted column, ranges intersect word by word, and the total is a count of
 * bits. A page walks the sort's order until it is full.
 */
export class DatasetIndex {
  private readonly numbers = new Map<string, Float64Array>();
  private readonly sortedColumns = new Map<string, SortedColumn>();
  private readonly descOrders = new Map<string, Uint32Array>();
  private readonly texts = new Map<string, string[]>();
  private readonly filters = new Map<string, { bits: Bits | null; total: number }>();
  private seqColumn: Float64Array | null = null;
  private readonly recordCache = new Map<number, StoredRecord>();

  constructor(
    readonly size: number,
    readonly constants: { protocol: string; type: string },
    private readonly source: DatasetSource,
  ) {}

  /** Loads the numeric columns of `fields` that are not loaded yet, stored ones in one pass. */
  load(fields: readonly string[]): void {
    const missing = [...new Set(fields)].filter((f) => isNumeric(f) && !this.numbers.has(f));
    const stored = missing.filter((f) => !f.startsWith('ranking.'));
    if (stored.length > 0)
      this.source.columns(stored).forEach((c, k) => this.numbers.set(stored[k] as string, c));
    for (const f of missing.filter((name) => name.startsWith('ranking.')))
      this.numbers.set(f, this.source.ranking(f));
  }

  /** Bytes held in memory (the worker keeps a bounded number of datasets loaded). */
  memoryBytes(): number {
    let bytes =
      (this.seqColumn?.byteLength ?? 0) +
      this.filters.size * ((this.size + 7) >>> 3) +
      this.recordCache.size * 700;
    for (const c of this.numbers.values()) bytes += c.byteLength;
    for (const s of this.sortedColumns.values()) bytes += s.bytes();
    for (const o of this.descOrders.values()) bytes += o.byteLength;
    for (const t of this.texts.values()) bytes += t.length * 80;
    return bytes;
  }

  /**
   * Which records pass every range (null: all of them) and how many do. The semantics of the
   * service's SQL: a null value fails every bound and both `in` and `nin`; an empty `in` matches
   * nothing and an empty `nin` everything.
   */
  filter(ranges: readonly RangeCondition[]): { bits: Bits | null; total: number } {
    if (ranges.length === 0) return { bits: null, total: this.size };
    const key = JSON.stringify(ranges);
    const known = this.filters.get(key);
    if (known) {
      this.filters.delete(key);
      this.filters.set(key, known);
      return known;
    }
    this.load(ranges.map((r) => r.fieldName));
    let bits: Bits | null = null;
    const and = (next: Bits) => {
      if (bits === null) bits = next;
      else intersect(bits, next);
    };
    // A numeric bound after the first set narrows it in place (no new set).
    const andBound = (sorted: SortedColumn, atLeast: boolean, bound: number, strict: boolean) => {
      if (bits === null) bits = atLeast ? sorted.atLeast(bound, strict) : sorted.atMost(bound, strict);
      else if (atLeast) sorted.andAtLeast(bits, bound, strict);
      else sorted.andAtMost(bits, bound, strict);
    };
    ranges.forEach((range, r) => this.rangeBits(range, `ranges[${r}]`, and, andBound));
    const finalBits = bits as Bits | null;
    const result = { bits: finalBits, total: finalBits === null ? this.size : countBits(finalBits) };
    this.filters.set(key, result);
    if (this.filters.size > FILTERS_KEPT) this.filters.delete(this.filters.keys().next().value as string);
    return result;
  }

  /** Indexes of the matching records at places `from`..`to` - 1 of the sort. */
  page(
    bits: Bits | null,
    sort: { field: string; direction: 'asc' | 'desc' },
    from: number,
    to: number,
  ): number[] {
    const order = this.order(sort.field, sort.direction);
    const out: number[] = [];
    let found = 0;
    for (let k = 0; k < this.size && found < to; k += 1) {
      const i =
        order === null
          ? sort.direction === 'desc' && isIdOrder(sort.field)
            ? this.size - 1 - k
            : k
          : (order[k] as number);
      if (bits !== null && !hasBit(bits, i)) continue;
      if (found >= from) out.push(i);
      found += 1;
    }
    return out;
  }

  /** The value record `i` is sorted by, as the service would compare it. */
  sortValue(field: string, i: number): SortValue {
    const kind = fieldKind(field);
    if (kind === 'constant') return field === 'type' ? this.constants.type : this.constants.protocol;
    if (kind === 'string' || kind === 'address')
      return this.text(field === 'id' ? 'ids' : 'accounts')[i] ?? null;
    this.load([field]);
    const value = (this.numbers.get(field) as Float64Array)[i] as number;
    return Number.isNaN(value) ? null : value;
  }

  /** Every record's id, in order. */
  ids(): string[] {
    return this.text('ids');
  }

  /** The stored records of `seqs`, from memory when read lately (a record never changes). */
  records(
    seqs: readonly number[],
    read: (missing: number[]) => Map<number, StoredRecord>,
  ): Map<number, StoredRecord> {
    const out = new Map<number, StoredRecord>();
    const missing: number[] = [];
    for (const seq of seqs) {
      const known = this.recordCache.get(seq);
      if (known === undefined) missing.push(seq);
      else {
        this.recordCache.delete(seq);
        this.recordCache.set(seq, known);
        out.set(seq, known);
      }
    }
    if (missing.length > 0) {
      for (const [seq, record] of read(missing)) {
        out.set(seq, record);
        this.recordCache.set(seq, record);
      }
      for (const seq of this.recordCache.keys()) {
        if (this.recordCache.size <= RECORDS_KEPT) break;
        this.recordCache.delete(seq);
      }
    }
    return out;
  }

  /** Record `i`'s key in the records table. */
  seq(i: number): number {
    this.seqColumn ??= this.source.seqs();
    return this.seqColumn[i] as number;
  }

  /** The percentiles of records `indexes`, one per ranking key, row after row (into `out` at `at`). */
  rankings(indexes: readonly number[], out: Float64Array, at: number): void {
    this.load(RANKING_NAMES);
    const ranks = RANKING_NAMES.map((name) => this.numbers.get(name) as Float64Array);
    indexes.forEach((i, k) => {
      for (let r = 0; r < ranks.length; r += 1)
        out[at + k * ranks.length + r] = (ranks[r] as Float64Array)[i] as number;
    });
  }

  private text(name: 'ids' | 'accounts'): string[] {
    let column = this.texts.get(name);
    if (!column) {
      column = this.source.texts(name);
      this.texts.set(name, column);
    }
    return column;
  }

  private sorted(field: string): SortedColumn {
    let sorted = this.sortedColumns.get(field);
    if (!sorted) {
      this.load([field]);
      sorted = new SortedColumn(this.numbers.get(field) as Float64Array);
      this.sortedColumns.set(field, sorted);
    }
    return sorted;
  }

  /**
   * The records' order for a sort: the field as SQLite orders it (NULL lowest), then id. Null
   * means index order (id, or a field that is the same for every record), read backwards for
   * `desc` on id.
   */
  private order(field: string, direction: 'asc' | 'desc'): Uint32Array | null {
    const kind = fieldKind(field);
    if (kind === 'constant' || field === 'id') return null;
    const key = `${field}|${direction}`;
    let order = this.descOrders.get(key);
    if (order) return order;
    if (kind === 'address') {
      const text = this.text('accounts');
      const sign = direction === 'desc' ? -1 : 1;
      order = Uint32Array.from({ length: this.size }, (_, i) => i).sort((a, b) => {
        const x = text[a] as string;
        const y = text[b] as string;
        return x === y ? a - b : x < y ? -sign : sign;
      });
    } else if (direction === 'asc') return this.sorted(field).order;
    else {
      this.load([field]);
      order = sortedIndexes(this.numbers.get(field) as Float64Array, true);
    }
    this.descOrders.set(key, order);
    return order;
  }

  /** The sets of one range condition, handed to `and`. */
  private rangeBits(
    range: RangeCondition,
    at: string,
    and: (bits: Bits) => void,
    andBound: (sorted: SortedColumn, atLeast: boolean, bound: number, strict: boolean) => void,
  ): void {
    const kind = fieldKind(range.fieldName);
    if (kind === 'constant' || kind === 'string' || kind === 'address') {
      and(this.textBits(range, at, kind));
      return;
    }
    const coerce = (v: unknown, where: string) => coerceNumber(kind, v, where);
    const bounds = (['gte', 'gt', 'lte', 'lt'] as const).filter(
      (op) => range[op] !== undefined && range[op] !== null,
    );
    for (const op of bounds) {
      const bound = coerce(range[op], `${at}.${op}`);
      const atLeast = op === 'gte' || op === 'gt';
      andBound(this.sorted(range.fieldName), atLeast, bound, op === 'gt' || op === 'lt');
    }
    const column = this.numbers.get(range.fieldName) as Float64Array;
    for (const op of ['in', 'nin'] as const) {
      const list = range[op];
      if (list === undefined) continue;
      const set = new Set(list.map((v, k) => coerce(v, `${at}.${op}[${k}]`)));
      const bits = emptyBits(this.size);
      for (let i = 0; i < this.size; i += 1) {
        const v = column[i] as number;
        // An empty nin is the SQL literal 1: it keeps the nulls too.
        const keep = op === 'in' ? set.has(v) : list.length === 0 || (v === v && !set.has(v));
        if (keep) bits[i >>> 5] = (bits[i >>> 5] as number) | (1 << (i & 31));
      }
      and(bits);
    }
  }

  /** A text or constant field's range as a set (a scan: such filters are rare). */
  private textBits(range: RangeCondition, at: string, kind: FieldKind): Bits {
    const tests: ((value: string) => boolean)[] = [];
    for (const op of ['gte', 'lte', 'gt', 'lt'] as const) {
      const raw = range[op];
      if (raw === undefined || raw === null) continue;
      const b = coerceString(raw, `${at}.${op}`);
      tests.push(
        op === 'gte'
          ? (v) => v >= b
          : op === 'lte'
            ? (v) => v <= b
            : op === 'gt'
              ? (v) => v > b
              : (v) => v < b,
      );
    }
    for (const op of ['in', 'nin'] as const) {
      const list = range[op];
      if (list === undefined) continue;
      const set = new Set(list.map((v, k) => coerceString(v, `${at}.${op}[${k}]`)));
      tests.push(op === 'in' ? (v) => set.has(v) : (v) => !set.has(v));
    }
    const test = (value: string) => tests.every((t) => t(value));
    const bits = emptyBits(this.size);
    if (kind === 'constant') {
      const value = range.fieldName === 'type' ? this.constants.type : this.constants.protocol;
      if (test(value)) {
        bits.fill(0xffffffff);
        if (this.size % 32 !== 0) bits[bits.length - 1] = (1 << (this.size % 32)) - 1;
      }
      return bits;
    }
    const text = this.text(range.fieldName === 'id' ? 'ids' : 'accounts');
    for (let i = 0; i < this.size; i += 1)
      if (test(text[i] as string)) bits[i >>> 5] = (bits[i >>> 5] as number) | (1 << (i & 31));
    return bits;
  }
}

const RANKING_NAMES = RANKING_KEYS.map(rankingColumn);

const isNumeric = (field: string): boolean => {
  const kind = fieldKind(field);
  return kind === 'number' || kind === 'time' || kind === 'boolean';
};

const isIdOrder = (field: string): boolean => field === 'id';

/** A filter value as a number of the field's kind, by the service's own rules (filter-values.ts). */
const coerceNumber = (kind: FieldKind, value: unknown, at: string): number =>
  filterNumber(kind === 'boolean' || kind === 'time' ? kind : 'number', value, at, invalid);

/**
 * A filter value as text. (0x addresses arrive checksummed, as the service stores them:
 * StatisticsDatasets.query does it on the core's thread, which has the hashing loaded already.)
 */
const coerceString = (value: unknown, at: string): string => filterText(value, at, invalid);

const invalid = (message: string) => new CoreError('VALIDATION_FAILED', message);
