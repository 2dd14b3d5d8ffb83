// The Position resource's wire fields and the `positions` columns they are stored in: the REST
// resource, then the extras GraphQL adds. The service's row-to-wire mappings (REST and GraphQL),
// its filterable position fields and the GraphQL Position type all derive from this; the
// `satisfies` makes a field of the Position schema without a definition (or the reverse) a
// compile error.
import type { Position } from './positions';
import { graphqlOnly, storedField, UNKNOWN_NUMBER, unknownValue, type StoredField } from './stored-fields';

const text = <C extends string>(column: C) => storedField(column, 'string', false);
const number = <C extends string>(column: C) => storedField(column, 'number', false);
const optNumber = <C extends string>(column: C) => storedField(column, 'number', true);
const bool = <C extends string>(column: C) => storedField(column, 'boolean', false);
/** A GraphQL extra read from a column, not offered to filters. */
const extraNumber = <C extends string>(column: C) => graphqlOnly(storedField(column, 'number', true, false));

/** Every wire field of a position, in the order the wire object lists them. */
export const POSITION_WIRE_FIELDS = {
  id: text('id'),
  account: storedField('account', 'address', false),
  protocol: text('protocol'),
  key: text('key'),
  logId: number('log_id'),
  openBlockNumber: number('open_block_number'),
  closeBlockNumber: optNumber('close_block_number'),
  openBlockTime: storedField('open_time_ms', 'time', false),
  closeBlockTime: storedField('close_time_ms', 'time', true),
  indexToken: text('index_token'),
  pair: text('pair'),
  size: number('size'),
  collateral: number('collateral'),
  averagePrice: number('average_price'),
  fee: number('fee'),
  funding: number('funding'),
  pnl: number('pnl'),
  realisedPnl: number('realised_pnl'),
  roi: number('roi'),
  realisedRoi: number('realised_roi'),
  isLong: bool('is_long'),
  isWin: storedField('is_win', 'boolean', true),
  isLiquidate: bool('is_liquidate'),
  leverage: number('leverage'),
  orderCount: number('order_count'),
  orderIncreaseCount: number('order_increase_count'),
  orderDecreaseCount: number('order_decrease_count'),
  durationInSecond: optNumber('duration_s'),
  status: text('status'),
  createdAt: storedField('created_at_ms', 'time', false),
  // GraphQL extras (searchTopOpeningPosition, livePosition); most stay null in the local world.
  synthetixPositionId: graphqlOnly(unknownValue('string')),
  smartAccount: graphqlOnly(unknownValue('string')),
  collateralToken: graphqlOnly(storedField('collateral_token', 'string', true)),
  reverseIndex: graphqlOnly(UNKNOWN_NUMBER),
  collateralInToken: graphqlOnly(UNKNOWN_NUMBER),
  lastCollateral: extraNumber('collateral'),
  lastSizeNumber: extraNumber('size'),
  lastSize: extraNumber('size'),
  lastSizeInToken: extraNumber('size_in_token'),
  sizeInToken: extraNumber('size_in_token'),
  feeInToken: graphqlOnly(UNKNOWN_NUMBER),
  lastFunding: extraNumber('funding'),
  fundingInToken: graphqlOnly(UNKNOWN_NUMBER),
  txHashes: graphqlOnly(storedField('tx_hashes', 'list', true, false)),
  orderIds: graphqlOnly(unknownValue('list')),
  realisedPnlInToken: graphqlOnly(UNKNOWN_NUMBER),
  updatedAt: graphqlOnly(storedField('updated_at_ms', 'time', true)),
} as const satisfies Record<Exclude<keyof Position, '__typename'>, StoredField>;
