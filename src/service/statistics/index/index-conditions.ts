import type { IndexCondition, IndexValue, SortTerm } from '../../../shared/statistics-index';
import { ServiceError } from '../../http/errors';
import { coerce, fieldSpec, type Condition } from '../../store/conditions';
import { statisticFields, type FieldSpec } from '../../store/fields';

/**
 * The filter grammar (store/conditions.ts) checked and coerced for the statistics index: the
 * same rules and the same messages as the SQL compiler, so a bad body answers the same 400
 * whichever answers it. `where` names the body part for errors.
 */
export function indexConditions(conditions: readonly Condition[], where: string): IndexCondition[] {
  return conditions.map((c, i) => indexCondition(c, `${where}[${i}]`));
}

function indexCondition(condition: Condition, at: string): IndexCondition {
  if ('or' in condition) {
    if (!Array.isArray(condition.or) || condition.or.length === 0)
      throw invalid(`${at}.or must be a non-empty array`);
    return { or: condition.or.map((c, i) => indexCondition(c, `${at}.or[${i}]`)) };
  }
  const spec = fieldSpec(statisticFields, condition.field, `${at}.field`);
  const out: Exclude<IndexCondition, { or: IndexCondition[] }> = { field: condition.field };
  let parts = 0;
  if (condition.match !== undefined) {
    out.match = value(spec, condition.match, `${at}.match`);
    parts += 1;
  }
  for (const op of ['in', 'nin'] as const) {
    const list = condition[op];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw invalid(`${at}.${op} must be an array`);
    out[op] = list.map((v, i) => value(spec, v, `${at}.${op}[${i}]`));
    parts += 1;
  }
  for (const op of ['gte', 'lte', 'gt', 'lt'] as const) {
    const bound = condition[op];
    if (bound === undefined || bound === null) continue;
    // Only null coerces to null, and a null bound is skipped above, as the SQL compiler does.
    out[op] = value(spec, bound, `${at}.${op}`) as IndexValue;
    parts += 1;
  }
  if (condition.exists !== undefined) {
    out.exists = coerce({ sql: '', type: 'boolean' }, condition.exists, `${at}.exists`) === 1;
    parts += 1;
  }
  if (parts === 0) throw invalid(`${at} must have one of match, in, nin, gte, lte, gt, lt, exists`);
  return out;
}

/** A value coerced to the field's stored type (numbers for numbers, booleans and times). */
function value(spec: FieldSpec, raw: unknown, at: string): IndexValue | null {
  return coerce(spec, raw, at);
}

/**
 * The index's sort terms for `sorts`: each field checked (`where[i].field` names an unknown
 * one), then the tie-breakers SQL used: `id` ascending unless a sort names it, then protocol and
 * window (docs/statistics.md, "The columnar index").
 */
export function indexSort(
  sorts: readonly { field: string; direction: 'asc' | 'desc' }[],
  where: string,
): SortTerm[] {
  const terms = sorts.map((s, i) => {
    fieldSpec(statisticFields, s.field, `${where}[${i}].field`);
    return { field: s.field, desc: s.direction === 'desc' };
  });
  if (!sorts.some((s) => s.field === 'id')) terms.push({ field: 'id', desc: false });
  terms.push({ field: 'protocol', desc: false }, { field: 'type', desc: false });
  return terms;
}

const invalid = (message: string) => new ServiceError('VALIDATION_FAILED', message);
