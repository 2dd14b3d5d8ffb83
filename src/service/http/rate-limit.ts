import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from './errors';
import { bearerToken, headerValue, type CredentialContext } from '../auth/credentials';
import { apiKeyId } from '../auth/api-keys';
import { verifyAccessToken } from '../auth/access-tokens';

interface Bucket {
  tokens: number;
  updatedMs: number;
}

/**
 * A token bucket per identity, docs/api.md, Limits: the user a valid token names, the API key a
 * known key is, else the client's address (no credential, or one that does not verify: junk in
 * the header cannot buy a fresh bucket). `perSecond` tokens refill each second up to `burst`; a
 * request without a token answers 429 with `Retry-After` in whole seconds. The identity is
 * resolved here, in an onRequest hook that never rejects for a bad credential: the route's own
 * preHandler answers 401 for that, after the request has paid for its try.
 */
export function installRateLimit(
  app: FastifyInstance,
  ctx: CredentialContext,
  options: { perSecond: number; burst: number; now: () => number },
): void {
  const buckets = new Map<string, Bucket>();
  app.addHook('onRequest', async (request) => {
    const key = await callerKey(ctx, request);
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

/** Who is asking: the verified user or API key, else the client's address. */
async function callerKey(ctx: CredentialContext, request: FastifyRequest): Promise<string> {
  const token = bearerToken(request.headers.authorization);
  if (token !== null) {
    const userId = await verifyAccessToken(ctx.secret, token, ctx.config.now());
    if (userId !== null) return `u:${userId}`;
  }
  const apiKey = headerValue(request.headers['x-api-key']);
  // A known key's bucket is named by its stored id: the key itself is never kept as a name.
  const keyId = apiKey === null ? null : apiKeyId(ctx.db, apiKey);
  if (keyId !== null) return `k:${keyId}`;
  return `a:${request.ip}`;
}
