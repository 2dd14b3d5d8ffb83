import { z } from 'zod';

/**
 * How fresh a cached read is (docs/architecture.md, Reads go cache-first). Every read channel answers
 * `{data, freshness}`; when it answered from the cache it refreshes in the background and pushes
 * the new value as a `data:fresh` event under the same request key.
 */
export const freshnessSchema = z.object({
  /** When the service produced this data (ISO). */
  fetchedAt: z.string(),
  /** True when the answer came from the local cache rather than a call made for this request. */
  fromCache: z.boolean(),
  /** True when the service could not be reached to refresh it: the data is the last one known. */
  stale: z.boolean(),
});
export type Freshness = z.infer<typeof freshnessSchema>;

/** `{data, freshness}` around a read channel's answer. */
export const cached = <T extends z.ZodType>(data: T) => z.object({ data, freshness: freshnessSchema });
export type Cached<T> = { data: T; freshness: Freshness };
