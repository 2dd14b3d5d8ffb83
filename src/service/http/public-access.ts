import type { FastifyRequest } from 'fastify';
import { authenticate, bearerToken, headerValue } from '../auth/credentials';
import type { ServiceContext } from './context';

/**
 * The credential check of the trader reads a browser makes logged out: the `/public/...` statistic
 * endpoints, and the trader endpoints outside the spec that the real web client calls beside them
 * (docs/real-clients.md). They take a JWT or an API key, as docs/api.md's table asks; with
 * `--public-anonymous` they also answer a request that carries no credential at all, which the
 * rate limit then counts by the client's address. A credential that is sent is still checked: a
 * bad one answers 401 rather than being ignored.
 */
export function publicReadAccess(ctx: ServiceContext): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    if (ctx.config.publicAnonymous && !carriesCredential(request)) return;
    await authenticate(ctx, request, 'jwtOrApiKey');
  };
}

function carriesCredential(request: FastifyRequest): boolean {
  return (
    bearerToken(request.headers.authorization) !== null || headerValue(request.headers['x-api-key']) !== null
  );
}
