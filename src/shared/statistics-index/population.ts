import { sortedIndexes } from './radix-sort';

/**
 * The columns of one population (one protocol and window): every record's numbers as typed
 * arrays (NaN for a missing value), its per-record texts (id, account), and the texts every
 * record of the population shares (protocol, window).
 */
export interface PopulationColumns {
  constants: Readonly<Record<string, string>>;
  texts: Readonly<Record<string, readonly string[]>>;
  numbers: Readonly<Record<string, Float64Array>>;
}

/** What a field is in a population: a typed-array column, a text column, or one shared text. */
export type ColumnKind = 'number' | 'text' | 'constant';

/**
 * One population's columns and their sorted permutations. Records are held in ascending order
 * of the tie field (the id), so a stable sort of any column leaves equal values in id order:
 * the tie order SQLite's `ORDER BY …, id ASC` gives (docs/statistics.md, "The columnar index").
 * Permutations are made the first time a query sorts or bounds by their column, then kept: the
 * population never changes (a change makes a new population).
 */
export class Population {
  readonly size: number;
  private readonly orders = new Map<string, Uint32Array>();
  private readonly nullCounts = new Map<string, number>();

  constructor(
    readonly key: string,
    readonly columns: PopulationColumns,
    readonly tieField = 'id',
  ) {
    const ties = columns.texts[tieField];
    if (!ties) throw new Error(`A population needs its tie field ${tieField} as a text column.`);
    this.size = ties.length;
    for (let i = 1; i < ties.length; i += 1) {
      if (!((ties[i - 1] as string) < (ties[i] as string)))
        throw new Error(`A population's records must be in strictly ascending ${tieField} order.`);
    }
    for (const [name, values] of Object.entries(columns.numbers)) {
      if (values.length !== this.size)
        throw new Error(`Column ${name} has ${values.length} values, not ${this.size}.`);
    }
  }

  /**
   * The same records with some numeric columns replaced (the live market rewrites percentiles in
   * place): every other column, and its permutation once made, is shared rather than copied.
   */
  withNumbers(replaced: Readonly<Record<string, Float64Array>>): Population {
    const next = new Population(
      this.key,
      { ...this.columns, numbers: { ...this.columns.numbers, ...replaced } },
      this.tieField,
    );
    for (const [field, order] of this.orders) {
      if (!Object.hasOwn(replaced, field)) next.orders.set(field, order);
    }
    for (const [field, count] of this.nullCounts) {
      if (!Object.hasOwn(replaced, field)) next.nullCounts.set(field, count);
    }
    return next;
  }

  /** The kind of `field` here, or undefined when the population has no such column. */
  kindOf(field: string): ColumnKind | undefined {
    if (Object.hasOwn(this.columns.numbers, field)) return 'number';
    if (Object.hasOwn(this.columns.texts, field)) return 'text';
    if (Object.hasOwn(this.columns.constants, field)) return 'constant';
    return undefined;
  }

  number(field: string): Float64Array {
    return this.columns.numbers[field] as Float64Array;
  }

  text(field: string): readonly string[] {
    return this.columns.texts[field] as readonly string[];
  }

  constant(field: string): string {
    return this.columns.constants[field] as string;
  }

  /** The tie field's value of record `row` (its id). */
  tie(row: number): string {
    return this.text(this.tieField)[row] as string;
  }

  /**
   * Records in ascending order of `field`, missing values (NaN) first, ties in record (id)
   * order. Made once per column: a radix sort for numbers, a comparison sort for texts.
   */
  ascending(field: string): Uint32Array {
    let order = this.orders.get(field);
    if (order) return order;
    if (this.kindOf(field) === 'number') order = sortedIndexes(this.number(field));
    else {
      const texts = this.text(field);
      const rows = Array.from({ length: this.size }, (_, i) => i);
      rows.sort((a, b) => {
        const x = texts[a] as string;
        const y = texts[b] as string;
        return x < y ? -1 : x > y ? 1 : a - b;
      });
      order = Uint32Array.from(rows);
    }
    this.orders.set(field, order);
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
        if (Number.isNaN(values[order[mid] as number])) lo = mid + 1;
        else hi = mid;
      }
      count = lo;
    }
    this.nullCounts.set(field, count);
    return count;
  }

  /** Bytes held: columns, permutations, and an estimate of the texts (V8 one-byte strings). */
  bytes(): number {
    let total = 0;
    for (const values of Object.values(this.columns.numbers)) total += values.byteLength;
    for (const order of this.orders.values()) total += order.byteLength;
    for (const texts of Object.values(this.columns.texts)) {
      for (const text of texts) total += 8 + 16 + text.length;
    }
    return total;
  }
}
