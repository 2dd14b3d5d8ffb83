// Access tokens verified once are remembered by their text (src/service/auth/access-tokens.ts):
// that must change no answer. An expired token is refused at once, a user blocked after their
// token was verified is refused at once, and a token whose text differs (a forged signature, or
// one verified with another secret) is verified afresh.
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginMessage } from '../../src/shared/api/auth';
import { DEFAULT_SERVICE_NAME } from '../../src/shared/profile';
import { signAccessToken, TOKEN_LIFETIME_S, verifyAccessToken } from '../../src/service/auth/access-tokens';
import { postJson, startTestService, type RunningService } from '../support/service';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

async function logIn(): Promise<{ token: string; address: string }> {
  const account = privateKeyToAccount(generatePrivateKey());
  const login = await postJson(`${svc.url}/auth/web3/login`, { address: account.address });
  const time = svc.clock.now().toISOString();
  const sign = await account.signMessage({
    message: loginMessage(DEFAULT_SERVICE_NAME, time, login.body.verifyCode as string),
  });
  const verified = await postJson(`${svc.url}/auth/web3/verify-login`, {
    address: account.address,
    sign,
    time,
  });
  expect(verified.status).toBe(200);
  return { token: verified.body.access_token as string, address: account.address };
}

/** A JWT-or-API-key endpoint that reads nothing else: GraphQL's `{ __typename }`. */
const ask = (token: string) =>
  postJson(
    `${svc.url}/graphql`,
    { query: '{ __typename }', variables: {} },
    { authorization: `Bearer ${token}` },
  );

describe('remembered access tokens', () => {
  it('refuses a token at once when it expires, though it was accepted before', async () => {
    const { token } = await logIn();
    expect((await ask(token)).status).toBe(200);
    expect((await ask(token)).status).toBe(200);
    svc.clock.advance(TOKEN_LIFETIME_S * 1000);
    const expired = await ask(token);
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('UNAUTHORIZED');
    svc.clock.advance(-TOKEN_LIFETIME_S * 1000);
  });

  it('refuses a user blocked after their token was accepted, at once', async () => {
    const { token, address } = await logIn();
    expect((await ask(token)).status).toBe(200);
    svc.service.db.prepare('UPDATE users SET is_blocked = 1 WHERE address = ?').run(address);
    const blocked = await ask(token);
    expect(blocked.status).toBe(403);
    expect(blocked.body.code).toBe('FORBIDDEN');
  });

  it('refuses a forged signature of a payload whose real token was accepted', async () => {
    const { token } = await logIn();
    expect((await ask(token)).status).toBe(200);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const forged = `${header}.${payload}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    expect((await ask(forged)).status).toBe(401);
  });

  it('verifies a token afresh against another secret, and checks expiry on every use', async () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const token = await signAccessToken('secret-one', 'user-1', now);
    expect(await verifyAccessToken('secret-one', token, now)).toBe('user-1');
    expect(await verifyAccessToken('secret-two', token, now)).toBeNull();
    const atExpiry = new Date(now.getTime() + TOKEN_LIFETIME_S * 1000);
    expect(await verifyAccessToken('secret-one', token, atExpiry)).toBeNull();
    expect(await verifyAccessToken('secret-one', token, new Date(atExpiry.getTime() - 1000))).toBe('user-1');
  });
});
