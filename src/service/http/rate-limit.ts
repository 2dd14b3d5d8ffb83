import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ServiceError } from './errors';
import { TokenBuckets } from './token-buckets';
import { addressBlock } from './address-block';
import { bearerToken, headerValue, type CredentialContext } from '../auth/credentials';
import { apiKeyId } from '../auth/api-keys';
import { verifyAccessToken } from '../auth/access-tokens';

/**
 * A token bucket per identity, docs/api.md, Limits: the user a valid token names, the API key a
 * known key is, else the client's address block (address-block.ts: an IPv6 client by its /64)
 * when there is no credential or one that does not verify (junk in the header cannot buy a fresh
 * bucket). `perSecond` tokens refill each second up to `burst`; a request without a token answers
 * 429 with `Retry-After` in whole seconds. The identity is
 * resolved here, in an onRequest hook that never rejects for a bad credential: the route's own
 * preHandler answers 401 for that, after the request has paid for its try.
 */
export function installRateLimit(
  app: FastifyInstance,
  ctx: CredentialContext,
  options: { perSecond: number; burst: number; now: () => number },
): void {
  const buckets = new TokenBuckets(options.perSecond, options.burst);
  app.addHook('onRequest', async (request) => {
    const key = await callerKey(ctx, request);
    callers.set(request, key);
    const now = options.now();
    if (buckets.held(key, now) < 1) {
      const waitS = buckets.waitS(key, 1, now);
      throw new ServiceError(
        'RATE_LIMITED',
        `too many requests: at most ${options.perSecond} per second; retry after ${waitS} s`,
        {
          headers: { 'retry-after': String(waitS) },
        },
      );
    }
    buckets.take(key, 1, now);
  });
}

/** Each request's caller as the rate limit named it, for the search budget (search-budget.ts). */
const callers = new WeakMap<FastifyRequest, string>();

/** Who `request` is as the rate limit counts it: `u:`user, `k:`API key id, else `a:`address. */
export function callerOf(request: FastifyRequest): string {
  return callers.get(request) ?? addressOf(request);
}

/** The block of addresses `request` comes from (address-block.ts), as an account's name: `a:`block. */
export const addressOf = (request: FastifyRequest): string => `a:${addressBlock(request.ip)}`;

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
  return addressOf(request);
}
