import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from './errors';

interface Bucket {
  tokens: number;
  updatedMs: number;
}

/**
 * A token bucket per credential (or per address when anonymous), decisions.md Limits: `perSecond`
 * tokens refill each second up to `burst`; a request without a token answers 429 with
 * `Retry-After` in whole seconds.
 */
export function installRateLimit(
  app: FastifyInstance,
  options: { perSecond: number; burst: number; now: () => number },
): void {
  const buckets = new Map<string, Bucket>();
  app.addHook('onRequest', async (request) => {
    const key = callerKey(request);
    const now = options.now();
    const bucket = refill(buckets.get(key), now, options);
    if (bucket.tokens < 1) {
      const waitS = Math.max(1, Math.ceil((1 - bucket.tokens) / options.perSecond));
      buckets.set(key, bucket);
      throw new ServiceError(
        'RATE_LIMITED',
        `too many requests: at most ${options.perSecond} per second; retry after ${waitS} s`,
        {
          headers: { 'retry-after': String(waitS) },
        },
      );
    }
    bucket.tokens -= 1;
    buckets.set(key, bucket);
    if (buckets.size > 10_000) forgetFullBuckets(buckets, now, options);
  });
}

function refill(
  bucket: Bucket | undefined,
  now: number,
  options: { perSecond: number; burst: number },
): Bucket {
  if (!bucket) return { tokens: options.burst, updatedMs: now };
  const elapsedS = Math.max(0, now - bucket.updatedMs) / 1000;
  return { tokens: Math.min(options.burst, bucket.tokens + elapsedS * options.perSecond), updatedMs: now };
}

/** Buckets that have refilled completely carry no state worth keeping. */
function forgetFullBuckets(
  buckets: Map<string, Bucket>,
  now: number,
  options: { perSecond: number; burst: number },
): void {
  for (const [key, bucket] of buckets)
    if (refill(bucket, now, options).tokens >= options.burst) buckets.delete(key);
}

/** The credential a request carries (hashed, never kept in clear), else its address. */
function callerKey(request: FastifyRequest): string {
  const credential = request.headers.authorization ?? request.headers['x-api-key'];
  const value = Array.isArray(credential) ? credential[0] : credential;
  if (value) return `c:${createHash('sha256').update(value).digest('base64url').slice(0, 22)}`;
  return `a:${request.ip}`;
}
