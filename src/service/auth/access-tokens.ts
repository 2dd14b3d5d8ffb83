import { SignJWT, jwtVerify } from 'jose';

/** Tokens last 7 days (docs/api.md). */
export const TOKEN_LIFETIME_S = 7 * 24 * 3600;
const ISSUER = 'copydesk-local-service';

/** Signs an HS256 access token for `userId`, issued at `now`. */
export async function signAccessToken(secret: string, userId: string, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setIssuedAt(iat)
    .setExpirationTime(iat + TOKEN_LIFETIME_S)
    .sign(new TextEncoder().encode(secret));
}

/** Returns the user id of a valid token at `now`, or null for any invalid, expired or foreign token. */
export async function verifyAccessToken(secret: string, token: string, now: Date): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      currentDate: now,
    });
    return typeof payload.sub === 'string' ? payload.sub : null;
  } catch {
    return null;
  }
}
