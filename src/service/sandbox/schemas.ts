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

/** The bounds of the sandbox's bodies (docs/service.md, Sandbox; docs/security.md). */
export const SANDBOX_BOUNDS = {
  /** Times: 2000-01-01 up to 2100-01-01, epoch milliseconds. */
  timeMs: { min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) },
  /** Sizes and collateral of an order, USD. */
  usd: { max: 1e12 },
  /** Prices, USD per token. */
  price: { max: 1e12 },
  orders: { max: 1_000 },
  prices: { max: 10_000 },
  deposit: { max: 1e12 },
} as const;
const B = SANDBOX_BOUNDS;

/** A time as ISO 8601 text or epoch milliseconds, between 2000 and 2100. */
const timeSchema = z.union([zNonEmpty(40), zNumber()]).transform((value, ctx) => {
  const ms = typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms))
    ctx.addIssue({ code: 'custom', message: 'must be an ISO 8601 time or epoch milliseconds' });
  else if (ms < B.timeMs.min || ms > B.timeMs.max)
    ctx.addIssue({ code: 'custom', message: 'must be between 2000-01-01 and 2100-01-01' });
  return ms;
});
const usd = () =>
  zNumber()
    .min(0, { error: 'must be at least 0' })
    .max(B.usd.max, { error: `must be at most ${B.usd.max}` });
const price = () =>
  zNumber()
    .gt(0, { error: 'must be more than 0' })
    .max(B.price.max, { error: `must be at most ${B.price.max}` });

/** One trader order handed to the sandbox; sizes are USD notional, as in the Order resource. */
export const sandboxOrderSchema = zStrict({
  id: zNonEmpty(200),
  account: addressSchema,
  protocol: protocolIdSchema,
  indexToken: zNonEmpty(100),
  isLong: zBool(),
  type: zOneOf(ORDER_TYPES),
  sizeDeltaNumber: usd(),
  collateralDeltaNumber: usd(),
  priceNumber: price(),
  blockTime: timeSchema,
  txHash: zNonEmpty(200),
  isLiquidate: zBool().optional(),
});
export type SandboxOrder = z.infer<typeof sandboxOrderSchema>;

/** `POST /sandbox/orders`. */
export const sandboxOrdersBodySchema = zStrict({
  orders: zList(sandboxOrderSchema)
    .min(1, { error: 'must not be empty' })
    .max(B.orders.max, { error: `must have at most ${B.orders.max} orders` }),
});

/** `POST /sandbox/prices`. */
export const sandboxPricesBodySchema = zStrict({
  prices: zList(
    zStrict({
      indexToken: zNonEmpty(100),
      price: price(),
      time: timeSchema,
    }),
  )
    .min(1, { error: 'must not be empty' })
    .max(B.prices.max, { error: `must have at most ${B.prices.max} prices` }),
});

/** `POST /sandbox/deposit`: credits an embedded wallet (by its address). */
export const sandboxDepositBodySchema = zStrict({
  address: evmAddressSchema,
  amount: zNumber()
    .gt(0, { error: 'must be more than 0' })
    .max(B.deposit.max, { error: 'must be at most 1e12' }),
});
