// The Order resource's wire fields and the `orders` columns they are stored in. The service's
// row-to-wire mapping, its filterable order fields and the GraphQL Order type all derive from this;
// the `satisfies` makes a field of the Order schema without a definition (or the reverse) a
// compile error. The renderer's table columns (./order-columns.ts) pick their fields from Order.
import type { Order } from './positions';
import { storedField, UNKNOWN_NUMBER, type StoredField } from './stored-fields';

const text = <C extends string>(column: C) => storedField(column, 'string', false);
const optText = <C extends string>(column: C) => storedField(column, 'string', true);
const optNumber = <C extends string>(column: C) => storedField(column, 'number', true);
const time = <C extends string>(column: C) => storedField(column, 'time', false);
/** Stored, but never offered to filters (kept so: the filterable list is part of the contract). */
const unfilterableNumber = <C extends string>(column: C) => storedField(column, 'number', true, false);
/** Whether the order's type is `type`, read from the type column. */
const typeIs = (type: Order['type']): StoredField<'type'> => ({
  ...storedField('type', 'boolean', true, false),
  equals: type,
});

/** Every wire field of an order, in the order the wire object lists them. */
export const ORDER_WIRE_FIELDS = {
  id: text('id'),
  account: storedField('account', 'address', false),
  key: optText('key'),
  protocol: text('protocol'),
  txHash: text('tx_hash'),
  indexToken: text('index_token'),
  collateralToken: optText('collateral_token'),
  pair: text('pair'),
  sizeDeltaNumber: optNumber('size_delta'),
  sizeNumber: optNumber('size'),
  collateralDeltaNumber: optNumber('collateral_delta'),
  collateralNumber: optNumber('collateral'),
  collateralDeltaInTokenNumber: UNKNOWN_NUMBER,
  sizeDeltaInTokenNumber: unfilterableNumber('size_delta_in_token'),
  realisedPnlNumber: optNumber('realised_pnl'),
  priceNumber: optNumber('price'),
  sizeTokenNumber: unfilterableNumber('size_in_token'),
  averagePriceNumber: optNumber('average_price'),
  feeNumber: optNumber('fee'),
  fundingNumber: optNumber('funding'),
  fundingRateNumber: UNKNOWN_NUMBER,
  // Deployments send the realised PnL under either name; the local service sends both.
  realisedPnl: optNumber('realised_pnl'),
  leverage: optNumber('leverage'),
  isLong: storedField('is_long', 'boolean', true),
  isOpen: typeIs('OPEN'),
  isClose: typeIs('CLOSE'),
  type: text('type'),
  logId: storedField('log_id', 'number', false),
  blockNumber: storedField('block_number', 'number', false),
  blockTime: time('block_time_ms'),
  createdAt: time('created_at_ms'),
} as const satisfies Record<Exclude<keyof Order, '__typename'>, StoredField>;
