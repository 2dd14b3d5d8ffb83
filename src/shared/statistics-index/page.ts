import { rowsOfBits, searchBits } from './bound-bits';
import type { ColumnBudget } from './column-budget';
import { conditionFields, matchingView, ruledOut, type IndexCondition } from './conditions';
import type { Population } from './population';
import { compareTexts, type TextColumn } from './text-column';

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
 * Populations the shared texts (protocol, window) rule out are passed over before any of their
 * columns is read. Each other population gives its first `offset + limit` matches (by walking the
 * sort column's permutation when matches are dense, by a partial sort of the matches when they
 * are few); the populations' shares, each already in order, are then merged up to the page's end.
 */
export function searchPopulations(populations: readonly Population[], query: IndexQuery): IndexPage {
  const wanted = query.offset + query.limit;
  const shares: Share[] = [];
  let total = 0;
  const fields = queryFields(query.conditions, query.sort);
  beginQuery(populations);
  for (const population of populations) {
    if (ruledOut(population, query.conditions)) continue;
    population.prepare(fields);
    total += share(population, query.conditions, query.sort, wanted, shares);
  }
  return { refs: merged(shares, query.sort, query.offset, wanted), total };
}

/** Every match of `populations` in the order of `sort` (a search-after's point in time). */
export function orderAll(
  populations: readonly Population[],
  conditions: readonly IndexCondition[],
  sort: readonly SortTerm[],
): RecordRef[] {
  const shares: Share[] = [];
  let total = 0;
  const fields = queryFields(conditions, sort);
  beginQuery(populations);
  for (const population of populations) {
    if (ruledOut(population, conditions)) continue;
    population.prepare(fields);
    total += share(population, conditions, sort, Infinity, shares);
  }
  return merged(shares, sort, 0, total);
}

/**
 * Adds a population's first `wanted` matches in order to `shares` (none when it has none, or
 * none are wanted); how many records it matched. Filters of plain numeric bounds whose narrowest
 * bound is not narrow are matched as bitmaps (bound-bits.ts, `searchBits`), the page walked from
 * the bits when it can be; any other filter is matched record by record (`matchingView`).
 */
function share(
  population: Population,
  conditions: readonly IndexCondition[],
  sort: readonly SortTerm[],
  wanted: number,
  shares: Share[],
): number {
  const found = searchBits(population, conditions);
  if (found) {
    const { bits, count } = found;
    if (wanted > 0 && count > 0) {
      const take = Math.min(wanted, count);
      const walked =
        count * 8 > population.size ? walkedPage(population, sort, take, (row) => hasBit(bits, row)) : null;
      shares.push({
        population,
        rows: walked ?? firstInOrder(population, rowsOfBits(bits, count), sort, take),
      });
    }
    return count;
  }
  const matches = matchingView(population, conditions);
  if (wanted > 0 && matches.length > 0)
    shares.push({
      population,
      rows: firstInOrder(population, matches, sort, Math.min(wanted, matches.length)),
    });
  return matches.length;
}

const hasBit = (bits: Int32Array, row: number): boolean =>
  ((bits[row >>> 5] as number) & (1 << (row & 31))) !== 0;

/** A population's first matches, in order. */
interface Share {
  population: Population;
  rows: readonly number[];
}

/**
 * Records `from` to `to` of the shares merged under `sort` (then id, then population key, as
 * `refComparator` orders them). Each share is in order already, so a merge of their heads (a
 * heap of the shares) stops at the page's end; each share's sort values are read once, rather
 * than a sort of every share's records decoding them on every comparison.
 */
function merged(shares: readonly Share[], sort: readonly SortTerm[], from: number, to: number): RecordRef[] {
  if (shares.length === 0) return [];
  if (shares.length === 1) {
    const { population, rows } = shares[0]!;
    return rows.slice(from, to).map((row) => ({ population, row }));
  }
  const heads = shares.map((share) => new Head(share, sort));
  const heap: Head[] = [];
  for (const head of heads) heapPush(heap, head);
  const out: RecordRef[] = [];
  for (let at = 0; at < to && heap.length > 0; at += 1) {
    const head = heap[0]!;
    if (at >= from) out.push({ population: head.population, row: head.row });
    head.at += 1;
    if (head.at < head.rows.length) heapDown(heap, 0);
    else {
      const last = heap.pop()!;
      if (heap.length > 0) {
        heap[0] = last;
        heapDown(heap, 0);
      }
    }
  }
  return out;
}

