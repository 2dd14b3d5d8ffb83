// Copy positions and their orders (docs/api.md, Copy position, Copy order; docs/api.md, Copy trading).
import { z } from 'zod';
import {
  POSITION_STATUSES,
  PAGE_LIMIT_DEFAULT,
  addressSchema,
  fieldNameSchema,
  fromQueryText,
  isoTimestampSchema,
  limitSchema,
  offsetSchema,
  positionStatusSchema,
  protocolIdSchema,
  sortTypeSchema,
  zBool,
  zList,
  zNonEmpty,
  zNumber,
  zObject,
  zOneOf,
  zStrict,
  zText,
} from './common';
import type { PositionStatus } from './common';

/** Why a copy position closed. */
export const CLOSE_TYPES = [
  'COPY_TRADE',
  'MANUAL',
  'FORCE_CLOSE',
  'TAKE_PROFIT',
  'STOP_LOSS',
  'LIQUIDATE',
  'OVERWRITE',
] as const;
export const closeTypeSchema = zOneOf(CLOSE_TYPES);
export type CloseType = z.infer<typeof closeTypeSchema>;

/** A number written as text; these fields stay strings on the wire (docs/api.md). */
export const numericTextSchema = zText().regex(/^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$/, {
  error: 'must be a number written as text',
});

/** A position opened by a copy trade. `closeType` is null while OPEN; unset exits are null. */
export const copyPositionSchema = zObject({
  id: zNonEmpty(),
  userId: zNonEmpty(),
  copyTradeId: zNonEmpty(),
  copyAccount: addressSchema,
  positionIndex: zNumber(),
  copyPositionIndex: zNumber(),
  indexToken: zText(),
  identifyKey: zText(),
  pair: zText(),
  key: zText(),
  sourceOrderTxHashes: zList(zText()),
  sourceSizeDelta: numericTextSchema,
  sizeDelta: numericTextSchema,
  sourceInitialVol: numericTextSchema,
  totalSizeDelta: zNumber(),
  initialVol: zNumber(),
  isLong: zBool(),
  isReverse: zBool(),
  entryPrice: zNumber(),
  leverage: zNumber(),
  stopLossPrice: zNumber().nullable(),
  stopLossAmount: zNumber().nullable(),
  takeProfitPrice: zNumber().nullable(),
  takeProfitAmount: zNumber().nullable(),
  pnl: zNumber(),
  realisedPnl: zNumber(),
  funding: zNumber(),
  fee: zNumber(),
  closeType: closeTypeSchema.nullable(),
  status: positionStatusSchema,
  protocol: protocolIdSchema,
  exchange: zText(),
  lastOrderAt: isoTimestampSchema,
  createdAt: isoTimestampSchema,
  copyTradeTitle: zText(),
});
export type CopyPosition = z.infer<typeof copyPositionSchema>;

/** An order of a copy position; `isIncrease` false means it shrank the position. */
export const copyOrderSchema = zObject({
  price: zNumber(),
  size: zNumber(),
  pnl: zNumber(),
  realisedPnl: zNumber(),
  fee: zNumber(),
  isLong: zBool(),
  isIncrease: zBool(),
  protocol: protocolIdSchema,
  txHash: zText(),
  createdAt: isoTimestampSchema,
});
export type CopyOrder = z.infer<typeof copyOrderSchema>;

/** `sort_by` values of the copy positions page. */
export const COPY_POSITION_SORT_FIELDS = [
  'createdAt',
  'lastOrderAt',
  'pnl',
  'realisedPnl',
  'fee',
  'entryPrice',
  'leverage',
  'initialVol',
  'totalSizeDelta',
] as const satisfies readonly (keyof CopyPosition)[];

/** `status` query value: OPEN, CLOSE or both comma-joined; parsed to a list. */
export const positionStatusListSchema = zText().transform((text, ctx): PositionStatus[] => {
  const parts = text.split(',').map((s) => s.trim());
  if (!parts.every((p): p is PositionStatus => (POSITION_STATUSES as readonly string[]).includes(p))) {
    ctx.addIssue({ code: 'custom', message: 'must be OPEN, CLOSE or OPEN,CLOSE' });
    return z.NEVER;
  }
  return [...new Set(parts)];
});

/** `POST /copy-positions/page` query string. */
export const copyPositionsPageQuerySchema = zStrict({
  limit: fromQueryText(limitSchema).default(PAGE_LIMIT_DEFAULT),
  offset: fromQueryText(offsetSchema).default(0),
  status: positionStatusListSchema.optional(),
  isLong: zOneOf(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  sort_by: fieldNameSchema(COPY_POSITION_SORT_FIELDS).optional(),
  sort_type: sortTypeSchema.default('desc'),
});
export type CopyPositionsPageQueryInput = z.input<typeof copyPositionsPageQuerySchema>;
export type CopyPositionsPageQuery = z.infer<typeof copyPositionsPageQuerySchema>;

/** `POST /copy-positions/page` optional JSON body. */
export const copyPositionsPageBodySchema = zStrict({
  copyTradeIds: zList(zNonEmpty()).optional(),
  traders: zList(addressSchema).optional(),
  copyWalletId: zNonEmpty().optional(),
  copyWalletIds: zList(zNonEmpty()).optional(),
});
export type CopyPositionsPageBody = z.infer<typeof copyPositionsPageBodySchema>;
