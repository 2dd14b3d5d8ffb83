import type { NumberCodes } from './number-column';
import type { Population } from './population';

/** A condition's value, already coerced to its field's kind by the caller (numbers for numbers). */
export type IndexValue = number | string;

/**
 * The filter grammar of the REST filters and GraphQL (equality, sets, ranges, existence, nested
 * `or`), over coerced values. The parts of one field condition are joined by AND; a list of
 * conditions is joined by AND.
 */
export type IndexCondition =
  | { or: IndexCondition[] }
  | {
      field: string;
      match?: IndexValue | null;
      in?: (IndexValue | null)[];
      nin?: (IndexValue | null)[];
      gte?: IndexValue;
      lte?: IndexValue;
      gt?: IndexValue;
      lt?: IndexValue;
      exists?: boolean;
    };

/** Every field the conditions name, nested `or` included. */
export function conditionFields(conditions: readonly IndexCondition[], into: string[] = []): string[] {
  for (const c of conditions) {
    if ('or' in c) conditionFields(c.or, into);
    else into.push(c.field);
  }
  return into;
}

type FieldCondition = Exclude<IndexCondition, { or: IndexCondition[] }>;

/**
 * A condition compiled for one population, as data rather than closures: a query compiles its
 * conditions for each population it reads, and closures made per query cost their allocation
 * and, under `tsx` (esbuild's keepNames), a `__name` call each (docs/statistics.md, "Index
 * search CPU"). `bound`: a plain numeric range over a column's codes, both ends inclusive (a
 * missing value's code is outside it, as SQL leaves NULL out of every comparison); `any`: a
 * nested `or`; `test`: anything else (`in`, `nin`, `exists`, `match: null`, texts).
 */
type Check = BoundCheck | { kind: 'any'; of: Check[] } | { kind: 'test'; test: (row: number) => boolean };

export interface BoundCheck {
  kind: 'bound';
  codes: NumberCodes;
  lo: number;
  hi: number;
}

/** A check of one condition, or a constant when it holds for every record or for none. */
type Compiled = Check | boolean;

/**
 * Orders of columns not sorted yet that one search may make in one population for its bounds
 * (docs/statistics.md, "Fields named cold"). Past these, a bound on such a column is checked by
 * reading its codes, which costs a pass over them, where sorting costs several: one GraphQL
 * search bounding 90 fields no query had named sorted 90 columns in each of 40 populations,
 * ~3 s of the service's only thread at 200,000 records. A field used again is sorted by a
 * later search that names fewer, so what clients use keeps its order as before.
 */
export const FRESH_ORDERS = 4;

/** Orders made so far by one search in one population. */
export interface FreshOrders {
  made: number;
}

/**
 * Whether a bound on `field` may be read as a stretch of its ascending order: the order is held,
 * or the search has not yet made FRESH_ORDERS of them in this population (it counts this one).
 */
export function mayOrder(population: Population, field: string, fresh: FreshOrders): boolean {
  if (population.holdsOrder(field)) return true;
  if (fresh.made >= FRESH_ORDERS) return false;
  fresh.made += 1;
  return true;
}

/** A plain numeric bound condition compiled for `population` (the caller checked it is one). */
export function plainBoundCheck(population: Population, c: IndexCondition): BoundCheck | null {
  if ('or' in c) return null;
  const bounds = plainBounds(c);
  return bounds ? boundCheck(population, c.field, bounds) : null;
}

/**
 * The conditions as a test of one record. Missing values (NaN) behave as SQL NULL does: no
 * comparison, `in` or `nin` holds for them (`nin` with an empty list holds for every record, as
 * `1` does in SQL), `match: null` and `exists: false` pick them, and a `nin` list holding null
 * matches nothing (`x NOT IN (…, NULL)` is never true).
 */
export function recordTest(
  population: Population,
  conditions: readonly IndexCondition[],
): (row: number) => boolean {
  const checks: Check[] = [];
  for (const c of conditions) {
    const compiled = compile(population, c);
    if (compiled === false) return () => false;
    if (compiled !== true) checks.push(compiled);
  }
  return (row) => passesAll(checks, row);
}

