// Activity logs of copied actions (docs/api.md, Activity log; docs/api.md, Copy trading).
import type { z } from 'zod';
import {
  addressSchema,
  fieldNameSchema,
  isoTimestampSchema,
  paginationQuerySchema,
  paginationSchema,
  protocolIdSchema,
  rangeConditionSchema,
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

/** What a copy trade did. A skipped source position writes nothing (docs/semantics.md). */
export const ACTIVITY_TYPES = [
  'OPEN',
  'CLOSE',
  'INCREASE',
  'DECREASE',
  'LIQUIDATE',
  'STOP_LOSS',
  'TAKE_PROFIT',
] as const;
export const activityTypeSchema = zOneOf(ACTIVITY_TYPES);
export type ActivityType = z.infer<typeof activityTypeSchema>;

/** One copied action. Order and position ids are null when the action failed (`isSuccess` false). */
export const activityLogSchema = zObject({
  id: zNonEmpty(),
  protocol: protocolIdSchema,
  sourceAccount: addressSchema,
  userId: zNonEmpty(),
  copyOrderId: zText().nullable(),
  copyTradeTitle: zText(),
  exchange: zText(),
  indexToken: zText(),
  pair: zText(),
  copyTradeId: zNonEmpty(),
  sourceTxHash: zText(),
  copyWalletId: zNonEmpty(),
  copyWalletName: zText(),
  copyPositionId: zText().nullable(),
  createdAt: isoTimestampSchema,
  // Only for orders placed on a centralized exchange.
  cexOrderId: zText().nullish(),
  price: zNumber(),
  sourcePrice: zNumber(),
  volume: zNumber(),
  leverage: zNumber(),
  isLong: zBool(),
  isSuccess: zBool(),
  isReverse: zBool(),
  type: activityTypeSchema,
  // Copydesk's addition to the contract (docs/copy-trading-api.md): why a failed action failed,
  // e.g. "insufficient balance: needs 100.6 USD, available 50 USD". Only on failed actions, and
  // only from services that say it.
  reason: zText().optional(),
});
export type ActivityLog = z.infer<typeof activityLogSchema>;

/** `sortBy` values of the activity logs page (the service sorts by createdAt by default). */
export const ACTIVITY_SORT_FIELDS = [
  'createdAt',
  'price',
  'volume',
  'leverage',
] as const satisfies readonly (keyof ActivityLog)[];
/** Range fields: the three of docs/api.md (with `in`), plus createdAt for time ranges. */
export const ACTIVITY_RANGE_FIELDS = [
  'sourceAccount',
  'copyTradeId',
  'copyWalletId',
  'createdAt',
] as const satisfies readonly (keyof ActivityLog)[];

/** `POST /activity-logs/page` body. */
export const activityLogsPageBodySchema = zStrict({
  pagination: paginationSchema,
  sortBy: fieldNameSchema(ACTIVITY_SORT_FIELDS).optional(),
  sortType: sortTypeSchema.default('desc'),
  ranges: zList(rangeConditionSchema(ACTIVITY_RANGE_FIELDS)).default([]),
});
export type ActivityLogsPageBodyInput = z.input<typeof activityLogsPageBodySchema>;
export type ActivityLogsPageBody = z.infer<typeof activityLogsPageBodySchema>;

/** `limit`/`offset` may also come in the query string of `/activity-logs/page`. */
export const activityLogsPageQuerySchema = paginationQuerySchema;
