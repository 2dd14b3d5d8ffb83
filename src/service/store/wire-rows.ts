// A stored row to its wire resource, field by field as the shared definition says
// (src/shared/api/stored-fields.ts), so the mapping cannot list a field the definition does not.
import type { StoredField } from '../../shared/api/stored-fields';

/** The field definitions of a resource whose columns are all columns of `Row`. */
export type StoredFieldsOf<Row> = Readonly<Record<string, StoredField<(keyof Row & string) | null>>>;

/** How one field's wire value is read from a row. */
function readerOf<Row>(field: StoredField<(keyof Row & string) | null>): (row: Row) => unknown {
  const { column, equals } = field;
  if (column === null) return () => null;
  if (equals !== undefined) return (row) => row[column] === equals;
  if (field.type === 'time')
    return (row) => {
      const ms = row[column] as number | null;
      return ms === null ? null : new Date(ms).toISOString();
    };
  if (field.type === 'list')
    return (row) => {
      const json = row[column] as string | null;
      return json === null ? null : (JSON.parse(json) as string[]);
    };
  if (field.type === 'boolean')
    return (row) => {
      const flag = row[column] as number | null;
      return flag === null ? null : flag === 1;
    };
  return (row) => row[column];
}

/**
 * The row-to-wire mapping of a resource: every field, or those `include` keeps (the REST resource
 * leaves GraphQL's extras out). The readers are built once, so mapping a page of rows walks an
 * array rather than re-reading the definition per row.
 */
export function wireMapping<Row>(
  fields: StoredFieldsOf<Row>,
  include: (field: StoredField) => boolean = () => true,
): (row: Row) => Record<string, unknown> {
  const readers = Object.entries(fields)
    .filter(([, field]) => include(field))
    .map(([name, field]) => [name, readerOf<Row>(field)] as const);
  return (row) => {
    const wire: Record<string, unknown> = {};
    for (const [name, read] of readers) wire[name] = read(row);
    return wire;
  };
}