/**
 * Whether the texts a population shares (protocol, window) rule it out: some top-level condition
 * on them fails, so no record can match. Settled before the population's columns are read.
 */
export function ruledOut(population: Population, conditions: readonly IndexCondition[]): boolean {
  for (const c of conditions) if (sharedVerdict(population, c) === false) return true;
  return false;
}

/** A condition's verdict from the population's shared texts alone, or null when records decide. */
function sharedVerdict(population: Population, c: IndexCondition): boolean | null {
  if ('or' in c) {
    let verdict: boolean | null = false;
    for (const member of c.or) {
      const v = sharedVerdict(population, member);
      if (v === true) return true;
      if (v === null) verdict = null;
    }
    return verdict;
  }
  if (population.kindOf(c.field) !== 'constant') return null;
  return holds(c, population.constant(c.field));
}

function compile(population: Population, condition: IndexCondition): Compiled {
  if ('or' in condition) {
    const of: Check[] = [];
    for (const member of condition.or) {
      const compiled = compile(population, member);
      if (compiled === true) return true;
      if (compiled !== false) of.push(compiled);
    }
    if (of.length === 0) return false;
    return of.length === 1 ? (of[0] as Check) : { kind: 'any', of };
  }
  const kind = population.kindOf(condition.field);
  if (kind === undefined) throw new Error(`The index has no column ${condition.field}.`);
  if (kind === 'constant') return holds(condition, population.constant(condition.field));
  if (kind === 'number') {
    // A number is never strictly equal to a text.
    if (typeof condition.match === 'string') return false;
    const bounds = plainBounds(condition);
    if (bounds) {
      const bound = boundCheck(population, condition.field, bounds);
      return bound.lo <= bound.hi ? bound : false;
    }
    return { kind: 'test', test: numberTest(population, condition) };
  }
  return { kind: 'test', test: textTest(population, condition) };
}

/** Whether every check holds for `row`. */
function passesAll(checks: readonly Check[], row: number): boolean {
  for (let i = 0; i < checks.length; i += 1) if (!passes(checks[i] as Check, row)) return false;
  return true;
}

function passes(check: Check, row: number): boolean {
  if (check.kind === 'bound') {
    const v = check.codes[row] as number;
    return v >= check.lo && v <= check.hi;
  }
  if (check.kind === 'test') return check.test(row);
  for (let i = 0; i < check.of.length; i += 1) if (passes(check.of[i] as Check, row)) return true;
  return false;
}

/**
 * A condition's `in` and `nin` lists as sets, made once per condition and population: a list
 * read for every record cost records × values comparisons (5,000 ids over 200,000 records held
 * the service's only thread ~20 s; docs/statistics.md, "Lists of values").
 */
interface Lists {
  in: ReadonlySet<IndexValue | null> | null;
  nin: ReadonlySet<IndexValue | null> | null;
}

const listsOf = (c: FieldCondition): Lists => ({
  in: c.in === undefined ? null : new Set(c.in),
  nin: c.nin === undefined ? null : new Set(c.nin),
});

/** Whether a field condition holds for a text (never missing): one every record shares, or a record's. */
function holds(c: FieldCondition, x: string, lists: Lists = listsOf(c)): boolean {
  if (c.match !== undefined && c.match !== x) return false;
  if (lists.in !== null && !lists.in.has(x)) return false;
  if (lists.nin !== null && (lists.nin.has(null) || lists.nin.has(x))) return false;
  if (c.gte !== undefined && !(x >= c.gte)) return false;
  if (c.gt !== undefined && !(x > c.gt)) return false;
  if (c.lte !== undefined && !(x <= c.lte)) return false;
  if (c.lt !== undefined && !(x < c.lt)) return false;
  return c.exists !== false;
}

/** A numeric range, each end inclusive or strict. */
interface Bounds {
  lo: number;
  loStrict: boolean;
  hi: number;
  hiStrict: boolean;
}

