// An order's and a position's wire fields are each defined once (src/shared/api/order-fields.ts,
// position-fields.ts); the service's row-to-wire mappings, its filterable fields and the GraphQL
// types derive from them. These fail if a definition and its zod schema disagree, if a definition
// names a column the table does not have, or if any derived place shows a field differently.
import { isNonNullType, type GraphQLObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ORDER_WIRE_FIELDS } from '../../../../src/shared/api/order-fields';
import { POSITION_WIRE_FIELDS } from '../../../../src/shared/api/position-fields';
import { orderSchema, positionSchema } from '../../../../src/shared/api/positions';
import type { StoredField } from '../../../../src/shared/api/stored-fields';
import { graphqlSchema } from '../../../../src/service/graphql/schema';
import { orderFields, positionFields, type FieldMap } from '../../../../src/service/store/fields';
import {
  ORDER_COLUMNS,
  orderToWire,
  POSITION_COLUMNS,
  positionToGraphql,
  positionToWire,
  type OrderRow,
  type PositionRow,
} from '../../../../src/service/store/positions';
import { expectAll } from '../../../support/expect-all';

type Wire = Record<string, unknown>;

/** One resource: its definition and every place derived from it. */
interface Resource {
  name: string;
  fields: Readonly<Record<string, StoredField>>;
  schema: z.ZodObject;
  columns: readonly string[];
  /** Values a column must hold to be valid on the wire (enums); others get distinct values. */
  fixed: Record<string, unknown>;
  /** REST's mapping (the GraphQL one where there is no REST resource). */
  toWire: (row: never) => unknown;
  toGraphql: (row: never) => unknown;
  filterable: FieldMap;
  graphqlType: string;
}

const RESOURCES: Resource[] = [
  {
    name: 'order',
    fields: ORDER_WIRE_FIELDS,
    schema: orderSchema,
    columns: ORDER_COLUMNS,
    fixed: { type: 'OPEN' },
    toWire: (row: OrderRow) => orderToWire(row),
    toGraphql: (row: OrderRow) => orderToWire(row),
    filterable: orderFields,
    graphqlType: 'Order',
  },
  {
    name: 'position',
    fields: POSITION_WIRE_FIELDS,
    schema: positionSchema,
    columns: POSITION_COLUMNS,
    fixed: { status: 'CLOSE', tx_hashes: '["0xaa","0xbb"]' },
    toWire: (row: PositionRow) => positionToWire(row),
    toGraphql: (row: PositionRow) => positionToGraphql(row),
    filterable: positionFields,
    graphqlType: 'Position',
  },
];

/** A row whose every column holds a value no other column holds, of the kind its fields read. */
function distinctRow(resource: Resource): Wire {
  const typeOf = (column: string) =>
    Object.values(resource.fields).find((f) => f.column === column && f.equals === undefined)?.type;
  return Object.fromEntries(
    resource.columns.map((column, i) => {
      if (column in resource.fixed) return [column, resource.fixed[column]];
      const type = typeOf(column);
      if (type === 'address') return [column, `0x${String(i).padStart(40, '0')}`];
      if (type === 'string') return [column, `${column.toUpperCase()}_VALUE`];
      if (type === 'boolean') return [column, 1];
      return [column, 1_000 + i];
    }),
  );
}

/** What the wire shows for a field, as its definition says. */
function expectedWire(field: StoredField, row: Wire): unknown {
  if (field.column === null) return null;
  const stored = row[field.column];
  if (field.equals !== undefined) return stored === field.equals;
  if (field.type === 'time') return new Date(stored as number).toISOString();
  if (field.type === 'boolean') return stored === 1;
  if (field.type === 'list') return JSON.parse(stored as string);
  return stored;
}

describe.each(RESOURCES)("the $name's wire fields", (resource) => {
  const definitions = Object.entries(resource.fields);
  const row = distinctRow(resource);
  const wire = resource.toWire(row as never) as Wire;
  const graphql = resource.toGraphql(row as never) as Wire;
  const shape = resource.schema.shape as Record<string, z.ZodType>;

  it('define every field of the schema, and only those', () => {
    const schemaFields = Object.keys(shape).filter((f) => f !== '__typename');
    expect(Object.keys(resource.fields).sort()).toEqual(schemaFields.sort());
  });

  it('read only columns of the table', () => {
    expectAll(definitions, ([, f]) => f.column === null || resource.columns.includes(f.column));
  });

  it('say null is allowed exactly where the schema allows it', () => {
    expectAll(definitions, ([name, f]) => shape[name]!.safeParse(null).success === f.nullable);
  });

  it('are what the REST mapping shows, field by field, in a valid resource', () => {
    expect(resource.schema.strict().parse(wire)).toEqual(wire);
    const rest = definitions.filter(([, f]) => !f.graphqlOnly);
    expect(Object.keys(wire)).toEqual(rest.map(([name]) => name));
    expectAll(rest, ([name, f]) => JSON.stringify(wire[name]) === JSON.stringify(expectedWire(f, row)));
  });

  it("are what GraphQL's mapping shows, extras included", () => {
    expect(resource.schema.strict().parse(graphql)).toEqual(graphql);
    expect(Object.keys(graphql)).toEqual(Object.keys(resource.fields));
    expectAll(
      definitions,
      ([name, f]) => JSON.stringify(graphql[name]) === JSON.stringify(expectedWire(f, row)),
    );
  });

  it('make the filterable fields, each reading the column the resource shows', () => {
    const filterable = definitions.filter(([, f]) => f.filterable && f.column !== null);
    expect(Object.keys(resource.filterable)).toEqual(filterable.map(([name]) => name));
    expectAll(Object.entries(resource.filterable), ([name, spec]) => {
      const field = resource.fields[name]!;
      return (
        spec.sql === field.column && spec.type === field.type && graphql[name] === expectedWire(field, row)
      );
    });
  });

  it('are the GraphQL type, non-null where the schema says so', () => {
    const type = graphqlSchema.getType(resource.graphqlType) as GraphQLObjectType | undefined;
    const types = type?.getFields() ?? {};
    expect(Object.keys(types)).toEqual(Object.keys(resource.fields));
    expectAll(definitions, ([name, f]) => isNonNullType(types[name]?.type) === !f.nullable);
  });
});
