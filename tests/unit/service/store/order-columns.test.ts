// The service writes an order's wire fields in two places: `orderToWire` (a stored row to the Order
// resource) and `orderFields` (which column a filter or sort on a wire field reads). These fail if
// the two name a field's column differently, or if either names a column `orders` does not have.
import { describe, expect, it } from 'vitest';
import { orderSchema } from '../../../../src/shared/api/positions';
import { orderFields } from '../../../../src/service/store/fields';
import { ORDER_COLUMNS, orderToWire, type OrderRow } from '../../../../src/service/store/positions';

/** A row whose every column holds a value no other column holds. */
function distinctRow(): OrderRow {
  const row = Object.fromEntries(ORDER_COLUMNS.map((c, i) => [c, 1000 + i])) as unknown as Record<
    string,
    unknown
  >;
  for (const text of [
    'id',
    'position_id',
    'account',
    'protocol',
    'key',
    'tx_hash',
    'index_token',
    'collateral_token',
    'pair',
  ])
    row[text] = `${text}-value`;
  row.type = 'INCREASE';
  row.is_long = 1;
  return row as unknown as OrderRow;
}

/** What the wire shows for a column's stored value, by the field's kind. */
function wireValue(type: string, stored: unknown): unknown {
  if (type === 'time') return new Date(stored as number).toISOString();
  if (type === 'boolean') return stored === 1;
  return stored;
}

describe("the service's order columns", () => {
  const row = distinctRow();
  const wire = orderToWire(row) as unknown as Record<string, unknown>;

  it('every filterable order field is a field of the Order resource', () => {
    for (const field of Object.keys(orderFields)) expect(Object.keys(orderSchema.shape)).toContain(field);
  });

  it('every filterable order field reads a column of `orders`', () => {
    for (const [field, spec] of Object.entries(orderFields))
      expect(ORDER_COLUMNS as readonly string[], field).toContain(spec.sql);
  });

  it('a filter reads the column the resource shows for that field', () => {
    for (const [field, spec] of Object.entries(orderFields)) {
      const stored = (row as unknown as Record<string, unknown>)[spec.sql];
      expect(wire[field], `${field} ← ${spec.sql}`).toEqual(wireValue(spec.type, stored));
    }
  });
});