/**
 * The range a condition's numeric bounds (`gte`, `gt`, `lte`, `lt`, `match`) allow, or null when
 * it bounds nothing. A text bound counts as its number, as JavaScript compares a number with it.
 */
function boundsOf(c: FieldCondition): Bounds | null {
  const b: Bounds = { lo: -Infinity, loStrict: false, hi: Infinity, hiStrict: false };
  let bounded = false;
  // Each bound: its value, whether it raises the low end (else lowers the high one), strictness.
  const edges: [IndexValue | null | undefined, boolean, boolean][] = [
    [c.match, true, false],
    [c.gte, true, false],
    [c.gt, true, true],
    [c.match, false, false],
    [c.lte, false, false],
    [c.lt, false, true],
  ];
  for (const [raw, low, strict] of edges) {
    if (raw === undefined || raw === null) continue;
    const v = Number(raw);
    bounded = true;
    // A text that is no number fails every comparison: an empty range.
    if (v !== v) return { lo: Infinity, loStrict: false, hi: -Infinity, hiStrict: false };
    if (low && (v > b.lo || (v === b.lo && strict))) [b.lo, b.loStrict] = [v, strict];
    if (!low && (v < b.hi || (v === b.hi && strict))) [b.hi, b.hiStrict] = [v, strict];
  }
  return bounded ? b : null;
}

/** The bounds of a condition that has nothing but numeric bounds (and a numeric `match`), or null. */
function plainBounds(c: FieldCondition): Bounds | null {
  if (c.in !== undefined || c.nin !== undefined || c.exists !== undefined || c.match === null) return null;
  return boundsOf(c);
}

/**
 * `bounds` as an inclusive range over the column's codes (number-column.ts): integer codes by
 * the column's own translation, float codes with a strict end moved to the next double (x > a
 * exactly when x ≥ the double after a). An empty range has lo > hi (or a NaN end).
 */
function boundCheck(population: Population, field: string, bounds: Bounds): BoundCheck {
  const column = population.number(field);
  const codes = column.codes;
  if (codes instanceof Float64Array || codes instanceof Float32Array) {
    const lo = bounds.loStrict ? nextUp(bounds.lo) : bounds.lo;
    const hi = bounds.hiStrict ? -nextUp(-bounds.hi) : bounds.hi;
    return { kind: 'bound', codes, lo, hi };
  }
  const c = column.codeBound(bounds.lo, bounds.loStrict, bounds.hi, bounds.hiStrict);
  return { kind: 'bound', codes, lo: c.lo, hi: c.hi };
}

const bits = new Float64Array(1);
const bitsAsInt = new BigInt64Array(bits.buffer);

/** The smallest double above `x` (NaN when there is none: nothing is above +Infinity). */
function nextUp(x: number): number {
  if (x !== x || x === Infinity) return NaN;
  if (x === 0) return Number.MIN_VALUE;
  bits[0] = x;
  // Doubles of one sign are ordered as their bit patterns: one step of the pattern is one double.
  bitsAsInt[0] = (bitsAsInt[0] as bigint) + (x > 0 ? 1n : -1n);
  return bits[0] as number;
}

/** A number condition with more than bounds (`in`, `nin`, `exists`, `match: null`), over values. */
function numberTest(population: Population, c: FieldCondition): (row: number) => boolean {
  const values = population.number(c.field);
  const bounds = boundsOf(c);
  const lo = bounds?.lo ?? -Infinity;
  const hi = bounds?.hi ?? Infinity;
  const loStrict = bounds?.loStrict ?? false;
  const hiStrict = bounds?.hiStrict ?? false;
  const bounded = bounds !== null;
  const inSet = c.in === undefined ? null : new Set(c.in.filter((v) => v !== null));
  const ninNone = c.nin !== undefined && c.nin.includes(null);
  const ninSet = c.nin === undefined || c.nin.length === 0 ? null : new Set(c.nin);
  const matchNull = c.match === null;
  const exists = c.exists;
  return (row) => {
    const x = values.at(row);
    const present = x === x;
    if (matchNull && present) return false;
    if (exists !== undefined && present !== exists) return false;
    if (inSet !== null && !(present && inSet.has(x))) return false;
    if (ninSet !== null && (ninNone || !present || ninSet.has(x))) return false;
    if (bounded) {
      if (!present) return false;
      if (loStrict ? !(x > lo) : !(x >= lo)) return false;
      if (hiStrict ? !(x < hi) : !(x <= hi)) return false;
    }
    return true;
  };
}

