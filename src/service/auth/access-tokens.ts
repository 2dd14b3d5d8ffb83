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

/**
 * Returns the user id of a valid token at `now`, or null for any invalid, expired or foreign token.
 *
 * A token verified once is remembered by its text (and the secret it was verified with) until it
 * expires: the signature, algorithm and issuer of a given text never change, and its expiry is
 * checked again on every use, so an expired token is refused at once. Verifying cost ~0.1 ms of
 * CPU, twice a request (the rate limit and the route each ask); remembered, under 1 µs. A user
 * blocked meanwhile is still refused at once: the caller reads the user on every request
 * (credentials.ts).
 */
export async function verifyAccessToken(secret: string, token: string, now: Date): Promise<string | null> {
  const nowS = Math.floor(now.getTime() / 1000);
  const known = verified.get(token);
  if (known !== undefined && known.secret === secret)
    return known.expS !== undefined && known.expS <= nowS ? null : known.userId;
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      currentDate: now,
    });
    if (typeof payload.sub !== 'string') return null;
    // A token valid only from a later time (`nbf`; ours carry none) is verified every time.
    if (payload.nbf === undefined) remember(token, { secret, userId: payload.sub, expS: payload.exp });
    return payload.sub;
  } catch {
    return null;
  }
}

interface VerifiedToken {
  secret: string;
  userId: string;
  expS: number | undefined;
}

/** Verified tokens by text, the oldest forgotten first past VERIFIED_MAX. */
const verified = new Map<string, VerifiedToken>();
const VERIFIED_MAX = 10_000;

function remember(token: string, entry: VerifiedToken): void {
  verified.set(token, entry);
  if (verified.size > VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
}
