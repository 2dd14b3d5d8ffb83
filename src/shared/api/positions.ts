// Trader positions and orders (docs/api.md, Position, Order; docs/api.md, Pagination and filters).
import { z } from 'zod';
import {
  addressSchema,
  expected,
  isoTimestampSchema,
  pagedFilterShape,
  positionStatusSchema,
  protocolIdSchema,
  windowSchema,
  zBool,
  zCount,
  zList,
  zNonEmpty,
  zNumber,
  zObject,
  zOneOf,
  zStrict,
  zText,
} from './common';

const num = () => zNumber();
// GraphQL extras: only present when selected, and often null.
const extraNum = () => zNumber().nullish();
const extraText = () => zText().nullish();

/** A trader's position. Close fields, `isWin` and `durationInSecond` are null while OPEN. */
export const positionSchema = zObject({
  id: zNonEmpty(),
  account: addressSchema,
  protocol: protocolIdSchema,
  key: zText(),
  logId: num(),
  openBlockNumber: num(),
  closeBlockNumber: num().nullable(),
  openBlockTime: isoTimestampSchema,
  closeBlockTime: isoTimestampSchema.nullable(),
  indexToken: zText(),
  pair: zText(),
  size: num(),
  collateral: num(),
  averagePrice: num(),
  fee: num(),
  funding: num(),
  pnl: num(),
  realisedPnl: num(),
  roi: num(),
  realisedRoi: num(),
  isLong: zBool(),
  isWin: zBool().nullable(),
  isLiquidate: zBool(),
  leverage: num(),
  orderCount: zCount(),
  orderIncreaseCount: zCount(),
  orderDecreaseCount: zCount(),
  durationInSecond: num().nullable(),
  status: positionStatusSchema,
  createdAt: isoTimestampSchema,
  // GraphQL extras (searchTopOpeningPosition, livePosition).
  synthetixPositionId: z.union([zText(), zNumber()], { error: expected('a string or a number') }).nullish(),
  smartAccount: extraText(),
  collateralToken: extraText(),
  reverseIndex: extraNum(),
  collateralInToken: extraNum(),
  lastCollateral: extraNum(),
  lastSizeNumber: extraNum(),
  lastSize: extraNum(),
  lastSizeInToken: extraNum(),
  sizeInToken: extraNum(),
  feeInToken: extraNum(),
  lastFunding: extraNum(),
  fundingInToken: extraNum(),
  txHashes: zList(zText()).nullish(),
  orderIds: zList(zText()).nullish(),
  realisedPnlInToken: extraNum(),
  updatedAt: isoTimestampSchema.nullish(),
  __typename: extraText(),
});
export type Position = z.infer<typeof positionSchema>;

/** Order types (MARGIN_TRANSFERRED moves margin only; it counts in no order count). */
export const ORDER_TYPES = ['OPEN', 'INCREASE', 'DECREASE', 'CLOSE', 'MARGIN_TRANSFERRED'] as const;
export const orderTypeSchema = zOneOf(ORDER_TYPES);
export type OrderType = z.infer<typeof orderTypeSchema>;

/** A trader's order (GraphQL searchOrders). */
export const orderSchema = zObject({
  id: zNonEmpty(),
  account: addressSchema,
  key: zText().nullable(),
  protocol: protocolIdSchema,
  txHash: zText(),
  indexToken: zText(),
  collateralToken: zText().nullable(),
  pair: zText(),
  sizeDeltaNumber: extraNum(),
  sizeNumber: extraNum(),
  collateralDeltaNumber: extraNum(),
  collateralNumber: extraNum(),
  collateralDeltaInTokenNumber: extraNum(),
  sizeDeltaInTokenNumber: extraNum(),
  realisedPnlNumber: extraNum(),
  priceNumber: extraNum(),
  sizeTokenNumber: extraNum(),
  averagePriceNumber: extraNum(),
  feeNumber: extraNum(),
  fundingNumber: extraNum(),
  fundingRateNumber: extraNum(),
  realisedPnl: extraNum(),
  leverage: extraNum(),
  isLong: zBool().nullish(),
  isOpen: zBool().nullish(),
  isClose: zBool().nullish(),
  type: orderTypeSchema,
  logId: num(),
  blockNumber: num(),
  blockTime: isoTimestampSchema,
  createdAt: isoTimestampSchema,
  __typename: extraText(),
});
export type Order = z.infer<typeof orderSchema>;

/** `sortBy` values of the position filter (docs/api.md). */
export const POSITION_SORT_FIELDS = [
  'closeBlockTime',
  'openBlockTime',
  'averagePrice',
  'size',
  'leverage',
  'durationInSecond',
  'orderCount',
  'roi',
  'realisedRoi',
  'pnl',
  'realisedPnl',
] as const satisfies readonly (keyof Position)[];
export type PositionSortField = (typeof POSITION_SORT_FIELDS)[number];

/** Equality `queries` of the position filter (docs/api.md names account, status, pair). */
export const POSITION_QUERY_FIELDS = [
  'account',
  'status',
  'pair',
  'indexToken',
  'isLong',
] as const satisfies readonly (keyof Position)[];

/**
 * `POST /{protocol}/position/filter[/{account}]` body. Real clients also send `account` (the
 * path's, repeated; it must match) and the statistic window as `type` (positions that count in
 * that window: closed in it; FULL adds no condition), so both are accepted (docs/security.md).
 */
export const positionFilterBodySchema = zStrict({
  ...pagedFilterShape({ sortFields: POSITION_SORT_FIELDS, queryFields: POSITION_QUERY_FIELDS }),
  account: addressSchema.optional(),
  type: windowSchema.optional(),
});
export type PositionFilterBodyInput = z.input<typeof positionFilterBodySchema>;
export type PositionFilterBody = z.infer<typeof positionFilterBodySchema>;