/** A share being merged: its next record, and its sort values read once per term. */
class Head {
  readonly population: Population;
  readonly rows: readonly number[];
  at = 0;
  /** Per term: the share's numbers (a missing one -Infinity), its shared text, or its texts. */
  readonly numbers: (Float64Array | null)[];
  readonly constants: (string | null)[];
  readonly texts: (TextColumn | null)[];
  readonly ties: TextColumn;

  constructor(
    share: Share,
    readonly sort: readonly SortTerm[],
  ) {
    const { population, rows } = share;
    this.population = population;
    this.rows = rows;
    this.numbers = [];
    this.constants = [];
    this.texts = [];
    for (const t of sort) {
      const kind = population.kindOf(t.field);
      if (kind === undefined) throw new Error(`The index has no column ${t.field}.`);
      let numbers: Float64Array | null = null;
      if (kind === 'number') {
        const column = population.number(t.field);
        numbers = new Float64Array(rows.length);
        for (let i = 0; i < rows.length; i += 1) numbers[i] = numberKey(column.at(rows[i]!));
      }
      this.numbers.push(numbers);
      this.constants.push(kind === 'constant' ? population.constant(t.field) : null);
      this.texts.push(kind === 'text' ? population.text(t.field) : null);
    }
    this.ties = population.text(population.tieField);
  }

  get row(): number {
    return this.rows[this.at]!;
  }

  /** The sort value of the head record by term `t`, when it is not a per-record text. */
  value(t: number): number | string {
    const numbers = this.numbers[t];
    if (numbers) return numbers[this.at]!;
    const constant = this.constants[t];
    return constant ?? this.texts[t]!.at(this.row);
  }
}

/** Order of two heads' records: as `refComparator` orders them. */
function compareHeads(a: Head, b: Head): number {
  for (let t = 0; t < a.sort.length; t += 1) {
    let c: number;
    const x = a.texts[t];
    const y = b.texts[t];
    if (x && y) c = compareTexts(x, a.row, y, b.row);
    else {
      const u = a.value(t);
      const v = b.value(t);
      c = u === v ? 0 : u < v ? -1 : 1;
    }
    if (c !== 0) return a.sort[t]!.desc ? -c : c;
  }
  const c = compareTexts(a.ties, a.row, b.ties, b.row);
  if (c !== 0) return c;
  const p = a.population.key;
  const q = b.population.key;
  return p < q ? -1 : p > q ? 1 : 0;
}

function heapPush(heap: Head[], head: Head): void {
  heap.push(head);
  let at = heap.length - 1;
  while (at > 0) {
    const parent = (at - 1) >>> 1;
    if (compareHeads(heap[at]!, heap[parent]!) >= 0) break;
    [heap[at], heap[parent]] = [heap[parent]!, heap[at]!];
    at = parent;
  }
}

function heapDown(heap: Head[], at: number): void {
  for (;;) {
    const left = at * 2 + 1;
    const right = left + 1;
    let top = at;
    if (left < heap.length && compareHeads(heap[left]!, heap[top]!) < 0) top = left;
    if (right < heap.length && compareHeads(heap[right]!, heap[top]!) < 0) top = right;
    if (top === at) return;
    [heap[at], heap[top]] = [heap[top]!, heap[at]!];
    at = top;
  }
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
  // Matches dense enough to be met soon along the lead column's order are walked.
  if (matches.length * 8 > population.size) {
    const take = Math.min(wanted, matches.length);
    const walked = walkedPage(population, sort, take, marked(population, matches));
    if (walked) return walked;
  }
  const lead = walkLead(population, sort);
  const packed = lead ? packedFirst(population, lead, matches, wanted) : null;
  if (packed) return packed;
  const terms = sort.filter((t) => population.kindOf(t.field) !== 'constant');
  const { compare, keys } = rowComparator(population, terms, matches);
  return keys ? smallestByKey(matches, wanted, keys, compare) : smallest(matches, wanted, compare);
}

/** Packed sort keys (a scratch array the next population overwrites). */
let packedKeys = new Float64Array(1024);

