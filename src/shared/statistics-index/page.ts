import type { ColumnBudget } from './column-budget';
import { conditionFields, matchingView, type IndexCondition } from './conditions';
import type { Population } from './population';
import { compareTexts } from './text-column';

/** One sort term; a query's terms must end with its tie-breakers (the id, then the population). */
export interface SortTerm {
  field: string;
  desc: boolean;
}

/** A record of a population. */
export interface RecordRef {
  population: Population;
  row: number;
}

/** A filter, its order and the stretch of it wanted. */
export interface IndexQuery {
  conditions: readonly IndexCondition[];
  sort: readonly SortTerm[];
  offset: number;
  limit: number;
}

/** A page of records and how many records matched in all. */
export interface IndexPage {
  refs: RecordRef[];
  total: number;
}

/**
 * A page of the records of `populations` that meet the conditions, in the order of `sort`.
 * Each population gives its first `offset + limit` matches (by walking the sort column's
 * permutation when matches are dense, by a partial sort of the matches when they are few); the
 * populations' shares are then merged.
 */
export function searchPopulations(populations: readonly Population[], query: IndexQuery): IndexPage {
  const wanted = query.offset + query.limit;
  const shares: RecordRef[] = [];
  let total = 0;
  const fields = queryFields(query.conditions, query.sort);
  beginQuery(populations);
  for (const population of populations) {
    population.prepare(fields);
    const matches = matchingView(population, query.conditions);
    total += matches.length;
    if (wanted === 0 || matches.length === 0) continue;
    for (const row of firstInOrder(population, matches, query.sort, wanted)) shares.push({ population, row });
  }
  if (populations.length > 1) shares.sort(refComparator(query.sort));
  return { refs: shares.slice(query.offset, wanted), total };
}

/** Every match of `populations` in the order of `sort` (a search-after's point in time). */
export function orderAll(
  populations: readonly Population[],
  conditions: readonly IndexCondition[],
  sort: readonly SortTerm[],
): RecordRef[] {
  const refs: RecordRef[] = [];
  const fields = queryFields(conditions, sort);
  beginQuery(populations);
  for (const population of populations) {
    population.prepare(fields);
    const matches = matchingView(population, conditions);
    for (const row of firstInOrder(population, matches, sort, matches.length)) refs.push({ population, row });
  }
  if (populations.length > 1) refs.sort(refComparator(sort));
  return refs;
}

/**
 * A query begins on `populations`: their budgets may release what earlier queries used, and
 * nothing this query uses is released before the next one begins (column-budget.ts).
 */
function beginQuery(populations: readonly Population[]): void {
  let last: ColumnBudget | null = null;
  for (const { budget } of populations) {
    if (budget && budget !== last) budget.beginQuery();
    last = budget;
  }
}

/** The fields a query names: each population reads the ones it does not hold in one go. */
const queryFields = (conditions: readonly IndexCondition[], sort: readonly SortTerm[]): string[] =>
  conditionFields(
    conditions,
    sort.map((t) => t.field),
  );

/**
 * Records `offset` to `offset + limit` of one population's `matches` (from `matchingRecords`) in
 * the order of `sort`: a page of matches a caller kept (the terminal's datasets keep a filter's
 * matches while its pages are read). The caller prepares the fields first.
 */
export function pageOfMatches(
  population: Population,
  matches: Uint32Array,
  sort: readonly SortTerm[],
  offset: number,
  limit: number,
): readonly number[] {
  if (limit === 0 || matches.length <= offset) return [];
  return firstInOrder(population, matches, sort, offset + limit).slice(offset);
}

/** The first `wanted` of a population's matches in order. */
function firstInOrder(
  population: Population,
  matches: Uint32Array,
  sort: readonly SortTerm[],
  wanted: number,
): readonly number[] {
  const terms = sort.filter((t) => population.kindOf(t.field) !== 'constant');
  const lead = terms[0];
  // Walking the lead column's permutation gives the order only when what follows it is the
  // record order (the id, ascending) and matches are dense enough to be met soon.
  const walkable =
    lead !== undefined &&
    (terms.length === 1
      ? lead.field === population.tieField
      : terms.length === 2 && terms[1]!.field === population.tieField && !terms[1]!.desc);
  if (walkable && matches.length * 8 > population.size) return walk(population, matches, lead, wanted);
  return smallest(matches, wanted, rowComparator(population, terms));
}

/**
 * The matches met first along the lead column's order: ascending is its permutation; descending
 * reads it backwards a run of equal values at a time, each run forwards, so ties stay in record
 * order and missing values (first ascending) come last.
 */
let members = new Uint8Array(1024);

function walk(population: Population, matches: Uint32Array, lead: SortTerm, wanted: number): number[] {
  // One marking array for every walk, cleared after each: a new one per query was garbage.
  if (members.length < population.size) members = new Uint8Array(population.size);
  const member = members;
  for (const row of matches) member[row] = 1;
  try {
    return walkMarked(population, member, matches.length, lead, wanted);
  } finally {
    for (const row of matches) member[row] = 0;
  }
}

