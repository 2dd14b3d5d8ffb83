import { getAddress } from 'viem';
import { filterNumber, filterText } from '../../shared/api/filter-values';
import { ServiceError } from '../http/errors';
import type { FieldMap, FieldSpec } from './fields';

/**
 * The filter grammar shared by the REST filters and GraphQL (docs/api.md): equality, sets,
 * ranges, existence, and nested `or`. Values may arrive as text and are coerced by the field's
 * type; every error names the field.
 */
export type Condition =
  | { or: Condition[] }
  | {
      field: string;
      match?: unknown;
      in?: unknown[];
      nin?: unknown[];
      gte?: unknown;
      lte?: unknown;
      gt?: unknown;
      lt?: unknown;
      exists?: unknown;
    };

/** A compiled WHERE fragment and its parameters. */
export interface Sql {
  sql: string;
  params: unknown[];
}

const RANGE_OPS = { gte: '>=', lte: '<=', gt: '>', lt: '<' } as const;

/** Compiles conditions joined by AND; an empty list is `1`. `where` names the body part for errors. */
export function compileConditions(fields: FieldMap, conditions: readonly Condition[], where: string): Sql {
  const params: unknown[] = [];
  const parts = conditions.map((c, i) => compileOne(fields, c, `${where}[${i}]`, params));
  return { sql: parts.length > 0 ? parts.map((p) => `(${p})`).join(' AND ') : '1', params };
}

function compileOne(fields: FieldMap, condition: Condition, at: string, params: unknown[]): string {
  if ('or' in condition) {
    if (!Array.isArray(condition.or) || condition.or.length === 0)
      throw invalid(`${at}.or must be a non-empty array`);
    return condition.or.map((c, i) => `(${compileOne(fields, c, `${at}.or[${i}]`, params)})`).join(' OR ');
  }
  const spec = fieldSpec(fields, condition.field, `${at}.field`);
  const parts: string[] = [];
  if (condition.match !== undefined) {
    const value = coerce(spec, condition.match, `${at}.match`);
    parts.push(value === null ? `${spec.sql} IS NULL` : `${spec.sql} = ?`);
    if (value !== null) params.push(value);
  }
  for (const op of ['in', 'nin'] as const) {
    const list = condition[op];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw invalid(`${at}.${op} must be an array`);
    if (list.length === 0) {
      parts.push(op === 'in' ? '0' : '1');
      continue;
    }
    list.forEach((v, i) => params.push(coerce(spec, v, `${at}.${op}[${i}]`)));
    parts.push(`${spec.sql} ${op === 'in' ? 'IN' : 'NOT IN'} (${list.map(() => '?').join(', ')})`);
  }
  for (const [op, sqlOp] of Object.entries(RANGE_OPS) as [keyof typeof RANGE_OPS, string][]) {
    const bound = condition[op];
    if (bound === undefined || bound === null) continue;
    params.push(coerce(spec, bound, `${at}.${op}`));
    parts.push(`${spec.sql} ${sqlOp} ?`);
  }
  if (condition.exists !== undefined) {
    const exists = coerce({ sql: '', type: 'boolean' }, condition.exists, `${at}.exists`);
    parts.push(`${spec.sql} IS ${exists ? 'NOT NULL' : 'NULL'}`);
  }
  if (parts.length === 0) throw invalid(`${at} must have one of match, in, nin, gte, lte, gt, lt, exists`);
  return parts.join(' AND ');
}

/** The storage of `name`, or a 400 naming the unknown field. */
export function fieldSpec(fields: FieldMap, name: unknown, at: string): FieldSpec {
  const spec = typeof name === 'string' && Object.hasOwn(fields, name) ? fields[name] : undefined;
  if (!spec) throw invalid(`${at} names an unknown field ${JSON.stringify(name)}`);
  return spec;
}

/** Coerces a filter value (possibly text) to the stored type of the field. */
export function coerce(spec: FieldSpec, value: unknown, at: string): string | number | null {
  if (value === null) return null;
  switch (spec.type) {
    case 'number':
    case 'boolean':
    case 'time':
      return filterNumber(spec.type, value, at, invalid);
    case 'address':
      if (typeof value !== 'string') throw invalid(`${at} must be an address`);
      return storedAddress(value);
    default:
      return filterText(value, at, invalid);
  }
}

/** Addresses are stored as written by their chain: 0x ones checksummed, others as given. */
export const storedAddress = (value: string): string =>
  /^0x[0-9a-fA-F]{40}$/.test(value) ? getAddress(value) : value;

/** `ORDER BY` for sorts, always ending with `id` so pages never overlap (docs/api.md). */
export function compileSort(
  fields: FieldMap,
  sorts: readonly { field: string; direction: 'asc' | 'desc' }[],
  where: string,
): string {
  const terms = sorts.map((s, i) => {
    const spec = fieldSpec(fields, s.field, `${where}[${i}].field`);
    return `${spec.sql} ${s.direction === 'asc' ? 'ASC' : 'DESC'}`;
  });
  if (!sorts.some((s) => s.field === 'id')) terms.push('id ASC');
  return terms.join(', ');
}

const invalid = (message: string) => new ServiceError('VALIDATION_FAILED', message);
