import type { CodeBound, NumberCodes } from './number-column';
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
type Test = (value: never) => boolean;

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
  const test = allOf(conditions.map((c) => conditionTest(population, c)));
  return typeof test === 'boolean' ? () => test : test;
}

/** A test of one record, or a constant when the population's shared texts decide it alone. */
type RecordTest = ((row: number) => boolean) | boolean;

function allOf(tests: RecordTest[]): RecordTest {
  if (tests.includes(false)) return false;
  const left = tests.filter((t): t is (row: number) => boolean => t !== true);
  if (left.length === 0) return true;
  if (left.length === 1) return left[0] as (row: number) => boolean;
  return (row) => {
    for (const test of left) if (!test(row)) return false;
    return true;
  };
}

function anyOf(tests: RecordTest[]): RecordTest {
  if (tests.includes(true)) return true;
  const left = tests.filter((t): t is (row: number) => boolean => t !== false);
  if (left.length === 0) return false;
  return (row) => left.some((test) => test(row));
}

function conditionTest(population: Population, condition: IndexCondition): RecordTest {
  if ('or' in condition) return anyOf(condition.or.map((c) => conditionTest(population, c)));
  const kind = population.kindOf(condition.field);
  if (kind === undefined) throw new Error(`The index has no column ${condition.field}.`);
  if (kind === 'constant') {
    const shared = population.constant(condition.field);
    return valueTests(condition, false).every((test) => (test as (v: string) => boolean)(shared));
  }
  const tests = valueTests(condition, kind === 'number');
  if (kind === 'number') {
    const values = population.number(condition.field);
    return (row) => {
      const x = values.at(row);
      for (const test of tests) if (!(test as (v: number) => boolean)(x)) return false;
      return true;
    };
  }
  const texts = population.text(condition.field);
  return (row) => {
    const x = texts.at(row);
    for (const test of tests) if (!(test as (v: string) => boolean)(x)) return false;
    return true;
  };
}

/** One test per part of a field condition; `nullable` columns hold NaN for a missing value. */
function valueTests(c: FieldCondition, nullable: boolean): Test[] {
  const tests: ((x: IndexValue) => boolean)[] = [];
  const present = (x: IndexValue) => !nullable || x === x;
  if (c.match !== undefined) {
    const v = c.match;
    tests.push(v === null ? (x) => !present(x) : (x) => x === v);
  }
  if (c.in !== undefined) {
    const set = new Set(c.in.filter((v) => v !== null));
    tests.push((x) => present(x) && set.has(x));
  }
  if (c.nin !== undefined && c.nin.length > 0) {
    const set = new Set(c.nin);
    tests.push(set.has(null) ? () => false : (x) => present(x) && !set.has(x));
  }
  if (c.gte !== undefined) tests.push((x) => present(x) && x >= (c.gte as IndexValue));
  if (c.gt !== undefined) tests.push((x) => present(x) && x > (c.gt as IndexValue));
  if (c.lte !== undefined) tests.push((x) => present(x) && x <= (c.lte as IndexValue));
  if (c.lt !== undefined) tests.push((x) => present(x) && x < (c.lt as IndexValue));
  if (c.exists !== undefined) {
    const wanted = c.exists;
    tests.push((x) => present(x) === wanted);
  }
  return tests as Test[];
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
    if ('or' in c) continue;
    const kind = population.kindOf(c.field);
    if (kind !== 'number' && kind !== 'text') continue;
    const range = boundRange(population, c, kind);
    if (range && (!best || range.to - range.from < best.to - best.from)) best = range;
  }
  return best;
}

function boundRange(population: Population, c: FieldCondition, kind: 'number' | 'text'): OrderRange | null {
  const bounded =
    [c.gte, c.gt, c.lte, c.lt].some((b) => b !== undefined) || (c.match !== undefined && c.match !== null);
  if (!bounded) return null;
  const order = population.ascending(c.field);
  const column = kind === 'number' ? population.number(c.field) : population.text(c.field);
  const first = population.missing(c.field);
  // The first place at or after `first` whose value is ≥ v (or > v with `strict`).
  const place = (v: IndexValue, strict: boolean) => {
    let lo = first;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const x = column.at(order[mid] as number);
      if (strict ? x <= v : x < v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  let from = first;
  let to = order.length;
  if (c.match !== undefined && c.match !== null) {
    from = Math.max(from, place(c.match, false));
    to = Math.min(to, place(c.match, true));
  }
  if (c.gte !== undefined) from = Math.max(from, place(c.gte, false));
  if (c.gt !== undefined) from = Math.max(from, place(c.gt, true));
  if (c.lte !== undefined) to = Math.min(to, place(c.lte, true));
  if (c.lt !== undefined) to = Math.min(to, place(c.lt, false));
  return { field: c.field, from, to: Math.max(from, to) };
}

/**
 * A numeric bound condition tested inline over a column's codes (number-column.ts): a missing
 * value fails every comparison, as NULL does in SQL.
 */
interface NumericBound extends CodeBound {
  codes: NumberCodes;
}

/** The bounds of a condition on a number column that has nothing but bounds (and `match`), or null. */
function numericBound(population: Population, c: IndexCondition): NumericBound | null {
  if ('or' in c || population.kindOf(c.field) !== 'number') return null;
  if (c.in !== undefined || c.nin !== undefined || c.exists !== undefined || c.match === null) return null;
  const bounds = [c.match, c.gte, c.gt, c.lte, c.lt].filter((b) => b !== undefined);
  if (bounds.length === 0 || bounds.some((b) => typeof b !== 'number')) return null;
  let lo = -Infinity;
  let loStrict = false;
  let hi = Infinity;
  let hiStrict = false;
  const raise = (v: number, strict: boolean) => {
    if (v > lo || (v === lo && strict)) [lo, loStrict] = [v, strict];
  };
  const lower = (v: number, strict: boolean) => {
    if (v < hi || (v === hi && strict)) [hi, hiStrict] = [v, strict];
  };
  if (c.match !== undefined) {
    raise(c.match as number, false);
    lower(c.match as number, false);
  }
  if (c.gte !== undefined) raise(c.gte as number, false);
  if (c.gt !== undefined) raise(c.gt as number, true);
  if (c.lte !== undefined) lower(c.lte as number, false);
  if (c.lt !== undefined) lower(c.lt as number, true);
  const column = population.number(c.field);
  return { codes: column.codes, ...column.codeBound(lo, loStrict, hi, hiStrict) };
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
  const bounds: NumericBound[] = [];
  const rest: IndexCondition[] = [];
  for (const c of conditions) {
    const bound = numericBound(population, c);
    if (bound) bounds.push(bound);
    else rest.push(c);
  }
  // Conditions on the shared texts (protocol, window) settle a whole population at once.
  const decided = allOf(rest.map((c) => conditionTest(population, c)));
  if (decided === false) return new Uint32Array(0);
  const test = decided === true ? null : decided;
  const range = narrowestRange(population, conditions);
  if (scratch.length < population.size) scratch = new Uint32Array(population.size);
  const out = scratch;
  let count = 0;
  const keep = (row: number) => {
    for (const b of bounds) {
      const v = b.codes[row] as number;
      if (!(b.loStrict ? v > b.lo : v >= b.lo) || !(b.hiStrict ? v < b.hi : v <= b.hi)) return;
    }
    if (test === null || test(row)) out[count++] = row;
  };
  if (range) {
    const order = population.ascending(range.field);
    for (let p = range.from; p < range.to; p += 1) keep(order[p] as number);
  } else {
    for (let row = 0; row < population.size; row += 1) keep(row);
  }
  return out.subarray(0, count);
}
