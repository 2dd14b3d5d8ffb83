import {
  addressSchema,
  fieldNameSchema,
  paged,
  positionStatusSchema,
  protocolIdSchema,
  sortTypeSchema,
  zInt,
  zNonEmpty,
  zStrict,
} from '../../api/common';
import { orderSchema, positionSchema, POSITION_SORT_FIELDS } from '../../api/positions';
import { traderStatisticsByWindowSchema } from '../../api/statistics';
import { cached } from './freshness';

export const traderKeySchema = zStrict({ protocol: protocolIdSchema, account: addressSchema });

/** `trader:statistics`: the trader's ranked record per window. */
export const traderStatisticsSchema = cached(traderStatisticsByWindowSchema);

/** `trader:positions`: the trader's positions, newest first unless sorted otherwise. */
export const traderPositionsRequestSchema = zStrict({
  protocol: protocolIdSchema,
  account: addressSchema,
  status: positionStatusSchema.optional(),
  sortBy: fieldNameSchema(POSITION_SORT_FIELDS).optional(),
  sortType: sortTypeSchema.default('desc'),
  limit: zInt()
    .min(1, { error: 'must be at least 1' })
    .max(500, { error: 'must be at most 500' })
    .default(50),
  offset: zInt().min(0, { error: 'must be at least 0' }).default(0),
});
export const positionsPageSchema = cached(paged(positionSchema));

/** `trader:orders`: a trader's orders, or one position's when `key` (the position key) is given. */
export const traderOrdersRequestSchema = zStrict({
  protocol: protocolIdSchema,
  account: addressSchema,
  key: zNonEmpty().optional(),
  limit: zInt()
    .min(1, { error: 'must be at least 1' })
    .max(1000, { error: 'must be at most 1000' })
    .default(100),
});
export const ordersPageSchema = cached(paged(orderSchema));
