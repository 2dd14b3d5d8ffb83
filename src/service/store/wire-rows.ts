// A stored row to its wire resource, field by field as the shared definition says
// (src/shared/api/stored-fields.ts), so the mapping cannot list a field the definition does not.
import type { StoredField } from '../../shared/api/stored-fields';

/** The field definitions of a resource whose columns are all columns of `Row`. */
export type StoredFieldsOf<Row> = Readonly<Record<string, StoredField<(keyof Row & string) | null>>>;

/** The JavaScript expression of one field's wire value, read from `row`. */
function valueSource(field: StoredField): string {
  if (field.column === null) return 'null';
  const value = `row[${JSON.stringify(field.column)}]`;
  if (field.equals !== undefined) return `${value} === ${JSON.stringify(field.equals)}`;
  if (field.type === 'time') return `${value} === null ? null : new Date(${value}).toISOString()`;
  if (field.type === 'list') return `${value} === null ? null : JSON.parse(${value})`;
  if (field.type === 'boolean') return `${value} === null ? null : ${value} === 1`;
  return value;
}

/**
 * The row-to-wire mapping of a resource: every field, or those `include` keeps (the REST resource
 * leaves GraphQL's extras out). It is compiled once into one object literal with fixed property
 * reads, as a hand-written mapping would be: a loop reading `row[column]` by variable names was
 * three times slower per row, on every page of positions and orders the service answers. The
 * source holds only the definition's own names, each quoted by JSON.stringify.
 */
export function wireMapping<Row>(
  fields: StoredFieldsOf<Row>,
  include: (field: StoredField) => boolean = () => true,
): (row: Row) => Record<string, unknown> {
  const properties = Object.entries(fields)
    .filter(([, field]) => include(field))
    .map(([name, field]) => `${JSON.stringify(name)}: ${valueSource(field)}`);
  return new Function('row', `return {\n${properties.join(',\n')}\n};`) as (
    row: Row,
  ) => Record<string, unknown>;
}
