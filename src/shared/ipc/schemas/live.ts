import type { z } from 'zod';
import { protocolIdSchema, zInt, zList, zNonEmpty, zNumber, zOneOf, zStrict } from '../../api/common';

/**
 * Filters shared by the three live feeds (`live:top`, `live:positions`, `live:orders`):
 * protocols (all when empty), pair, side, minimum size in USD.
 */
export const liveFeedRequestSchema = zStrict({
  protocols: zList(protocolIdSchema).max(16, { error: 'must have at most 16 entries' }).default([]),
  pair: zNonEmpty(40).optional(),
  side: zOneOf(['BOTH', 'LONG', 'SHORT']).default('BOTH'),
  minSize: zNumber().min(0, { error: 'must be at least 0' }).optional(),
  limit: zInt()
    .min(1, { error: 'must be at least 1' })
    .max(1000, { error: 'must be at most 1000' })
    .default(100),
});
export type LiveFeedRequest = z.input<typeof liveFeedRequestSchema>;
