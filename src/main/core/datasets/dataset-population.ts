import type { RangeCondition } from '../../../shared/api/common';
import { RANKING_FIELDS } from '../../../shared/api/statistics';
import { filterNumber, filterText } from '../../../shared/api/filter-values';
import type {
  ColumnSource,
  IndexCondition,
  IndexValue,
  NumberColumn,
  Population,
  SortTerm,
} from '../../../shared/statistics-index';
import { CoreError } from '../errors';
import { COLUMN_FIELDS, fieldKind, type FieldKind } from './fields';

/**
 * What joins a downloaded dataset to the shared statistics index (src/shared/statistics-index,
 * docs/statistics.md, "The columnar index"): a dataset is one population, its columns read from
 * the datasets file on demand, and the leaderboard's ranges and sort become the index's
 * conditions and sort terms.
 */

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

/** Every numeric field a dataset can give: its stored columns and its percentiles. */
const NUMBER_FIELDS: ReadonlySet<string> = new Set([...COLUMN_FIELDS, ...RANKING_FIELDS]);

/**
 * A dataset's numeric columns for its population, asked the first time a query names them: the
 * stored ones in one pass over the chunks, each percentile from its own column.
 */
export function datasetColumns(source: DatasetSource): ColumnSource {
  return {
    fields: NUMBER_FIELDS,
    numbers(_population: Population, fields: readonly string[]): Record<string, Float64Array | NumberColumn> {
      const out: Record<string, Float64Array> = {};
      const stored = fields.filter((f) => !f.startsWith('ranking.'));
      if (stored.length > 0) source.columns(stored).forEach((c, k) => (out[stored[k] as string] = c));
      for (const f of fields) if (f.startsWith('ranking.')) out[f] = source.ranking(f);
      return out;
    },
  };
}

/**
 * The leaderboard's ranges as the index's conditions, each value coerced by the service's own
 * rules (filter-values.ts) with its messages: a value that does not fit its field is a
 * VALIDATION_FAILED CoreError naming it (`ranges[1].gte must be a number or numeric text`).
 * Both sides give a missing value SQL NULL's meaning: it fails every bound, `in` and `nin`; an
 * empty `in` matches nothing and an empty `nin` everything.
 */
export function rangeConditions(ranges: readonly RangeCondition[]): IndexCondition[] {
  return ranges.map((range, r) => rangeCondition(range, `ranges[${r}]`));
}

/** The bounds in the order their values are checked (the first wrong one is reported). */
const NUMBER_BOUNDS = ['gte', 'gt', 'lte', 'lt'] as const;
const TEXT_BOUNDS = ['gte', 'lte', 'gt', 'lt'] as const;

function rangeCondition(range: RangeCondition, at: string): IndexCondition {
  const kind = fieldKind(range.fieldName);
  const numeric = kind === 'number' || kind === 'time' || kind === 'boolean';
  const coerce = (v: unknown, where: string): IndexValue =>
    numeric ? coerceNumber(kind, v, where) : filterText(v, where, invalid);
  const condition: Extract<IndexCondition, { field: string }> = { field: range.fieldName };
  for (const op of numeric ? NUMBER_BOUNDS : TEXT_BOUNDS) {
    const value = range[op];
    if (value !== undefined && value !== null) condition[op] = coerce(value, `${at}.${op}`);
  }
  for (const op of ['in', 'nin'] as const) {
    const list = range[op];
    if (list !== undefined) condition[op] = list.map((v, k) => coerce(v, `${at}.${op}[${k}]`));
  }
  return condition;
}

/** A filter value as a number of the field's kind, by the service's own rules (filter-values.ts). */
const coerceNumber = (kind: FieldKind, value: unknown, at: string): number =>
  filterNumber(kind === 'boolean' || kind === 'time' ? kind : 'number', value, at, invalid);

const invalid = (message: string) => new CoreError('VALIDATION_FAILED', message);

/**
 * The index's sort terms for a leaderboard sort: the field, then the id ascending (the service's
 * tie-breaker, docs/api.md), which is also the records' order in a population.
 */
export function sortTerms(sort: { field: string; direction: 'asc' | 'desc' }): SortTerm[] {
  const lead = { field: sort.field, desc: sort.direction === 'desc' };
  return sort.field === 'id' ? [lead] : [lead, { field: 'id', desc: false }];
}