/**
 * The first `wanted` matches in the order of `lead` then record order, when the lead is the id
 * or a column of integer codes: each match's key is its lead code and its row in one double
 * (code × 2^b + row, exact below 2^53), so the selection and the sort are of plain numbers, in
 * place (a typed array's own sort), rather than of rows under a comparator called thousands of
 * times a query. Null for other columns.
 */
function packedFirst(
  population: Population,
  lead: SortTerm,
  matches: Uint32Array,
  wanted: number,
): number[] | null {
  const tie = lead.field === population.tieField;
  if (!tie && population.kindOf(lead.field) !== 'number') return null;
  const codes = tie ? null : population.number(lead.field).codes;
  if (codes && !(codes instanceof Int16Array || codes instanceof Int32Array)) return null;
  // Rows below 2^b; a 32-bit code times 2^b stays exact up to 2^21 records.
  const scale = 2 ** Math.ceil(Math.log2(population.size + 1));
  if (scale > 2 ** 21) return null;
  const m = matches.length;
  if (packedKeys.length < m) packedKeys = new Float64Array(Math.max(m, packedKeys.length * 2));
  const keys = packedKeys;
  const sign = lead.desc ? -scale : scale;
  if (codes)
    for (let i = 0; i < m; i += 1) {
      const row = matches[i] as number;
      keys[i] = sign * (codes[row] as number) + row;
    }
  else
    for (let i = 0; i < m; i += 1) {
      const row = matches[i] as number;
      keys[i] = sign * row + row;
    }
  const k = Math.min(wanted, m);
  // Keys are distinct (rows are): the selection puts exactly the k smallest first.
  if (k < m) kthSmallest(keys, m, k - 1);
  const first = keys.subarray(0, k).sort();
  const out = new Array<number>(k);
  for (let i = 0; i < k; i += 1) {
    const v = first[i] as number;
    out[i] = v - Math.floor(v / scale) * scale;
  }
  return out;
}

/**
 * The lead term of `sort` when walking its column's permutation gives the order: what follows
 * it is the record order (the id, ascending), the shared texts aside; else null.
 */
function walkLead(population: Population, sort: readonly SortTerm[]): SortTerm | null {
  let lead: SortTerm | null = null;
  let terms = 0;
  for (const t of sort) {
    if (population.kindOf(t.field) === 'constant') continue;
    terms += 1;
    if (terms === 1) lead = t;
    else if (terms > 2 || t.field !== population.tieField || t.desc) return null;
  }
  if (lead === null) return null;
  return terms === 2 || lead.field === population.tieField ? lead : null;
}

/**
 * The first `take` rows `has` holds in the order of `sort`, walked along the lead column's
 * order, when it can be: the lead followed by record order (`walkOrder`), or a number column
 * followed by other terms, each run of its equal values ordered by them (`walkRuns`); else null.
 */
function walkedPage(
  population: Population,
  sort: readonly SortTerm[],
  take: number,
  has: (row: number) => boolean,
): number[] | null {
  const lead = walkLead(population, sort);
  if (lead) return walkOrder(population, lead, take, has);
  const terms = sort.filter((t) => population.kindOf(t.field) !== 'constant');
  const first = terms[0];
  if (first === undefined || population.kindOf(first.field) !== 'number') return null;
  const last = terms[terms.length - 1]!;
  // Record order ends every run's order anyway (termsComparator): a last id ascending is implied.
  const end = last.field === population.tieField && !last.desc ? terms.length - 1 : terms.length;
  return walkRuns(population, first, terms.slice(1, end), take, has);
}

let members = new Uint32Array(1024);
let stamp = 0;

/** A test of whether a row is one of `matches` (for a walk). */
function marked(population: Population, matches: Uint32Array): (row: number) => boolean {
  // One marking array for every walk, a new stamp for each: a match is a row marked with the
  // walk's stamp, so nothing is cleared after it (a new array per query was garbage).
  if (members.length < population.size || stamp === 0xffffffff) {
    members = new Uint32Array(Math.max(members.length, population.size));
    stamp = 0;
  }
  stamp += 1;
  const member = members;
  const mark = stamp;
  for (let i = 0; i < matches.length; i += 1) member[matches[i] as number] = mark;
  return (row) => member[row] === mark;
}

/**
 * The first `take` rows `has` holds in the order of the number column `lead`, then of `rest`,
 * then record order: the column's order is read a run of equal values at a time (backwards run
 * by run when descending, each run forwards, so missing values come first ascending and last
 * descending), and a run's held rows are sorted by `rest` when more than one is held. A second
 * sort term no longer means sorting every match: a page needs the runs up to its end.
 */
