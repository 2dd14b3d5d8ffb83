// The order's wire fields are defined once (src/shared/api/order-fields.ts); the service's
// row-to-wire mapping, its filterable fields and the GraphQL Order type derive from it. These fail
// if the definition and the Order schema disagree, if a definition names a column `orders` does
// not have, or if any of the three derived places shows a field differently from the definition.
import { isNonNullType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { ORDER_WIRE_FIELDS } from '../../../../src/shared/api/order-fields';
import { orderSchema } from '../../../../src/shared/api/positions';
import type { StoredField } from '../../../../src/shared/api/stored-fields';
import { graphqlSchema } from '../../../../src/service/graphql/schema';
import { orderFields } from '../../../../src/service/store/fields';
import { ORDER_COLUMNS, orderToWire, type OrderRow } from '../../../../src/service/store/positions';
import { expectAll } from '../../../support/expect-all';

const definitions = Object.entries(ORDER_WIRE_FIELDS) as [string, StoredField][];

/** The type the definition gives a column (the first field reading it as other than a flag). */
const typeOfColumn = (column: string) =>
  definitions.find(([, f]) => f.column === column && f.equals === undefined)?.[1].type;

/** A row whose every column holds a value no other column holds, of the kind its fields read. */
function distinctRow(): OrderRow {
  const row = Object.fromEntries(
    ORDER_COLUMNS.map((column, i) => {
      const type = typeOfColumn(column);
      if (column === 'type') return [column, 'OPEN'];
      if (type === 'address') return [column, `0x${String(i).padStart(40, '0')}`];
      if (type === 'string') return [column, `${column.toUpperCase()}_VALUE`];
      if (type === 'boolean') return [column, 1];
      return [column, 1_000 + i];
    }),
  );
  return row as unknown as OrderRow;
}

/** What the wire shows for a field, as its definition says. */
function expectedWire(field: StoredField, row: Record<string, unknown>): unknown {
  if (field.column === null) return null;
  const stored = row[field.column];
  if (field.equals !== undefined) return stored === field.equals;
  if (field.type === 'time') return new Date(stored as number).toISOString();
  if (field.type === 'boolean') return stored === 1;
  return stored;
}

describe("the order's wire fields", () => {
  const row = distinctRow();
  const stored = row as unknown as Record<string, unknown>;
  const wire = orderToWire(row) as unknown as Record<string, unknown>;

  it('define every field of the Order schema, and only those', () => {
    const schemaFields = Object.keys(orderSchema.shape).filter((f) => f !== '__typename');
    expect(Object.keys(ORDER_WIRE_FIELDS).sort()).toEqual(schemaFields.sort());
  });

  it('read only columns of `orders`', () => {
    expectAll(
      definitions,
      ([, f]) => f.column === null || (ORDER_COLUMNS as readonly string[]).includes(f.column),
    );
  });

  it('say null is allowed exactly where the Order schema allows it', () => {
    expectAll(definitions, ([name, f]) => {
      const accepts = orderSchema.shape[name as keyof typeof orderSchema.shape].safeParse(null).success;
      return accepts === f.nullable;
    });
  });

  it('are what orderToWire shows, field by field, in a valid Order', () => {
    expect(orderSchema.strict().parse(wire)).toEqual(wire);
    expect(Object.keys(wire)).toEqual(Object.keys(ORDER_WIRE_FIELDS));
    expectAll(definitions, ([name, f]) => wire[name] === expectedWire(f, stored));
  });

  it('make the filterable fields, each reading the column the resource shows', () => {
    const filterable = definitions.filter(([, f]) => f.filterable && f.column !== null);
    expect(Object.keys(orderFields)).toEqual(filterable.map(([name]) => name));
    expectAll(Object.entries(orderFields), ([name, spec]) => {
      const field = ORDER_WIRE_FIELDS[name as keyof typeof ORDER_WIRE_FIELDS];
      return (
        spec.sql === field.column && spec.type === field.type && wire[name] === expectedWire(field, stored)
      );
    });
  });

  it('are the GraphQL Order type, non-null where the contract says so', () => {
    const order = graphqlSchema.getType('Order');
    if (!order || !('getFields' in order)) throw new Error('the schema has no Order object type');
    const types = order.getFields();
    expect(Object.keys(types)).toEqual(Object.keys(ORDER_WIRE_FIELDS));
    expectAll(definitions, ([name, f]) => isNonNullType(types[name]?.type) === !f.nullable);
  });
});
