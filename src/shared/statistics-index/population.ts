import type { ColumnBudget, HeldPart, Releasable } from './column-budget';
import { NumberColumn, type NumberColumnKind } from './number-column';
import { sortedCodes, sortedIndexes } from './radix-sort';
import { textColumn, type TextColumn } from './text-column';

/**
 * The columns of one population (one protocol and window): every record's numbers (NaN for a
 * missing value), its per-record texts (id, account), and the texts every record of the
 * population shares (protocol, window). Given as doubles and strings, or already narrowed.
 */
export interface PopulationColumns {
  constants: Readonly<Record<string, string>>;
  texts: Readonly<Record<string, readonly string[] | TextColumn>>;
  numbers: Readonly<Record<string, Float64Array | NumberColumn>>;
}

/** What a field is in a population: a number column, a text column, or one shared text. */
export type ColumnKind = 'number' | 'text' | 'constant';

/** Records in a column's ascending order; 16-bit when the population has at most 65,536 records. */
export type Permutation = Uint32Array | Uint16Array;

/** Bytes held by a population (or a generation), by what holds them. */
export type IndexBytes = Record<NumberColumnKind | 'texts' | 'permutations', number>;

export const noBytes = (): IndexBytes => ({
  float64: 0,
  float32: 0,
  int32: 0,
  int16: 0,
  texts: 0,
  permutations: 0,
});

/**
 * Where a population gets a numeric column the first time a query names it (columns made on
 * demand, docs/statistics.md, "Columns made on demand"). A source must give exactly the values
 * the population's records had when it was made, whenever it is asked (the service's index
 * writes them to a column file that never changes), so that a reader of an old generation gets
 * what it would have got at the start.
 */
export interface ColumnSource {
  /** The numeric fields it can give, beyond the columns the population was made with. */
  readonly fields: ReadonlySet<string>;
  /**
   * The values of `fields` (NaN for a missing one) in record order; it may give more fields
   * than asked (columns read together, as the percentiles are).
   */
  numbers(population: Population, fields: readonly string[]): Record<string, Float64Array | NumberColumn>;
}

/**
 * One population's columns and their sorted permutations. Records are held in ascending order
 * of the tie field (the id), so a stable sort of any column leaves equal values in id order:
 * the tie order SQLite's `ORDER BY …, id ASC` gives (docs/statistics.md, "The columnar index").
 * Every number column is held in its narrowest exact form (number-column.ts) and the ids as
 * bytes when they are hex (text-column.ts). A number column not given at construction is asked
 * of the `source` the first time it is named, then kept; permutations are made the first time a
 * query sorts or bounds by their column, then kept. The records never change (a change makes a
 * new population); only what is held of them changes. Under a `budget`, the columns the source
 * can give back and every permutation are counted, and released when the budget asks (least
 * recently used first, never during the query using them); a released one is made again, exactly,
 * when next named (docs/statistics.md, "The budget of columns held").
 */
export class Population implements Releasable {
  readonly size: number;
  private readonly numbers = new Map<string, NumberColumn>();
  private readonly texts: Readonly<Record<string, TextColumn>>;
  private readonly constants: Readonly<Record<string, string>>;
  private readonly orders = new Map<string, Permutation>();
  private readonly nullCounts = new Map<string, number>();
  /**
   * Each field's kind once asked: the fields a population has never change (a number column
   * released is still its source's), so a field's kind is fixed for the population's life.
   */
  private readonly kinds = new Map<string, ColumnKind | undefined>();
  /** What the budget counts of this population, by field (columns and permutations apart). */
  private readonly columnParts = new Map<string, HeldPart>();
  private readonly orderParts = new Map<string, HeldPart>();
  /** The same parts, for the budget to forget when this population is collected. */
  private readonly parts = new Set<HeldPart>();

  constructor(
    readonly key: string,
    columns: PopulationColumns,
    readonly tieField = 'id',
    /** Where columns not given at construction come from (null: the population has no others). */
    readonly source: ColumnSource | null = null,
    /** Bounds what this population holds of what it can make again (null: no bound). */
    readonly budget: ColumnBudget | null = null,
  ) {
    budget?.watch(this, this.parts);
    this.constants = columns.constants;
    this.texts = Object.fromEntries(
      Object.entries(columns.texts).map(([f, t]) => [
        f,
        Array.isArray(t) ? textColumn(t) : (t as TextColumn),
      ]),
    );
    const ties = this.texts[tieField];
    if (!ties) throw new Error(`A population needs its tie field ${tieField} as a text column.`);
    this.size = ties.length;
    let previous = this.size > 0 ? ties.at(0) : '';
    for (let i = 1; i < this.size; i += 1) {
      const id = ties.at(i);
      if (!(previous < id))
        throw new Error(`A population's records must be in strictly ascending ${tieField} order.`);
      previous = id;
    }
    this.hold(columns.numbers);
  }

