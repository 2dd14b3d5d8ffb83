// A local service that listens while it still prepares its data (issue #20 item 1; docs/service.md,
// "Listening while preparing"): what `GET /health` and the 503 answers say about the preparation.
import type { z } from 'zod';
import { zCount, zNonEmpty, zObject, zText } from './common';

/** How far the preparation got: `done` of `total` units of `step` (e.g. `positions` 2000/5000). */
export const preparingProgressSchema = zObject({
  step: zNonEmpty(40),
  done: zCount(),
  total: zCount(),
});
export type PreparingProgress = z.infer<typeof preparingProgressSchema>;

/**
 * The body of a 503 answered while the service prepares its data: the decided error body with
 * code `PREPARING`, plus where the preparation is, so that a client can tell progress from a stall.
 */
export const preparingErrorBodySchema = zObject({
  statusCode: zCount(),
  error: zText(),
  message: zText(),
  code: zText(),
  preparing: preparingProgressSchema,
});
export type PreparingErrorBody = z.infer<typeof preparingErrorBodySchema>;

/** `GET /health`: `preparing` is there only while the service prepares its data. */
export const healthResponseSchema = zObject({
  status: zText(),
  preparing: preparingProgressSchema.optional(),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/** Seconds a client is asked to wait (`Retry-After`) before asking a preparing service again. */
export const PREPARING_RETRY_AFTER_S = 1;
