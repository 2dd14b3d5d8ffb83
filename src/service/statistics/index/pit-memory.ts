import { IndexGeneration, type Population, type RecordRef } from '../../../shared/statistics-index';

/**
 * What points in time hold in memory, and its bounds (docs/statistics.md, "What points in time hold"): the
 * sorted matches kept between a pit's batches, and the populations of older generations that
 * pits pin. Both are made from client requests, so both are bounded in bytes, not only in count.
 */

/**
 * A pit's sorted matches: each record as its population's place in a short list and its row,
 * 5 bytes a record. Kept as RecordRef objects, 16 orders of all 200,000 records held 123 MB of
 * heap (12 MB now); at 2,000,000, ~1.2 GB from 16 requests.
 */
export class KeptOrder {
  private constructor(
    private readonly populations: readonly Population[],
    private readonly which: Uint8Array | Uint16Array,
    private readonly rows: Uint32Array,
  ) {}

  static of(refs: readonly RecordRef[]): KeptOrder {
    const places = new Map<Population, number>();
    const populations: Population[] = [];
    const rows = new Uint32Array(refs.length);
    const which = new Uint16Array(refs.length);
    for (let i = 0; i < refs.length; i += 1) {
      const { population, row } = refs[i] as RecordRef;
      let place = places.get(population);
      if (place === undefined) {
        place = populations.length;
        // A generation holds one population per protocol and window: a few dozen.
        if (place > 0xffff) throw new Error('A point in time spans more than 65,536 populations.');
        places.set(population, place);
        populations.push(population);
      }
      which[i] = place;
      rows[i] = row;
    }
    return new KeptOrder(populations, populations.length <= 256 ? Uint8Array.from(which) : which, rows);
  }

  get length(): number {
    return this.rows.length;
  }

  get byteLength(): number {
    return this.which.byteLength + this.rows.byteLength;
  }

  at(i: number): RecordRef {
    return {
      population: this.populations[this.which[i] as number] as Population,
      row: this.rows[i] as number,
    };
  }

  /** Records `from` to `to` (exclusive), as a page reads them. */
  slice(from: number, to: number): RecordRef[] {
    const out: RecordRef[] = [];
    for (let i = from, end = Math.min(to, this.length); i < end; i += 1) out.push(this.at(i));
    return out;
  }
}

/** Orders kept at once, and their bytes: past either, the least recently used goes. */
export const MAX_KEPT_ORDERS = 16;
export const MAX_KEPT_ORDER_BYTES = 64 * 1024 * 1024;

/**
 * The kept orders of one database, least recently used first. An order larger than the byte
 * bound alone is made for its batch and not kept: its next batch sorts again.
 */
export class KeptOrders {
  private readonly byKey = new Map<string, KeptOrder>();
  private bytes = 0;

  constructor(
    private readonly maxOrders = MAX_KEPT_ORDERS,
    private readonly maxBytes = MAX_KEPT_ORDER_BYTES,
  ) {}

  get heldBytes(): number {
    return this.bytes;
  }

  get size(): number {
    return this.byKey.size;
  }

  get(key: string, make: () => readonly RecordRef[]): KeptOrder {
    const kept = this.byKey.get(key);
    if (kept) {
      this.byKey.delete(key);
      this.byKey.set(key, kept);
      return kept;
    }
    const order = KeptOrder.of(make());
    if (order.byteLength > this.maxBytes) return order;
    this.byKey.set(key, order);
    this.bytes += order.byteLength;
    while (this.byKey.size > this.maxOrders || this.bytes > this.maxBytes) {
      const [oldest, dropped] = this.byKey.entries().next().value as [string, KeptOrder];
      this.byKey.delete(oldest);
      this.bytes -= dropped.byteLength;
    }
    return order;
  }
}

/**
 * The least that pinned older generations may hold beyond the current one. The bound is the
 * larger of this and what the current generation holds: one older generation whole (a bulk
 * download across a recompute) always fits.
 */
export const MIN_PINNED_BYTES = 64 * 1024 * 1024;

/**
 * Bytes of columns that `pinned` generations hold and `current` does not share: each live
 * ranking refresh (every 5 s with the market running) re-reads the 19 percentile columns, and a
 * pit opened after each pins its own copy (38 bytes a record each, outside the column budget).
 * Columns are counted once however many generations share them.
 */
export function pinnedBytes(current: IndexGeneration, pinned: Iterable<IndexGeneration>): number {
  const count = pinnedCounter(current);
  let bytes = 0;
  for (const generation of pinned) bytes += count(generation);
  return bytes;
}

/**
 * How many of the first pinned generations (`pinned`, oldest pit first; the last is the newest pit's
 * and is always kept) to let go so that what the rest pin beyond `current` is within `bound`:
 * one pass from the newest back, adding what each older one holds that newer ones do not share.
 */
export function oldestToDrop(
  pinned: readonly IndexGeneration[],
  current: IndexGeneration,
  bound: number,
): number {
  if (pinned.length === 0) return 0;
  const count = pinnedCounter(current);
  let bytes = count(pinned[pinned.length - 1] as IndexGeneration);
  for (let i = pinned.length - 2; i >= 0; i -= 1) {
    bytes += count(pinned[i] as IndexGeneration);
    if (bytes > bound) return i + 1;
  }
  return 0;
}

/** Counts, generation after generation, the bytes of columns neither `current` nor an earlier one holds. */
function pinnedCounter(current: IndexGeneration): (generation: IndexGeneration) => number {
  const currentPopulations = new Set(current.all());
  const counted = new Set<object>();
  for (const population of currentPopulations)
    for (const column of columnsOf(population)) counted.add(column);
  return (generation) => {
    if (generation === current) return 0;
    let bytes = 0;
    for (const population of generation.all()) {
      if (currentPopulations.has(population)) continue;
      for (const column of columnsOf(population)) {
        if (counted.has(column)) continue;
        counted.add(column);
        bytes += byteLengthOf(column);
      }
    }
    return bytes;
  };
}

/** Bytes of every column the generation holds (shared ones once): all it pins beyond an empty one. */
export const heldBytes = (generation: IndexGeneration): number => pinnedBytes(NO_GENERATION, [generation]);
const NO_GENERATION = new IndexGeneration();

type Column = { readonly byteLength: number };

function* columnsOf(population: Population): Iterable<Column> {
  yield* population.heldNumbers.values();
  yield* Object.values(population.textColumns);
}

/** A column's bytes, remembered: a text column of strings counts its distinct texts (O(n)). */
function byteLengthOf(column: Column): number {
  let bytes = byteLengths.get(column);
  if (bytes === undefined) byteLengths.set(column, (bytes = column.byteLength));
  return bytes;
}
const byteLengths = new WeakMap<Column, number>();
