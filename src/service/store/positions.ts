import { ORDER_WIRE_FIELDS } from '../../shared/api/order-fields';
import { POSITION_WIRE_FIELDS } from '../../shared/api/position-fields';
import type { Order, Position } from '../../shared/api/positions';
import type { ServiceDb } from './database';
import { wireMapping } from './wire-rows';

/** A `positions` row as stored. */
export interface PositionRow {
  id: string;
  account: string;
  protocol: string;
  key: string;
  log_id: number;
  open_block_number: number;
  close_block_number: number | null;
  open_time_ms: number;
  close_time_ms: number | null;
  index_token: string;
  collateral_token: string | null;
  pair: string;
  size: number;
  size_in_token: number;
  collateral: number;
  average_price: number;
  fee: number;
  funding: number;
  realised_pnl: number;
  pnl: number;
  roi: number;
  realised_roi: number;
  leverage: number;
  is_long: number;
  is_win: number | null;
  is_liquidate: number;
  order_count: number;
  order_increase_count: number;
  order_decrease_count: number;
  duration_s: number | null;
  status: 'OPEN' | 'CLOSE';
  tx_hashes: string;
  created_at_ms: number;
  updated_at_ms: number;
}

/** An `orders` row as stored. */
export interface OrderRow {
  id: string;
  position_id: string;
  account: string;
  protocol: string;
  key: string | null;
  tx_hash: string;
  index_token: string;
  collateral_token: string | null;
  pair: string;
  type: Order['type'];
  is_long: number;
  size_delta: number;
  size: number;
  size_delta_in_token: number | null;
  size_in_token: number | null;
  collateral_delta: number;
  collateral: number;
  price: number;
  average_price: number;
  realised_pnl: number;
  fee: number;
  funding: number;
  leverage: number | null;
  log_id: number;
  block_number: number;
  block_time_ms: number;
  created_at_ms: number;
}

const positionWire = wireMapping<PositionRow>(POSITION_WIRE_FIELDS, (field) => !field.graphqlOnly);
const positionGraphqlWire = wireMapping<PositionRow>(POSITION_WIRE_FIELDS);

/** The Position resource of a row (REST), as src/shared/api/position-fields.ts defines each field. */
export const positionToWire = (row: PositionRow): Position => positionWire(row) as Position;

/** The Position of GraphQL's searches: the REST resource plus its extras, most null locally. */
export const positionToGraphql = (row: PositionRow): Position => positionGraphqlWire(row) as Position;

const orderWire = wireMapping<OrderRow>(ORDER_WIRE_FIELDS);

/** The Order resource of a row, as src/shared/api/order-fields.ts defines each field. */
export const orderToWire = (row: OrderRow): Order => orderWire(row) as Order;

/** The columns of `positions`, in one order every writer uses. */
export const POSITION_COLUMNS = [
  'id',
  'account',
  'protocol',
  'key',
  'log_id',
  'open_block_number',
  'close_block_number',
  'open_time_ms',
  'close_time_ms',
  'index_token',
  'collateral_token',
  'pair',
  'size',
  'size_in_token',
  'collateral',
  'average_price',
  'fee',
  'funding',
  'realised_pnl',
  'pnl',
  'roi',
  'realised_roi',
  'leverage',
  'is_long',
  'is_win',
  'is_liquidate',
  'order_count',
  'order_increase_count',
  'order_decrease_count',
  'duration_s',
  'status',
  'tx_hashes',
  'created_at_ms',
  'updated_at_ms',
] as const satisfies readonly (keyof PositionRow)[];

/** The columns of `orders`. */
export const ORDER_COLUMNS = [
  'id',
  'position_id',
  'account',
  'protocol',
  'key',
  'tx_hash',
  'index_token',
  'collateral_token',
  'pair',
  'type',
  'is_long',
  'size_delta',
  'size',
  'size_delta_in_token',
  'size_in_token',
  'collateral_delta',
  'collateral',
  'price',
  'average_price',
  'realised_pnl',
  'fee',
  'funding',
  'leverage',
  'log_id',
  'block_number',
  'block_time_ms',
  'created_at_ms',
] as const satisfies readonly (keyof OrderRow)[];

const upsertSql = (table: string, columns: readonly string[]) =>
  `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
   ON CONFLICT(id) DO UPDATE SET ${columns
     .filter((c) => c !== 'id')
     .map((c) => `${c} = excluded.${c}`)
     .join(', ')}`;

/**
 * The row's values in `columns` order. Bound by position: better-sqlite3 binds a named object
 * by looking every name up, which cost a quarter of the venue feed's backfill (bench:feed).
 */
function valuesOf<Row>(columns: readonly (keyof Row)[]): (row: Row) => unknown[] {
  return (row) => {
    const values = new Array<unknown>(columns.length);
    for (let i = 0; i < columns.length; i += 1) values[i] = row[columns[i] as keyof Row];
    return values;
  };
}

/** Prepared writers for positions and orders (insert or replace by id). */
export function positionWriters(db: ServiceDb) {
  const position = db.prepare(upsertSql('positions', POSITION_COLUMNS));
  const order = db.prepare(upsertSql('orders', ORDER_COLUMNS));
  const positionValues = valuesOf<PositionRow>(POSITION_COLUMNS);
  const orderValues = valuesOf<OrderRow>(ORDER_COLUMNS);
  return {
    position: (row: PositionRow) => position.run(positionValues(row)),
    order: (row: OrderRow) => order.run(orderValues(row)),
  };
}