function walkRuns(
  population: Population,
  lead: SortTerm,
  rest: readonly SortTerm[],
  take: number,
  has: (row: number) => boolean,
): number[] {
  const order = population.ascending(lead.field);
  const codes = population.number(lead.field).codes;
  const compare = termsComparator(population, rest);
  const out: number[] = [];
  const n = order.length;
  let from = lead.desc ? n : 0;
  while (out.length < take && (lead.desc ? from > 0 : from < n)) {
    // The run [a, b): every place whose code equals the code at its first (or, descending, last).
    let a = from;
    let b = from;
    const at = codes[order[lead.desc ? from - 1 : from] as number] as number;
    if (lead.desc) {
      a -= 1;
      while (a > 0 && sameCode(codes[order[a - 1] as number] as number, at)) a -= 1;
      from = a;
    } else {
      b += 1;
      while (b < n && sameCode(codes[order[b] as number] as number, at)) b += 1;
      from = b;
    }
    const start = out.length;
    for (let p = a; p < b; p += 1) {
      const row = order[p] as number;
      if (has(row)) out.push(row);
    }
    // Ties of the lead (rare for most columns) are ordered by the rest, in place.
    if (out.length - start > 1) {
      const run = out.slice(start).sort(compare);
      for (let i = 0; i < run.length; i += 1) out[start + i] = run[i] as number;
    }
  }
  if (out.length > take) out.length = take;
  return out;
}

/** Whether two codes are of one value: equal, or both missing in a float column (NaN). */
const sameCode = (x: number, y: number): boolean => x === y || (x !== x && y !== y);

/**
 * The first `take` rows `has` holds along the lead column's order (the caller knows at least that
 * many are held, or all are met): ascending is its permutation; descending reads it backwards a
 * run of equal values at a time, each run forwards, so ties stay in record order and missing
 * values (first ascending) come last. Shared by `walk` (matches marked) and the bitmap path's
 * pages (bound-bits.ts: matches as bits).
 */
