import type { RangeCondition } from '../../../shared/api/common';
import { RANKING_FIELDS } from '../../../shared/api/statistics';
import {
  boundMatches,
  type BoundMatches,
  ColumnBudget,
  conditionFields,
  matchingRecords,
  pageOfMatches,
  Population,
  StretchBitmaps,
  type IndexCondition,
} from '../../../shared/statistics-index';
import { fieldKind } from './fields';
import type { SortValue } from './leaderboard-order';
import { datasetColumns, rangeConditions, sortTerms, type DatasetSource } from './dataset-population';

export type { DatasetSource } from './dataset-population';

/** Filters remembered per dataset: paging through one filter reuses its matches. */
const FILTERS_KEPT = 8;
/** Records read for pages, remembered per dataset (the top of a leaderboard is read again and again). */
const RECORDS_KEPT = 4096;
/** What a remembered record is counted as (its JSON rest and its numbers, measured ~700 bytes). */
const RECORD_BYTES = 700;

/** A record as stored: its JSON rest and its numbers. */
export interface StoredRecord {
  rest: string;
  numbers: Buffer;
}

/** A leaderboard sort. */
export interface DatasetSort {
  field: string;
  direction: 'asc' | 'desc';
}

/** A filter's conditions and the records that meet them: as bits (bounds only) or as a list. */
type Filter =
  | { conditions: IndexCondition[]; bits: BoundMatches; matches: null }
  | { conditions: IndexCondition[]; bits: null; matches: Uint32Array };

/**
 * A complete dataset in memory (docs/core-cache.md, Offline filtering): one population of the
 * shared statistics index (src/shared/statistics-index, the service's index too), made with the
 * records' ids, which are in id order, so a record's index is also the tie-breaker. A numeric
 * column is read from the datasets file the first time a filter or sort names it (all of a
 * query's at once, dataset-population.ts) and kept in its narrowest exact form; its sorted
 * permutation is made the first time it bounds or sorts. The accounts are read only when a query
 * names them. What this class keeps of its own: a filter's matches while its pages are read, the
 * records read lately, and its count of bytes held.
 */
export class DatasetIndex {
  private population: Population;
  /** Counts the columns and permutations the population makes (never releases: no limit). */
  private budget = new ColumnBudget(Infinity);
  /** The cumulative bitmaps of the permutations wide bounds are matched over (bound-bits.ts). */
  private bitmaps = new StretchBitmaps();
  /** Bytes of the population's texts (they do not change once it is made). */
  private textBytes: number;
  private readonly filters = new Map<string, Filter>();
  private everyRecord: Uint32Array | null = null;
  private seqColumn: Float64Array | null = null;
  private readonly recordCache = new Map<number, StoredRecord>();

  constructor(
    readonly size: number,
    readonly constants: { protocol: string; type: string },
    private readonly source: DatasetSource,
  ) {
    this.population = this.makePopulation({ id: source.texts('ids') });
    this.textBytes = this.countTextBytes();
  }

  /** Bytes held in memory (the worker keeps a bounded number of datasets loaded). */
  memoryBytes(): number {
    let bytes = this.budget.heldBytes + this.bitmaps.bytes + this.textBytes;
    bytes += this.recordCache.size * RECORD_BYTES;
    bytes += (this.seqColumn?.byteLength ?? 0) + (this.everyRecord?.byteLength ?? 0);
    for (const filter of this.filters.values())
      bytes += filter.bits ? filter.bits.byteLength : filter.matches.byteLength;
    return bytes;
  }

  /** How many records pass every range. */
  count(ranges: readonly RangeCondition[]): number {
    const filter = this.filter(ranges);
    return filter.bits ? filter.bits.count : filter.matches.length;
  }

  /** Indexes of the records passing every range at places `from`..`to` - 1 of the sort. */
  page(ranges: readonly RangeCondition[], sort: DatasetSort, from: number, to: number): number[] {
    const filter = this.filter(ranges);
    const terms = sortTerms(sort);
    this.prepare(terms.map((t) => t.field));
    const limit = Math.max(0, to - from);
    const rows = filter.bits
      ? filter.bits.page(this.population, terms, from, limit)
      : pageOfMatches(this.population, filter.matches, terms, from, limit);
    return [...rows];
  }

  /** The value record `i` is sorted by, as the service would compare it (null for a missing value). */
  sortValue(field: string, i: number): SortValue {
    const kind = fieldKind(field);
    if (kind === 'constant') return field === 'type' ? this.constants.type : this.constants.protocol;
    this.prepare([field]);
    if (kind === 'string' || kind === 'address') return this.population.text(field).at(i);
    const value = this.population.number(field).at(i);
    return Number.isNaN(value) ? null : value;
  }

  /** Record `i`'s id. */
  id(i: number): string {
    return this.population.tie(i);
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
    this.population.prepare(RANKING_FIELDS);
    const ranks = RANKING_FIELDS.map((name) => this.population.number(name));
    indexes.forEach((i, k) => {
      for (let r = 0; r < ranks.length; r += 1) out[at + k * ranks.length + r] = ranks[r]!.at(i);
    });
  }

  /**
   * The filter of `ranges`: checked and coerced, then matched by the index: wide numeric bounds
   * as bitmaps of their sorted columns' stretches, intersected (bound-bits.ts); anything else by
   * reading the narrowest stretch a bound allows and checking each record in it against the rest.
   * The last few are kept, so the pages of one filter match once.
   */
  private filter(ranges: readonly RangeCondition[]): Filter {
    const key = JSON.stringify(ranges);
    const known = this.filters.get(key);
    if (known) {
      this.filters.delete(key);
      this.filters.set(key, known);
      return known;
    }
    const conditions = rangeConditions(ranges);
    if (conditions.length === 0) {
      // Every record: made once, not kept per filter.
      this.everyRecord ??= Uint32Array.from({ length: this.population.size }, (_, i) => i);
      return { conditions, bits: null, matches: this.everyRecord };
    }
    this.prepare(conditionFields(conditions));
    const bits = boundMatches(this.population, conditions, this.bitmaps);
    const filter: Filter = bits
      ? { conditions, bits, matches: null }
      : { conditions, bits: null, matches: matchingRecords(this.population, conditions) };
    this.filters.set(key, filter);
    if (this.filters.size > FILTERS_KEPT) this.filters.delete(this.filters.keys().next().value as string);
    return filter;
  }

  /**
   * Makes sure the population holds what `fields` name: the accounts (read the first time a
   * query names them, into a new population that takes over the columns held) and the numeric
   * columns, all asked of the source at once.
   */
  private prepare(fields: readonly string[]): void {
    if (fields.includes('account') && this.population.kindOf('account') === undefined) {
      const held = Object.fromEntries(this.population.heldNumbers);
      const ids = this.population.text('id');
      this.budget = new ColumnBudget(Infinity);
      this.bitmaps = new StretchBitmaps();
      this.population = this.makePopulation({ id: ids, account: this.source.texts('accounts') }, held);
      this.textBytes = this.countTextBytes();
    }
    this.population.prepare(fields);
  }

  private makePopulation(
    texts: ConstructorParameters<typeof Population>[1]['texts'],
    numbers: ConstructorParameters<typeof Population>[1]['numbers'] = {},
  ): Population {
    const { protocol, type } = this.constants;
    return new Population(
      protocol,
      { constants: { protocol, type }, texts, numbers },
      'id',
      datasetColumns(this.source),
      this.budget,
    );
  }

  private countTextBytes(): number {
    return Object.values(this.population.textColumns).reduce((sum, t) => sum + t.byteLength, 0);
  }
}
