import { ORDER_WIRE_FIELDS } from '../../shared/api/order-fields';
import { RANKING_KEYS, STATISTIC_NUMERIC_FIELDS } from '../../shared/api/statistics';
import { POSITION_WIRE_FIELDS } from '../../shared/api/position-fields';
import type { FilterableFieldType, StoredField } from '../../shared/api/stored-fields';

/** How a wire field is stored: its SQL expression and how filter values are coerced to it. */
export interface FieldSpec {
  sql: string;
  /** `address`: text whose 0x form is stored checksummed, so filters normalise it first. */
  type: FilterableFieldType;
}
/** Wire field name → storage, for one resource. Only listed fields may be filtered or sorted. */
export type FieldMap = Readonly<Record<string, FieldSpec>>;

const num = (sql: string): FieldSpec => ({ sql, type: 'number' });
const str = (sql: string): FieldSpec => ({ sql, type: 'string' });
const bool = (sql: string): FieldSpec => ({ sql, type: 'boolean' });
const time = (sql: string): FieldSpec => ({ sql, type: 'time' });
const address = (sql: string): FieldSpec => ({ sql, type: 'address' });

/** The filterable fields of a shared definition, each reading its column. */
function filterableFields(fields: Readonly<Record<string, StoredField>>): FieldMap {
  return Object.fromEntries(
    Object.entries(fields).flatMap(([name, { column, type, filterable }]) =>
      filterable && column !== null && type !== 'list' ? [[name, { sql: column, type }]] : [],
    ),
  );
}

/** Position fields (REST filter and GraphQL position queries), from src/shared/api/position-fields.ts. */
export const positionFields: FieldMap = filterableFields(POSITION_WIRE_FIELDS);

/** Order fields (GraphQL searchOrders), from src/shared/api/order-fields.ts. */
export const orderFields: FieldMap = filterableFields(ORDER_WIRE_FIELDS);

/** Statistic fields: numeric ones are columns named as on the wire; rankings are `rk_<key>`. */
export const statisticFields: FieldMap = {
  ...Object.fromEntries(STATISTIC_NUMERIC_FIELDS.map((f) => [f, num(`"${f}"`)])),
  unrealisedPnl: num('"unrealisedPnl"'),
  id: str('id'),
  account: address('account'),
  type: str('type'),
  protocol: str('protocol'),
  isOpenPosition: bool('is_open_position'),
  lastTradeAt: time('last_trade_at_ms'),
  statisticAt: time('statistic_at_ms'),
  createdAt: time('created_at_ms'),
  updatedAt: time('updated_at_ms'),
  ...Object.fromEntries(RANKING_KEYS.map((k) => [`ranking.${k}`, num(`"rk_${k}"`)])),
};