  /** Keeps `columns`, each narrowed, after checking its length. */
  private hold(columns: Readonly<Record<string, Float64Array | NumberColumn>>): void {
    for (const [name, values] of Object.entries(columns)) {
      if (values.length !== this.size)
        throw new Error(`Column ${name} has ${values.length} values, not ${this.size}.`);
      const column = values instanceof NumberColumn ? values : NumberColumn.of(values);
      this.numbers.set(name, column);
      if (this.source?.fields.has(name)) this.count(this.columnParts, name, 'column', column.byteLength);
    }
  }

  /** Counts a part made again on demand against the budget (none without one). */
  private count(parts: Map<string, HeldPart>, field: string, what: HeldPart['what'], bytes: number): void {
    if (!this.budget) return;
    const old = parts.get(field);
    if (old) {
      this.budget.forget(old);
      this.parts.delete(old);
    }
    const part = this.budget.hold(this, field, what, bytes);
    // The budget may have released parts of this population to make room, never this one.
    parts.set(field, part);
    this.parts.add(part);
  }

  /** Marks a counted part used by the running query. */
  private use(parts: Map<string, HeldPart>, field: string): void {
    const part = parts.get(field);
    if (part) this.budget!.use(part);
  }

  /** Drops a part the budget released; the next use of its field makes it again. */
  release(part: HeldPart): void {
    this.budget?.forget(part);
    this.parts.delete(part);
    const parts = part.what === 'column' ? this.columnParts : this.orderParts;
    if (parts.get(part.field) !== part) return;
    parts.delete(part.field);
    if (part.what === 'column') this.numbers.delete(part.field);
    else this.orders.delete(part.field);
  }

  /** The number columns held now (not those the source could still give). */
  get heldNumbers(): ReadonlyMap<string, NumberColumn> {
    return this.numbers;
  }

  /** The texts and shared texts (given at construction), to make a changed copy from. */
  get textColumns(): Readonly<Record<string, TextColumn>> {
    return this.texts;
  }

  /**
   * Makes sure every numeric field of `fields` is held: the missing ones are asked of the
   * source at once (one read for all of a query's fields rather than one per field).
   */
  prepare(fields: Iterable<string>): void {
    if (!this.source) return;
    const named = [...new Set(fields)];
    // What the query names and this population holds (columns and their orders) is marked first,
    // so that reading the rest never releases it.
    if (this.budget) {
      for (const f of named) {
        this.use(this.columnParts, f);
        this.use(this.orderParts, f);
      }
    }
    const missing = named.filter((f) => !this.numbers.has(f) && this.source!.fields.has(f));
    if (missing.length === 0) return;
    const read = this.source.numbers(this, missing);
    // A column already held stays as it is (its permutation was made from it).
    this.hold(Object.fromEntries(Object.entries(read).filter(([f]) => !this.numbers.has(f))));
  }

  /**
   * The same records with some numeric columns replaced (the live market rewrites percentiles in
   * place) and others dropped (to be asked of the source again): every other column, and its
   * permutation once made, is shared rather than copied. The copy keeps this population's source.
   */
  withNumbers(
    replaced: Readonly<Record<string, Float64Array | NumberColumn>>,
    dropped: readonly string[] = [],
  ): Population {
    const kept = Object.fromEntries([...this.numbers].filter(([f]) => !dropped.includes(f)));
    const next = new Population(
      this.key,
      { constants: this.constants, texts: this.texts, numbers: { ...kept, ...replaced } },
      this.tieField,
      this.source,
      this.budget,
    );
    const changed = (field: string) => Object.hasOwn(replaced, field) || dropped.includes(field);
    for (const [field, order] of this.orders) {
      if (changed(field)) continue;
      next.orders.set(field, order);
      next.count(next.orderParts, field, 'order', order.byteLength);
    }
    for (const [field, count] of this.nullCounts) {
      if (!changed(field)) next.nullCounts.set(field, count);
    }
    return next;
  }

  /** The kind of `field` here, or undefined when the population has no such column. */
  kindOf(field: string): ColumnKind | undefined {
    // Asked for every condition and sort term of every population a query reads: kept by field.
    let kind = this.kinds.get(field);
    if (kind === undefined && !this.kinds.has(field)) {
      kind = this.kindOfField(field);
      this.kinds.set(field, kind);
    }
    return kind;
  }

