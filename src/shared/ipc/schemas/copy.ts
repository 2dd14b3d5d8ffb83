import { z } from 'zod';
import { zNonEmpty, zStrict, paged } from '../../api/common';
import {
  copyTradeCreateSchema,
  copyTradeListBodySchema,
  copyTradeListItemSchema,
  copyTradeStatusSchema,
  copyTradeUpdateSchema,
} from '../../api/copy-trades';
import {
  copyOrderSchema,
  copyPositionSchema,
  copyPositionsPageBodySchema,
  copyPositionsPageQuerySchema,
} from '../../api/copy-positions';
import { activityLogSchema, activityLogsPageBodySchema } from '../../api/activity-logs';
import { cached } from './freshness';

const id = zStrict({ id: zNonEmpty() });

export const copyTradesListRequestSchema = copyTradeListBodySchema;
export const copyTradesListSchema = cached(z.array(copyTradeListItemSchema));
export const copyTradeCreateRequestSchema = copyTradeCreateSchema;
export const copyTradeUpdateRequestSchema = zStrict({ id: zNonEmpty(), changes: copyTradeUpdateSchema });
/** `copyTrades:setStatus`: start (RUNNING) or stop (STOPPED) a copy trade. */
export const copyTradeSetStatusRequestSchema = zStrict({ id: zNonEmpty(), status: copyTradeStatusSchema });

/** `copyPositions:page`: the query string's filters and the body's id lists in one request. */
export const copyPositionsPageRequestSchema = zStrict({
  query: copyPositionsPageQuerySchema.prefault({}),
  body: copyPositionsPageBodySchema.optional(),
});
export const copyPositionsPageSchema = cached(paged(copyPositionSchema));
export const copyPositionIdSchema = id;
export const copyOrdersSchema = cached(z.array(copyOrderSchema));

export const activityLogsRequestSchema = activityLogsPageBodySchema;
export const activityLogsPageSchema = cached(paged(activityLogSchema));
