import type { z } from 'zod';
import { positionStatisticSchema } from '../../../shared/api/statistics';
import { RECORD_NUMBER_FIELDS } from './fields';

/**
 * A bulk download checks a thousand statistic records a batch against the contract. The schema's
 * check copies every record (53 fields) and costs as much as parsing the JSON; 45 of the fields
 * are numbers. This check gives the same verdict at a fraction of the cost and copies nothing:
 * the numbers by rules read off the contract's own schema when this module loads (so they cannot
 * drift from it), each other field by its own schema in the contract. A batch it refuses goes to
 * the whole schema, which words the error (docs/core-cache.md, The worker).
 */

/** What the contract allows a number field: read by probing its schema, never written by hand. */
export interface NumberRule {
  name: string;
  nullable: boolean;
  optional: boolean;
  integer: boolean;
  nonNegative: boolean;
}

const shape = positionStatisticSchema.shape as Record<string, z.ZodType>;

/** The rule of one number field; throws when the schema holds a rule this check cannot express. */
export function probeNumberRule(name: string, schema: z.ZodType): NumberRule {
  const ok = (value: unknown) => schema.safeParse(value).success;
  const rule = {
    name,
    nullable: ok(null),
    optional: ok(undefined),
    integer: !ok(0.5),
    nonNegative: !ok(-1),
  };
  // Everything the rule says it allows must pass, and what it refuses must fail: a bound or a
  // refinement the probes cannot see would make the fast verdict differ from the schema's.
  const allowed = [0, 1, 2 ** 53 - 1, ...(rule.integer ? [] : [0.5, 1e300, Number.MIN_VALUE])];
  if (!rule.nonNegative) allowed.push(-1, -(2 ** 53 - 1), ...(rule.integer ? [] : [-1e300]));
  const refused = [
    '1',
    true,
    [],
    {},
    ...(rule.integer ? [2 ** 53, 1.5] : []),
    ...(rule.nonNegative ? [-1e-9] : []),
  ];
  if (!allowed.every(ok) || refused.some(ok))
    throw new Error(`The fast record check cannot express the contract's rule for ${name}.`);
  return rule;
}

export const NUMBER_RULES: readonly NumberRule[] = RECORD_NUMBER_FIELDS.map((name) => {
  const schema = shape[name];
  if (!schema) throw new Error(`The statistic schema has no field ${name}.`);
  return probeNumberRule(name, schema);
});

const NUMBER_NAMES: ReadonlySet<string> = new Set(RECORD_NUMBER_FIELDS);

/** The record's other fields (strings, timestamps, lists, flags), each with its schema. */
const OTHER_FIELDS: readonly { name: string; schema: z.ZodType }[] = Object.entries(shape).flatMap(
  ([name, schema]) => (NUMBER_NAMES.has(name) ? [] : [{ name, schema }]),
);

/**
 * Whether a record's number fields are as the contract allows them, written out field by field
 * from NUMBER_RULES when this module loads: a property named in the code is a direct load, while
 * one named by a variable is a generic lookup (~20 ns; 45 of them a record were most of the check).
 */
function compileNumbersFit(rules: readonly NumberRule[]): (record: Record<string, unknown>) => boolean {
  const lines = rules.map((rule) => {
    const number = rule.integer ? 'Number.isSafeInteger(v)' : 'Number.isFinite(v)';
    const fits = [`(typeof v === 'number' && ${number}${rule.nonNegative ? ' && v >= 0' : ''})`];
    if (rule.nullable) fits.push('v === null');
    if (rule.optional) fits.push('v === undefined');
    return `v = record[${JSON.stringify(rule.name)}]; if (!(${fits.join(' || ')})) return false;`;
  });
  return new Function('record', `let v;\n${lines.join('\n')}\nreturn true;`) as (
    record: Record<string, unknown>,
  ) => boolean;
}

/** numbersFit for the statistic record's rules. */
export const numbersFit = compileNumbersFit(NUMBER_RULES);

/**
 * True when every record fits the contract's statistic record. The records are then used as
 * they are (the schema would only have dropped fields the store never reads); false means the
 * whole schema must check them and say what is wrong.
 */
export function recordsFit(records: unknown): records is Record<string, unknown>[] {
  if (!Array.isArray(records)) return false;
  const passed: (string | undefined)[] = new Array(OTHER_FIELDS.length);
  for (let i = 0; i < records.length; i += 1) {
    const record = records[i] as unknown;
    if (typeof record !== 'object' || record === null || Array.isArray(record)) return false;
    const fields = record as Record<string, unknown>;
    if (!numbersFit(fields)) return false;
    for (let f = 0; f < OTHER_FIELDS.length; f += 1) {
      const { name, schema } = OTHER_FIELDS[f] as (typeof OTHER_FIELDS)[number];
      const value = fields[name];
      // A batch repeats its protocol, window and most timestamps: a text already found valid in
      // this batch is valid again.
      if (typeof value === 'string' && passed[f] === value) continue;
      if (!schema.safeParse(value).success) return false;
      if (typeof value === 'string') passed[f] = value;
    }
  }
  return true;
}