  private kindOfField(field: string): ColumnKind | undefined {
    if (this.numbers.has(field) || this.source?.fields.has(field)) return 'number';
    if (Object.hasOwn(this.texts, field)) return 'text';
    if (Object.hasOwn(this.constants, field)) return 'constant';
    return undefined;
  }

  /** The column of `field` without keeping it when the source gives it (a copy made from it). */
  unheld(field: string): NumberColumn {
    const held = this.numbers.get(field);
    if (held) return held;
    const read = this.source?.numbers(this, [field])[field];
    if (!read) throw new Error(`The index has no column ${field}.`);
    return read instanceof NumberColumn ? read : NumberColumn.of(read);
  }

  /** The column of `field`, asked of the source the first time when it is not held. */
  number(field: string): NumberColumn {
    const held = this.numbers.get(field);
    if (held) {
      if (this.budget) this.use(this.columnParts, field);
      return held;
    }
    this.prepare([field]);
    const column = this.numbers.get(field);
    if (!column) throw new Error(`The index has no column ${field}.`);
    return column;
  }

  text(field: string): TextColumn {
    return this.texts[field] as TextColumn;
  }

  constant(field: string): string {
    return this.constants[field] as string;
  }

  /** The tie field's value of record `row` (its id). */
  tie(row: number): string {
    return this.text(this.tieField).at(row);
  }

  /** The record whose tie field is `id`, or -1: a binary search (records are in id order). */
  rowOf(id: string): number {
    const at = this.placeOf(id);
    return at < this.size && this.tie(at) === id ? at : -1;
  }

  /** How many records have a tie field below `id` (where a record with that id would go). */
  placeOf(id: string): number {
    const ties = this.text(this.tieField);
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (ties.at(mid) < id) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Records in ascending order of `field`, missing values (NaN) first, ties in record (id)
   * order. Made once per column: a radix sort for numbers, a comparison sort for texts.
   */
  /** Whether `field`'s ascending order is held now (made, and not released by the budget). */
  holdsOrder(field: string): boolean {
    return this.orders.has(field);
  }

  ascending(field: string): Permutation {
    let order: Permutation | undefined = this.orders.get(field);
    if (order) {
      if (this.budget) this.use(this.orderParts, field);
      return order;
    }
    let wide: Uint32Array;
    if (this.kindOf(field) === 'number') {
      const codes = this.number(field).codes;
      wide =
        codes instanceof Int16Array || codes instanceof Int32Array
          ? sortedCodes(codes)
          : sortedIndexes(this.number(field).toFloat64());
    } else if (field === this.tieField) wide = Uint32Array.from({ length: this.size }, (_, i) => i);
    else {
      const texts = Array.from({ length: this.size }, (_, i) => this.text(field).at(i));
      const rows = Array.from({ length: this.size }, (_, i) => i);
      rows.sort((a, b) => {
        const x = texts[a] as string;
        const y = texts[b] as string;
        return x < y ? -1 : x > y ? 1 : a - b;
      });
      wide = Uint32Array.from(rows);
    }
    order = this.size <= 65536 ? Uint16Array.from(wide) : wide;
    this.orders.set(field, order);
    this.count(this.orderParts, field, 'order', order.byteLength);
    return order;
  }

  /** How many records miss `field` (they open its ascending order). */
  missing(field: string): number {
    let count = this.nullCounts.get(field);
    if (count !== undefined) return count;
    count = 0;
    if (this.kindOf(field) === 'number') {
      const values = this.number(field);
      const order = this.ascending(field);
      let lo = 0;
      let hi = order.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (Number.isNaN(values.at(order[mid] as number))) lo = mid + 1;
        else hi = mid;
      }
      count = lo;
    }
    this.nullCounts.set(field, count);
    return count;
  }

  /** Bytes held: columns, permutations, and an estimate of the texts (see TextColumn.byteLength). */
  bytes(): number {
    return Object.values(this.bytesByKind()).reduce((a, b) => a + b, 0);
  }

  /** Bytes held, by number column form, texts and permutations. */
  bytesByKind(into: IndexBytes = noBytes()): IndexBytes {
    for (const column of this.numbers.values()) into[column.kind] += column.byteLength;
    for (const texts of Object.values(this.texts)) into.texts += texts.byteLength;
    for (const order of this.orders.values()) into.permutations += order.byteLength;
    return into;
  }
}
