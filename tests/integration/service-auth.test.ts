import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loginMessage } from '../../src/shared/api/auth';
import { DEFAULT_SERVICE_NAME } from '../../src/shared/profile';
import { postJson, startTestService, type RunningService } from '../support/service';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const newAccount = () => privateKeyToAccount(generatePrivateKey());

async function codeFor(address: string): Promise<string> {
  const { status, body } = await postJson(`${svc.url}/auth/web3/login`, { address });
  expect(status).toBe(200);
  return body.verifyCode as string;
}

async function signedBody(account = newAccount(), time = svc.clock.now().toISOString(), code?: string) {
  const verifyCode = code ?? (await codeFor(account.address));
  const sign = await account.signMessage({ message: loginMessage(DEFAULT_SERVICE_NAME, time, verifyCode) });
  return { address: account.address, sign, time };
}

function expectError(
  res: { status: number; body: Record<string, unknown> },
  status: number,
  code: string,
  mentions?: RegExp,
) {
  expect(res.status).toBe(status);
  expect(Object.keys(res.body).sort()).toEqual(['code', 'error', 'message', 'statusCode']);
  expect(res.body.statusCode).toBe(status);
  expect(res.body.code).toBe(code);
  expect(typeof res.body.message).toBe('string');
  if (mentions) expect(res.body.message).toMatch(mentions);
}

describe('POST /auth/web3/login', () => {
  it('answers a verify code, and a new call leaves the earlier code valid', async () => {
    const account = newAccount();
    const first = await codeFor(account.address);
    expect(first).toMatch(/^\d{6}$/);
    await codeFor(account.address.toLowerCase());
    const earlier = await postJson(
      `${svc.url}/auth/web3/verify-login`,
      await signedBody(account, undefined, first),
    );
    // Anyone may ask for a code for any address: that must not replace the owner's (issue 15).
    expect(earlier.status).toBe(200);
  });

  it.each([
    [{}, /address is required/],
    [{ address: 'not-an-address' }, /^address /],
    [{ address: '0x' + '1'.repeat(40), extra: 1 }, /unknown field.*extra/],
  ])('refuses %j with 400 naming the field', async (body, mentions) => {
    expectError(await postJson(`${svc.url}/auth/web3/login`, body), 400, 'VALIDATION_FAILED', mentions);
  });

  it('refuses a body that is not JSON', async () => {
    expectError(
      await postJson(`${svc.url}/auth/web3/login`, '{"address":'),
      400,
      'VALIDATION_FAILED',
      /JSON/,
    );
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const res = await postJson(`${svc.url}/auth/web3/login`, { address: 'x'.repeat(1024 * 1024 + 10) });
    expectError(res, 413, 'VALIDATION_FAILED', /1 MiB/);
  });
});