/** A condition on a per-record text (never missing), over its texts. */
function textTest(population: Population, c: FieldCondition): (row: number) => boolean {
  const texts = population.text(c.field);
  const lists = listsOf(c);
  return (row) => holds(c, texts.at(row), lists);
}

/** A stretch [from, to) of a column's ascending order. */
export interface OrderRange {
  field: string;
  from: number;
  to: number;
}

/**
 * The narrowest stretch of one sorted column that the top-level conditions confine the matches
 * to: each bound (`gte`, `lt`, `match`, …) is a binary search in the column's ascending order, and
 * the bounds of one condition intersect. Null when no top-level condition bounds a column.
 */
export function narrowestRange(
  population: Population,
  conditions: readonly IndexCondition[],
): OrderRange | null {
  let best: OrderRange | null = null;
  for (const c of conditions) {
    const range = stretchOf(population, c);
    if (range && (!best || range.to - range.from < best.to - best.from)) best = range;
  }
  return best;
}

/** The stretch of the column's order a top-level condition's bounds allow, or null. */
function stretchOf(population: Population, c: IndexCondition): OrderRange | null {
  if ('or' in c) return null;
  const kind = population.kindOf(c.field);
  if (kind === 'number') {
    const bounds = typeof c.match === 'string' ? null : boundsOf(c);
    return bounds ? codeStretch(population, boundCheck(population, c.field, bounds), c.field) : null;
  }
  return kind === 'text' ? textStretch(population, c) : null;
}

/** The stretch of `field`'s order whose codes are within the inclusive `bound`. */
function codeStretch(population: Population, bound: BoundCheck, field: string): OrderRange {
  const order = population.ascending(field);
  const { codes, lo, hi } = bound;
  // Missing values open the order; every bound leaves them out.
  const first = population.missing(field);
  let a = first;
  let b = order.length;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if ((codes[order[mid] as number] as number) < lo) a = mid + 1;
    else b = mid;
  }
  const from = a;
  b = order.length;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if ((codes[order[mid] as number] as number) <= hi) a = mid + 1;
    else b = mid;
  }
  // A NaN end (an empty range) stops both searches at once: nothing between.
  return { field, from, to: lo <= hi ? Math.max(from, a) : from };
}

function textStretch(population: Population, c: FieldCondition): OrderRange | null {
  const bounded =
    c.gte !== undefined ||
    c.gt !== undefined ||
    c.lte !== undefined ||
    c.lt !== undefined ||
    typeof c.match === 'string';
  if (!bounded) return null;
  const order = population.ascending(c.field);
  const texts = population.text(c.field);
  let from = 0;
  let to = order.length;
  if (typeof c.match === 'string') {
    from = Math.max(from, textPlace(order, texts, c.match, false));
    to = Math.min(to, textPlace(order, texts, c.match, true));
  }
  if (c.gte !== undefined) from = Math.max(from, textPlace(order, texts, c.gte, false));
  if (c.gt !== undefined) from = Math.max(from, textPlace(order, texts, c.gt, true));
  if (c.lte !== undefined) to = Math.min(to, textPlace(order, texts, c.lte, true));
  if (c.lt !== undefined) to = Math.min(to, textPlace(order, texts, c.lt, false));
  return { field: c.field, from, to: Math.max(from, to) };
}