export function walkOrder(
  population: Population,
  lead: SortTerm,
  take: number,
  has: (row: number) => boolean,
): number[] {
  const order = population.ascending(lead.field);
  const out: number[] = [];
  if (!lead.desc) {
    for (let p = 0; p < order.length && out.length < take; p += 1) {
      const row = order[p] as number;
      if (has(row)) out.push(row);
    }
    return out;
  }
  // Equal values have equal codes (a value's code is a function of it): runs compare codes.
  const codes = population.kindOf(lead.field) === 'number' ? population.number(lead.field).codes : null;
  const same = codes ? null : sameValue(population, lead.field);
  let end = order.length;
  while (end > 0 && out.length < take) {
    let start = end - 1;
    if (codes) {
      const last = codes[order[start] as number] as number;
      if (last === last) while (start > 0 && codes[order[start - 1] as number] === last) start -= 1;
      else
        while (
          start > 0 &&
          (codes[order[start - 1] as number] as number) !== codes[order[start - 1] as number]
        )
          start -= 1;
    } else while (start > 0 && same!(order[start - 1] as number, order[end - 1] as number)) start -= 1;
    for (let p = start; p < end && out.length < take; p += 1) {
      const row = order[p] as number;
      if (has(row)) out.push(row);
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
function smallest(
  rows: Uint32Array | readonly number[],
  wanted: number,
  compare: (a: number, b: number) => number,
): number[] {
  if (rows.length <= wanted * 4) return Array.from(rows).sort(compare).slice(0, wanted);
  const heap: number[] = [];
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
      siftDown(heap, compare);
    }
  }
  return heap.sort(compare);
}

/** Moves a max-heap's top down to its place. */
function siftDown(heap: number[], compare: (a: number, b: number) => number): void {
  let at = 0;
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
}

/** Sorting value of a column: a missing number is -Infinity, below every number (SQL NULL). */
const numberKey = (x: number): number => (x !== x ? -Infinity : x);

/** The lead term's key of each match, by row (a scratch array the next query overwrites). */
let leadKeys = new Float64Array(1024);
let selection = new Float64Array(1024);

/**
 * Order of two records of one population under `terms`; equal keys fall back to record order.
 * The lead term's key of every match is read once into a scratch array (a narrow column's code,
 * whose order is its values' order; a float's value with a missing one below every number; the
 * row for the id), negated when descending, so most comparisons are one read and one compare;
 * the other terms are read only on a tie.
 */
function rowComparator(
  population: Population,
  terms: readonly SortTerm[],
  rows: Uint32Array,
): { compare: (a: number, b: number) => number; keys: Float64Array | null } {
  const rest = termsComparator(population, terms.slice(1));
  const lead = terms[0];
  if (lead === undefined) return { compare: rest, keys: null };
  if (leadKeys.length < population.size) leadKeys = new Float64Array(population.size);
  const keys = leadKeys;
  // The same keys in the matches' order, for the selection (smallestByKey), in the same pass.
  if (selection.length < rows.length) selection = new Float64Array(rows.length);
  const copy = selection;
  const sign = lead.desc ? -1 : 1;
  if (population.kindOf(lead.field) === 'number') {
    const column = population.number(lead.field);
    const codes = column.codes;
    if (codes instanceof Int16Array || codes instanceof Int32Array) {
      // The missing value's code is the lowest: first ascending, as SQL orders NULL.
      for (let i = 0; i < rows.length; i += 1) {
        const row = rows[i] as number;
        copy[i] = keys[row] = sign * (codes[row] as number);
      }
    } else {
      for (let i = 0; i < rows.length; i += 1) {
        const row = rows[i] as number;
        copy[i] = keys[row] = sign * numberKey(codes[row] as number);
      }
    }
  } else if (lead.field === population.tieField) {
    for (let i = 0; i < rows.length; i += 1) copy[i] = keys[rows[i] as number] = sign * (rows[i] as number);
  } else return { compare: termsComparator(population, terms), keys: null };
  return { compare: keyedComparator(keys, rest), keys };
}

/** Lead keys first, `rest` on a tie (a closure returned, not assigned: tsx does not name it). */
function keyedComparator(
  keys: Float64Array,
  rest: (a: number, b: number) => number,
): (a: number, b: number) => number {
  return (a, b) => {
    const x = keys[a] as number;
    const y = keys[b] as number;
    if (x !== y) return x < y ? -1 : 1;
    return rest(a, b);
  };
}

/**
 * The `wanted` smallest rows under `compare`, whose lead keys (by row) are `keys`: the
 * wanted-th smallest key is found by selection over a copy of the matches' keys (linear), and
 * only the rows at or below it are sorted. A heap over thousands of matches called the
 * comparator thousands of times a query.
 */
function smallestByKey(
  rows: Uint32Array,
  wanted: number,
  keys: Float64Array,
  compare: (a: number, b: number) => number,
): number[] {
  const m = rows.length;
  if (m <= wanted) return Array.from(rows).sort(compare);
  // rowComparator wrote the matches' keys into `selection`, in their order.
  const limit = kthSmallest(selection, m, wanted - 1);
  const picked: number[] = [];
  for (let i = 0; i < m; i += 1) {
    const row = rows[i] as number;
    if ((keys[row] as number) <= limit) picked.push(row);
  }
  // Many ties at the limit (missing values, small integers) may pick far more than wanted.
  if (picked.length > wanted * 4) return smallest(picked, wanted, compare);
  return picked.sort(compare).slice(0, wanted);
}

/** The k-th smallest (from 0) of the first `n` values of `a`, which it reorders (quickselect). */
function kthSmallest(a: Float64Array, n: number, k: number): number {
  let lo = 0;
  let hi = n - 1;
  while (hi > lo) {
    const x = a[lo] as number;
    const y = a[(lo + hi) >>> 1] as number;
    const z = a[hi] as number;
    // The median of three as pivot.
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((a[i] as number) < pivot) i += 1;
      while ((a[j] as number) > pivot) j -= 1;
      if (i <= j) {
        const t = a[i] as number;
        a[i] = a[j] as number;
        a[j] = t;
        i += 1;
        j -= 1;
      }
    }
    // [lo, j] ≤ pivot ≤ [i, hi], and what lies between equals the pivot.
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k] as number;
  }
  return a[k] as number;
}

/** Order of two records of one population under `terms` read as values; then record order. */
function termsComparator(
  population: Population,
  terms: readonly SortTerm[],
): (a: number, b: number) => number {
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