describe('POST /auth/web3/verify-login', () => {
  it('logs in with a good signature, creating the user with an embedded wallet', async () => {
    const account = newAccount();
    const res = await postJson(`${svc.url}/auth/web3/verify-login`, await signedBody(account));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      username: account.address,
      role: 'user',
      plan: 0,
      copyTradeQuota: 5,
      isBlocked: false,
      isActivated: true,
      isAddedReferral: false,
    });
    expect(res.body.access_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const wallets = svc.service.db
      .prepare('SELECT * FROM copy_wallets WHERE user_id = ?')
      .all(res.body.id) as { is_embedded: number; balance: number }[];
    expect(wallets).toHaveLength(1);
    expect(wallets[0]).toMatchObject({ is_embedded: 1, balance: 10_000 });

    const again = await postJson(`${svc.url}/auth/web3/verify-login`, await signedBody(account));
    expect(again.body.id).toBe(res.body.id);
  });

  it('accepts a lowercase address and stores it checksummed', async () => {
    const account = newAccount();
    const body = await signedBody(account);
    const res = await postJson(`${svc.url}/auth/web3/verify-login`, {
      ...body,
      address: account.address.toLowerCase(),
    });
    expect(res.status).toBe(200);
    expect(res.body.username).toBe(account.address);
  });

  it('marks a user who came with another user referral code', async () => {
    const referrer = await postJson(`${svc.url}/auth/web3/verify-login`, await signedBody());
    const body = { ...(await signedBody()), referralCode: referrer.body.referralCode, brokerId: 'desk-7' };
    const res = await postJson(`${svc.url}/auth/web3/verify-login`, body);
    expect(res.body.isAddedReferral).toBe(true);
    const row = svc.service.db.prepare('SELECT broker_id FROM users WHERE id = ?').get(res.body.id) as {
      broker_id: string;
    };
    expect(row.broker_id).toBe('desk-7');
  });

  it('refuses a signature by another wallet', async () => {
    const victim = newAccount();
    const attacker = newAccount();
    const time = svc.clock.now().toISOString();
    const code = await codeFor(victim.address);
    const sign = await attacker.signMessage({ message: loginMessage(DEFAULT_SERVICE_NAME, time, code) });
    const res = await postJson(`${svc.url}/auth/web3/verify-login`, { address: victim.address, sign, time });
    expectError(res, 401, 'UNAUTHORIZED', /not a signature/);
  });

  it('refuses a signature of another service name', async () => {
    const account = newAccount();
    const time = svc.clock.now().toISOString();
    const code = await codeFor(account.address);
    const sign = await account.signMessage({ message: loginMessage('Some Other Service', time, code) });
    expectError(
      await postJson(`${svc.url}/auth/web3/verify-login`, { address: account.address, sign, time }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('refuses a reused code', async () => {
    const account = newAccount();
    const body = await signedBody(account);
    expect((await postJson(`${svc.url}/auth/web3/verify-login`, body)).status).toBe(200);
    expectError(await postJson(`${svc.url}/auth/web3/verify-login`, body), 401, 'UNAUTHORIZED', /login code/);
  });

  it('burns nothing on a failed attempt: the owner signs the same code after', async () => {
    const account = newAccount();
    const time = svc.clock.now().toISOString();
    const code = await codeFor(account.address);
    const wrong = await newAccount().signMessage({ message: loginMessage(DEFAULT_SERVICE_NAME, time, code) });
    expectError(
      await postJson(`${svc.url}/auth/web3/verify-login`, { address: account.address, sign: wrong, time }),
      401,
      'UNAUTHORIZED',
    );
    const right = await account.signMessage({ message: loginMessage(DEFAULT_SERVICE_NAME, time, code) });
    expect(
      (await postJson(`${svc.url}/auth/web3/verify-login`, { address: account.address, sign: right, time }))
        .status,
    ).toBe(200);
  });

  it('refuses an expired code (5 minutes), using the service clock', async () => {
    const account = newAccount();
    const code = await codeFor(account.address);
    svc.clock.advance(5 * 60_000 + 1);
    const body = await signedBody(account, svc.clock.now().toISOString(), code);
    expectError(await postJson(`${svc.url}/auth/web3/verify-login`, body), 401, 'UNAUTHORIZED', /expire/);
  });

  it('accepts a code just before it expires', async () => {
    const account = newAccount();
    const code = await codeFor(account.address);
    svc.clock.advance(5 * 60_000 - 1000);
    const body = await signedBody(account, svc.clock.now().toISOString(), code);
    expect((await postJson(`${svc.url}/auth/web3/verify-login`, body)).status).toBe(200);
  });

  it.each([
    ['6 minutes in the past', -6 * 60_000],
    ['6 minutes in the future', 6 * 60_000],
  ])('refuses a time %s', async (_label, offset) => {
    const body = await signedBody(newAccount(), new Date(svc.clock.ms + offset).toISOString());
    expectError(
      await postJson(`${svc.url}/auth/web3/verify-login`, body),
      401,
      'UNAUTHORIZED',
      /time must be within 5 minutes/,
    );
  });

  it.each([
    ['no sign', (b: Record<string, unknown>) => ({ ...b, sign: undefined }), /sign is required/],
    ['sign not hex', (b: Record<string, unknown>) => ({ ...b, sign: 'hello' }), /^sign /],
    ['time not ISO', (b: Record<string, unknown>) => ({ ...b, time: 'yesterday' }), /^time /],
    [
      'address missing',
      (b: Record<string, unknown>) => ({ ...b, address: undefined }),
      /address is required/,
    ],
    ['unknown field', (b: Record<string, unknown>) => ({ ...b, admin: true }), /unknown field.*admin/],
  ])('refuses a malformed body (%s) with 400 naming the field', async (_label, mutate, mentions) => {
    const body = mutate(await signedBody());
    expectError(
      await postJson(`${svc.url}/auth/web3/verify-login`, body),
      400,
      'VALIDATION_FAILED',
      mentions,
    );
  });
});

describe('GET /pairs/tokens and unknown paths', () => {
  it('lists the tokens of at least eight protocols, without credentials', async () => {
    const res = await fetch(`${svc.url}/pairs/tokens`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      data: Record<string, { symbol: string; indexTokens: string[]; isForex: boolean }[]>;
    };
    const protocols = Object.keys(body.data);
    expect(protocols.length).toBeGreaterThanOrEqual(8);
    for (const protocol of protocols) expect(protocol).toMatch(/^[A-Z][A-Z0-9_]*$/);
    const btc = body.data.NOVA_ARB?.find((t) => t.symbol === 'BTC');
    expect(btc).toEqual({
      symbol: 'BTC',
      indexTokens: [expect.stringMatching(/^0x[0-9a-fA-F]{40}$/)],
      isForex: false,
    });
    expect(body.data.NOVA_ARB?.some((t) => t.isForex)).toBe(true);
  });

  it('answers an unknown path with the decided 404 body', async () => {
    const res = await fetch(`${svc.url}/no/such/thing`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      code: 'NOT_FOUND',
      message: expect.stringContaining('/no/such/thing'),
    });
  });
});