/** The first place in `order` whose text is ≥ v (or > v with `strict`). */
function textPlace(
  order: ArrayLike<number>,
  texts: { at(row: number): string },
  v: IndexValue,
  strict: boolean,
): number {
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const x = texts.at(order[mid] as number);
    if (strict ? x <= v : x < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

let scratch = new Uint32Array(1024);

/**
 * The records of a population that meet the conditions: the narrowest bounded stretch of a
 * sorted column is read, and each record in it is checked against the other conditions
 * (intersection), plain numeric bounds inline and the rest through their tests; with no bound,
 * every record is checked.
 */
export function matchingRecords(population: Population, conditions: readonly IndexCondition[]): Uint32Array {
  return matchingView(population, conditions).slice();
}

/**
 * The records `matchingRecords` answers, as a view of a scratch array that the next call
 * overwrites: a search reads it at once. Copying it out cost a copy of up to a population's
 * size per population per query, and the garbage collections that followed.
 */
export function matchingView(population: Population, conditions: readonly IndexCondition[]): Uint32Array {
  const bounds: BoundCheck[] = [];
  const others: Check[] = [];
  let range: OrderRange | null = null;
  let implied: BoundCheck | null = null;
  const fresh: FreshOrders = { made: 0 };
  for (const c of conditions) {
    const compiled = compile(population, c);
    if (compiled === false) return new Uint32Array(0);
    // A top-level plain bound's stretch is read from its compiled bound (not translated twice);
    // one whose column may not be sorted now is only checked, below.
    const plain = !('or' in c) && compiled !== true && compiled.kind === 'bound' ? compiled : null;
    const field = (c as FieldCondition).field;
    const stretch = plain
      ? mayOrder(population, field, fresh)
        ? codeStretch(population, plain, field)
        : null
      : stretchOf(population, c);
    if (stretch && (!range || stretch.to - stretch.from < range.to - range.from)) {
      range = stretch;
      implied = plain;
    }
    if (compiled === true) continue;
    if (compiled.kind === 'bound') bounds.push(compiled);
    else others.push(compiled);
  }
  if (scratch.length < population.size) scratch = new Uint32Array(population.size);
  const out = scratch;
  let count: number;
  // A column at a time: the stretch's (or every) record first, then each check keeps those that
  // pass it, in one tight loop per check, so later checks read fewer records.
  if (range) {
    out.set(population.ascending(range.field).subarray(range.from, range.to));
    count = range.to - range.from;
  } else {
    for (let row = 0; row < population.size; row += 1) out[row] = row;
    count = population.size;
  }
  for (const bound of bounds) {
    // The stretch of a plain bound holds exactly its records: that bound needs no check.
    if (bound !== implied) count = keepWithin(out, count, bound);
  }
  for (const check of others) count = keepPassing(out, count, check);
  return out.subarray(0, count);
}

/** Keeps the first `count` rows of `rows` whose code is within `bound`; how many are kept. */
function keepWithin(rows: Uint32Array, count: number, bound: BoundCheck): number {
  const { codes, lo, hi } = bound;
  let kept = 0;
  for (let i = 0; i < count; i += 1) {
    const row = rows[i] as number;
    const v = codes[row] as number;
    if (v >= lo && v <= hi) rows[kept++] = row;
  }
  return kept;
}

/** Keeps the first `count` rows of `rows` that pass `check`; how many are kept. */
function keepPassing(rows: Uint32Array, count: number, check: Check): number {
  if (check.kind === 'any' && check.of.every((c) => c.kind === 'bound'))
    return keepWithinAny(rows, count, check.of as BoundCheck[]);
  let kept = 0;
  for (let i = 0; i < count; i += 1) {
    const row = rows[i] as number;
    if (passes(check, row)) rows[kept++] = row;
  }
  return kept;
}

/** Keeps the first `count` rows of `rows` whose code is within one of `bounds` (an `or` of bounds). */
function keepWithinAny(rows: Uint32Array, count: number, bounds: readonly BoundCheck[]): number {
  let kept = 0;
  for (let i = 0; i < count; i += 1) {
    const row = rows[i] as number;
    for (let j = 0; j < bounds.length; j += 1) {
      const b = bounds[j] as BoundCheck;
      const v = b.codes[row] as number;
      if (v >= b.lo && v <= b.hi) {
        rows[kept++] = row;
        break;
      }
    }
  }
  return kept;
}
