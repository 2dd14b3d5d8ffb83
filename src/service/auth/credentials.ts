import type { FastifyRequest } from 'fastify';
import { ServiceError } from '../http/errors';
import type { ServiceContext } from '../http/context';
import { isKnownApiKey } from './api-keys';
import { verifyAccessToken } from './access-tokens';
import { findUserById, type UserRecord } from '../users/users';

/** Who is calling: a logged-in user, or a holder of an API key (which carries no user). */
export type Caller = { kind: 'user'; user: UserRecord } | { kind: 'apiKey' };

/** Which credentials an endpoint takes (docs/api.md, Authentication). */
export type Accepts = 'jwt' | 'apiKey' | 'jwtOrApiKey';

/** What checking credentials needs: the store, the token secret and the clock. */
export type CredentialContext = Pick<ServiceContext, 'db' | 'secret' | 'config'>;

/**
 * Checks the request's credentials against what the endpoint accepts. A missing or invalid one
 * answers 401; an API key on a JWT-only endpoint answers 401 too, because it names no user.
 */
export async function authenticate(
  ctx: CredentialContext,
  request: FastifyRequest,
  accepts: Accepts,
): Promise<Caller> {
  const token = bearerToken(request.headers.authorization);
  const apiKey = headerValue(request.headers['x-api-key']);
  if (token !== null && accepts !== 'apiKey') {
    const userId = await verifyAccessToken(ctx.secret, token, ctx.config.now());
    const user = userId ? findUserById(ctx.db, userId) : null;
    if (!user)
      throw new ServiceError('UNAUTHORIZED', 'the Authorization token is invalid or expired; log in again');
    if (user.isBlocked)
      throw new ServiceError(
        'FORBIDDEN',
        `this account is blocked${user.blockNote ? `: ${user.blockNote}` : ''}`,
      );
    return { kind: 'user', user };
  }
  if (apiKey !== null && accepts !== 'jwt') {
    if (!isKnownApiKey(ctx.db, apiKey))
      throw new ServiceError('UNAUTHORIZED', 'the x-api-key header holds an unknown API key');
    return { kind: 'apiKey' };
  }
  throw new ServiceError('UNAUTHORIZED', missingMessage(accepts));
}

function missingMessage(accepts: Accepts): string {
  if (accepts === 'jwt')
    return 'this endpoint needs a logged-in user: send Authorization with the access_token of verify-login';
  if (accepts === 'apiKey') return 'this endpoint needs an API key in the x-api-key header';
  return 'this endpoint needs credentials: an Authorization token or an x-api-key header';
}

/** `Authorization: <token>` or `Authorization: Bearer <token>` (both decided). */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const value = header.trim().replace(/^Bearer\s+/i, '');
  return value.length > 0 ? value : null;
}

export function headerValue(value: string | string[] | undefined): string | null {
  const first = Array.isArray(value) ? value[0] : value;
  return first && first.trim().length > 0 ? first.trim() : null;
}
