import { z } from 'zod';
import {
  addressSchema,
  evmAddressSchema,
  protocolIdSchema,
  zBool,
  zList,
  zNonEmpty,
  zNumber,
  zOneOf,
  zStrict,
} from '../../shared/api/common';
import { ORDER_TYPES } from '../../shared/api/positions';

/** A time as ISO 8601 text or epoch milliseconds. */
const timeSchema = z.union([zNonEmpty(40), zNumber()]).transform((value, ctx) => {
  const ms = typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms))
    ctx.addIssue({ code: 'custom', message: 'must be an ISO 8601 time or epoch milliseconds' });
  return ms;
});
const nonNegative = () => zNumber().min(0, { error: 'must be at least 0' });

/** One trader order handed to the sandbox; sizes are USD notional, as in the Order resource. */
export const sandboxOrderSchema = zStrict({
  id: zNonEmpty(200),
  account: addressSchema,
  protocol: protocolIdSchema,
  indexToken: zNonEmpty(100),
  isLong: zBool(),
  type: zOneOf(ORDER_TYPES),
  sizeDeltaNumber: nonNegative(),
  collateralDeltaNumber: nonNegative(),
  priceNumber: zNumber().gt(0, { error: 'must be more than 0' }),
  blockTime: timeSchema,
  txHash: zNonEmpty(200),
  isLiquidate: zBool().optional(),
});
export type SandboxOrder = z.infer<typeof sandboxOrderSchema>;

/** `POST /sandbox/orders`. */
export const sandboxOrdersBodySchema = zStrict({
  orders: zList(sandboxOrderSchema)
    .min(1, { error: 'must not be empty' })
    .max(1000, { error: 'must have at most 1000 orders' }),
});

/** `POST /sandbox/prices`. */
export const sandboxPricesBodySchema = zStrict({
  prices: zList(
    zStrict({
      indexToken: zNonEmpty(100),
      price: zNumber().gt(0, { error: 'must be more than 0' }),
      time: timeSchema,
    }),
  )
    .min(1, { error: 'must not be empty' })
    .max(10_000, { error: 'must have at most 10000 prices' }),
});

/** `POST /sandbox/deposit`: credits an embedded wallet (by its address). */
export const sandboxDepositBodySchema = zStrict({
  address: evmAddressSchema,
  amount: zNumber().gt(0, { error: 'must be more than 0' }).max(1e12, { error: 'must be at most 1e12' }),
});