function walkMarked(
  population: Population,
  member: Uint8Array,
  matched: number,
  lead: SortTerm,
  wanted: number,
): number[] {
  const order = population.ascending(lead.field);
  const take = Math.min(wanted, matched);
  const out: number[] = [];
  if (!lead.desc) {
    for (let p = 0; p < order.length && out.length < take; p += 1) {
      const row = order[p] as number;
      if (member[row] === 1) out.push(row);
    }
    return out;
  }
  const same = sameValue(population, lead.field);
  let end = order.length;
  while (end > 0 && out.length < take) {
    let start = end - 1;
    while (start > 0 && same(order[start - 1] as number, order[end - 1] as number)) start -= 1;
    for (let p = start; p < end && out.length < take; p += 1) {
      const row = order[p] as number;
      if (member[row] === 1) out.push(row);
    }
    end = start;
  }
  return out;
}

function sameValue(population: Population, field: string): (a: number, b: number) => boolean {
  if (population.kindOf(field) === 'number') {
    // Equal values have equal codes (a value's code is a function of it): no decoding.
    const codes = population.number(field).codes;
    return (a, b) => {
      const x = codes[a] as number;
      const y = codes[b] as number;
      return x === y || (x !== x && y !== y);
    };
  }
  if (field === population.tieField) return (a, b) => a === b;
  const texts = population.text(field);
  return (a, b) => texts.at(a) === texts.at(b);
}

/**
 * The `wanted` smallest rows under `compare`, in order: all of them sorted when few, else a
 * bounded max-heap of the best so far (m log k), sorted at the end.
 */
function smallest(rows: Uint32Array, wanted: number, compare: (a: number, b: number) => number): number[] {
  if (rows.length <= wanted * 4) return Array.from(rows).sort(compare).slice(0, wanted);
  const heap: number[] = [];
  const down = (at: number) => {
    for (;;) {
      const left = at * 2 + 1;
      const right = left + 1;
      let top = at;
      if (left < heap.length && compare(heap[left]!, heap[top]!) > 0) top = left;
      if (right < heap.length && compare(heap[right]!, heap[top]!) > 0) top = right;
      if (top === at) return;
      [heap[at], heap[top]] = [heap[top]!, heap[at]!];
      at = top;
    }
  };
  for (const row of rows) {
    if (heap.length < wanted) {
      heap.push(row);
      let at = heap.length - 1;
      while (at > 0) {
        const parent = (at - 1) >>> 1;
        if (compare(heap[at]!, heap[parent]!) <= 0) break;
        [heap[at], heap[parent]] = [heap[parent]!, heap[at]!];
        at = parent;
      }
    } else if (compare(row, heap[0]!) < 0) {
      heap[0] = row;
      down(0);
    }
  }
  return heap.sort(compare);
}

/** Sorting value of a column: a missing number is -Infinity, below every number (SQL NULL). */
const numberKey = (x: number): number => (x !== x ? -Infinity : x);

/** Order of two records of one population under `terms`; equal keys fall back to record order. */
function rowComparator(population: Population, terms: readonly SortTerm[]): (a: number, b: number) => number {
  const keys = terms.map((t) => {
    const sign = t.desc ? -1 : 1;
    if (population.kindOf(t.field) === 'number') {
      const values = population.number(t.field);
      return (a: number, b: number) => {
        const x = numberKey(values.at(a));
        const y = numberKey(values.at(b));
        return x < y ? -sign : x > y ? sign : 0;
      };
    }
    // Records are held in id order: their order is the ids' order, with no decoding.
    if (t.field === population.tieField) return (a: number, b: number) => (a - b) * sign;
    const texts = population.text(t.field);
    return (a: number, b: number) => {
      const x = texts.at(a);
      const y = texts.at(b);
      return x < y ? -sign : x > y ? sign : 0;
    };
  });
  return (a, b) => {
    for (const key of keys) {
      const c = key(a, b);
      if (c !== 0) return c;
    }
    return a - b;
  };
}

/** A record's sorting value of `field`: a number (-Infinity when missing) or a text. */
export function sortValue(ref: RecordRef, field: string): number | string {
  const { population, row } = ref;
  switch (population.kindOf(field)) {
    case 'number':
      return numberKey(population.number(field).at(row));
    case 'text':
      return population.text(field).at(row);
    case 'constant':
      return population.constant(field);
    default:
      throw new Error(`The index has no column ${field}.`);
  }
}

/** Order of two records of any populations under `terms`, then by id, then population key. */
export function refComparator(terms: readonly SortTerm[]): (a: RecordRef, b: RecordRef) => number {
  return (a, b) => {
    for (const t of terms) {
      const c = compareField(a, b, t.field);
      if (c !== 0) return t.desc ? -c : c;
    }
    const { tieField } = a.population;
    const c = compareTexts(a.population.text(tieField), a.row, b.population.text(tieField), b.row);
    if (c !== 0) return c;
    return a.population.key < b.population.key ? -1 : a.population.key > b.population.key ? 1 : 0;
  };
}

/** Order of two records by one field; texts (ids) are compared without decoding when they can be. */
function compareField(a: RecordRef, b: RecordRef, field: string): number {
  if (a.population.kindOf(field) === 'text' && b.population.kindOf(field) === 'text')
    return compareTexts(a.population.text(field), a.row, b.population.text(field), b.row);
  const x = sortValue(a, field);
  const y = sortValue(b, field);
  return x === y ? 0 : x < y ? -1 : 1;
}
