import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CopyTrade } from '../../src/shared/api/copy-trades';
import type { CopyWallet, EmbeddedCopyWallet, Withdrawal } from '../../src/shared/api/copy-wallets';
import { DEFAULT_VENUE, embeddedWalletsPath, exchangeOf, withdrawPath } from '../../src/shared/profile';
import { addClosedPosition, addPosition, balanceOf, BTC, setBalance, setMark } from '../support/copy-rows';
import {
  call,
  expectError,
  FIXED_NOW,
  loginCopyUser,
  startCopyService,
  tradeBody,
  type CopyUser,
} from '../support/copy-session';
import type { RunningService } from '../support/service';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const DESTINATION = '0x9999999999999999999999999999999999999999';
const NOW_ISO = new Date(FIXED_NOW).toISOString();
const HASH = /^0x[0-9a-f]{64}$/;

let svc: RunningService;
beforeAll(async () => {
  svc = await startCopyService();
});
afterAll(() => svc.close());

const wallets = (user: CopyUser) =>
  call<CopyWallet[]>(svc, 'GET', '/copy-wallets/list', { token: user.token });
const embedded = (user: CopyUser) =>
  call<EmbeddedCopyWallet[]>(svc, 'GET', embeddedWalletsPath(DEFAULT_VENUE), { token: user.token });
const withdraw = (user: CopyUser, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  call<Withdrawal>(svc, 'POST', withdrawPath(DEFAULT_VENUE), {
    token: user.token,
    body: { sourceAddress: user.embeddedWallet, destinationAddress: DESTINATION, ...body },
    headers,
  });
const newTrade = async (user: CopyUser) =>
  (await call<CopyTrade>(svc, 'POST', '/copy-trades', { token: user.token, body: tradeBody(svc, user) }))
    .body;

/** A second, non-embedded wallet written straight into the store (no endpoint creates one). */
function addApiWallet(user: CopyUser, balance: number): string {
  const id = `api-wallet-${user.id}`;
  svc.service.db
    .prepare(
      `INSERT INTO copy_wallets (id, user_id, name, exchange, api_key, is_embedded, verified, balance, created_at)
       VALUES (?, ?, 'Venue API wallet', ?, 'venue-key-1', 0, 0, ?, ?)`,
    )
    .run(id, user.id, exchangeOf(DEFAULT_VENUE), balance, new Date(FIXED_NOW + 1000).toISOString());
  return id;
}

describe('GET /copy-wallets/list', () => {
  it("answers a bare array of the caller's wallets with the venue object under the venue's name", async () => {
    const user = await loginCopyUser(svc);
    const res = await wallets(user);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: user.walletId,
        userId: user.id,
        name: 'Embedded wallet',
        exchange: exchangeOf(DEFAULT_VENUE),
        [DEFAULT_VENUE]: {
          apiKey: null,
          embeddedWallet: user.embeddedWallet,
          isEmbedded: true,
          verified: true,
        },
        balance: 10_000,
        availableBalance: 10_000,
        createdAt: NOW_ISO,
      },
    ]);
  });

  it('subtracts the margin of open copy positions of each wallet from its available balance', async () => {
    const user = await loginCopyUser(svc);
    const apiWallet = addApiWallet(user, 500);
    const trade = await newTrade(user);
    const db = svc.service.db;
    const owner = { userId: user.id, copyTradeId: trade.id, copyWalletId: user.walletId };
    addPosition(db, owner, { margin: 100 });
    addPosition(db, owner, { margin: 50.25 });
    addClosedPosition(db, owner, 5, svc.clock.ms - HOUR, { margin: 70 });
    addPosition(db, { ...owner, copyWalletId: apiWallet }, { margin: 120 });
    const res = await wallets(user);
    expect(res.body.map((w) => [w.id, w.balance, w.availableBalance])).toEqual([
      [user.walletId, 10_000, 9849.75],
      [apiWallet, 500, 380],
    ]);
    expect(res.body[1]?.[DEFAULT_VENUE]).toEqual({
      apiKey: 'venue-key-1',
      embeddedWallet: null,
      isEmbedded: false,
      verified: false,
    });
  });
});

describe(`GET ${embeddedWalletsPath(DEFAULT_VENUE)}`, () => {
  it('lists only embedded wallets, with pnl24h and totalPnl at the service clock', async () => {
    const user = await loginCopyUser(svc);
    const apiWallet = addApiWallet(user, 500);
    const trade = await newTrade(user);
    const db = svc.service.db;
    const owner = { userId: user.id, copyTradeId: trade.id, copyWalletId: user.walletId };
    const now = svc.clock.ms;
    addClosedPosition(db, owner, 12, now - HOUR);
    addClosedPosition(db, owner, -2, now - DAY); // the 24 h window includes its start
    addClosedPosition(db, owner, 30, now - DAY - 1);
    addPosition(db, owner, { pnl: -1, margin: 100, entryPrice: 50_000, sizeTokens: 0.02, indexToken: BTC });
    addClosedPosition(db, { ...owner, copyWalletId: apiWallet }, 999, now - HOUR);
    setMark(db, BTC, 51_000);

    const res = await embedded(user);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: user.walletId,
        userId: user.id,
        name: 'Embedded wallet',
        exchange: exchangeOf(DEFAULT_VENUE),
        [DEFAULT_VENUE]: {
          apiKey: null,
          embeddedWallet: user.embeddedWallet,
          isEmbedded: true,
          verified: true,
        },
        balance: 10_000,
        availableBalance: 9900,
        createdAt: NOW_ISO,
        pnl24h: 10,
        // 12 − 2 + 30 realised, + (51 000 − 50 000) × 0.02 unrealised.
        totalPnl: 60,
      },
    ]);

    svc.clock.advance(1);
    setMark(db, BTC, 49_500);
    expect((await embedded(user)).body[0]).toMatchObject({ pnl24h: 12, totalPnl: 30 });
    svc.clock.ms = FIXED_NOW;
  });

  it('answers zeros for a wallet without copy positions', async () => {
    const user = await loginCopyUser(svc);
    expect((await embedded(user)).body[0]).toMatchObject({
      pnl24h: 0,
      totalPnl: 0,
      availableBalance: 10_000,
    });
  });
});

describe(`POST ${withdrawPath(DEFAULT_VENUE)}`, () => {
  it('settles a withdrawal: fees, amounts, hashes and times exact; the balance drops by amount', async () => {
    const user = await loginCopyUser(svc);
    const res = await withdraw(user, { amount: 100 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      userId: user.id,
      embeddedWallet: user.embeddedWallet,
      data: {
        destinationAddress: DESTINATION,
        chargeFeeTime: NOW_ISO,
        chargeFeeTxHash: expect.stringMatching(HASH),
        withdrawTime: NOW_ISO,
        txHash: expect.stringMatching(HASH),
        amount: 100,
        feeAmount: 1,
        [`${DEFAULT_VENUE}WithdrawFeeAmount`]: 1,
        [`${DEFAULT_VENUE}TransferFeeAmount`]: 1,
        withdrawAmount: 98,
        receiveAmount: 97,
      },
      type: 'WITHDRAW',
      status: 'SUCCESSFUL',
      createdAt: NOW_ISO,
    });
    expect(res.body.data.txHash).not.toBe(res.body.data.chargeFeeTxHash);
    expect((await wallets(user)).body[0]).toMatchObject({ balance: 9900, availableBalance: 9900 });
  });

  it('accepts exactly the minimum (base 5 + three fees of 1) and refuses a cent less, naming it', async () => {
    const user = await loginCopyUser(svc);
    expectError(
      await withdraw(user, { amount: 7.99 }),
      400,
      'VALIDATION_FAILED',
      /^amount must be at least the minimum withdrawal 8 /,
    );
    const res = await withdraw(user, { amount: 8 });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ amount: 8, withdrawAmount: 6, receiveAmount: 5 });
    expect(balanceOf(svc.service.db, user.walletId)).toBe(9992);
  });

  it('refuses more than the available balance with 409, leaving the balance as it was', async () => {
    const user = await loginCopyUser(svc);
    const trade = await newTrade(user);
    addPosition(
      svc.service.db,
      { userId: user.id, copyTradeId: trade.id, copyWalletId: user.walletId },
      { margin: 9000 },
    );
    expectError(
      await withdraw(user, { amount: 1000.01 }),
      409,
      'INSUFFICIENT_BALANCE',
      /available balance 1000/,
    );
    expect(balanceOf(svc.service.db, user.walletId)).toBe(10_000);
    expect((await withdraw(user, { amount: 1000 })).status).toBe(201);
    expect((await wallets(user)).body[0]).toMatchObject({ balance: 9000, availableBalance: 0 });
  });

  it("answers 404 for a source that is not the caller's embedded wallet", async () => {
    const user = await loginCopyUser(svc);
    const other = await loginCopyUser(svc);
    expectError(
      await withdraw(user, { amount: 10, sourceAddress: other.embeddedWallet }),
      404,
      'NOT_FOUND',
      /sourceAddress/,
    );
    expectError(await withdraw(user, { amount: 10, sourceAddress: DESTINATION }), 404, 'NOT_FOUND');
    expect(balanceOf(svc.service.db, other.walletId)).toBe(10_000);
    // The caller's own address matches in any letter case.
    expect(
      (await withdraw(user, { amount: 10, sourceAddress: user.embeddedWallet.toLowerCase() })).status,
    ).toBe(201);
  });

  it.each([
    ['a bad destination', { destinationAddress: 'bc1-not-evm' }, /^destinationAddress must be a 0x address/],
    ['no destination', { destinationAddress: undefined }, /^destinationAddress is required/],
    ['amount 0', { amount: 0 }, /^amount must be greater than 0/],
    ['a negative amount', { amount: -5 }, /^amount must be greater than 0/],
    ['amount as text', { amount: '10' }, /^amount must be a number/],
    ['amount with 7 decimals', { amount: 10.0000001 }, /^amount must have at most 6 decimal places/],
    ['an unknown field', { amount: 10, memo: 'x' }, /unknown field "memo"/],
  ])('refuses %s with 400 naming the field', async (_name, patch, mentions) => {
    const user = await loginCopyUser(svc);
    const body: Record<string, unknown> = {
      sourceAddress: user.embeddedWallet,
      destinationAddress: DESTINATION,
      amount: 10,
      ...patch,
    };
    for (const [key, value] of Object.entries(patch)) if (value === undefined) delete body[key];
    const res = await call(svc, 'POST', withdrawPath(DEFAULT_VENUE), { token: user.token, body });
    expectError(res, 400, 'VALIDATION_FAILED', mentions);
    expect(balanceOf(svc.service.db, user.walletId)).toBe(10_000);
  });

  it('never overdraws: of 20 concurrent withdrawals against a balance for 10, exactly 10 succeed', async () => {
    const user = await loginCopyUser(svc);
    setBalance(svc.service.db, user.walletId, 80);
    const answers = await Promise.all(Array.from({ length: 20 }, () => withdraw(user, { amount: 8 })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(10);
    for (const answer of refused) expectError(answer, 409, 'INSUFFICIENT_BALANCE');
    expect(balanceOf(svc.service.db, user.walletId)).toBe(0);
    expect((await wallets(user)).body[0]).toMatchObject({ balance: 0, availableBalance: 0 });
    const rows = svc.service.db
      .prepare('SELECT COUNT(*) AS n FROM withdrawals WHERE user_id = ?')
      .get(user.id);
    expect(rows).toEqual({ n: 10 });
  });

  it('pays once for retries with the same Idempotency-Key, and refuses the key for another body', async () => {
    const user = await loginCopyUser(svc);
    const key = { 'idempotency-key': 'payout-2026-03-02' };
    const first = await withdraw(user, { amount: 25 }, key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await withdraw(user, { amount: 25 }, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const concurrent = await Promise.all(
      Array.from({ length: 5 }, () => withdraw(user, { amount: 25 }, key)),
    );
    for (const answer of concurrent) expect(answer.body).toEqual(first.body);
    expect(balanceOf(svc.service.db, user.walletId)).toBe(9975);

    expectError(
      await withdraw(user, { amount: 26 }, key),
      409,
      'CONFLICT',
      /Idempotency-Key "payout-2026-03-02"/,
    );
    expectError(
      await withdraw(
        user,
        { amount: 25, destinationAddress: '0x8888888888888888888888888888888888888888' },
        key,
      ),
      409,
      'CONFLICT',
    );
    // Keys belong to their user: another user's same key is a new withdrawal.
    const other = await loginCopyUser(svc);
    expect((await withdraw(other, { amount: 25 }, key)).headers.get('idempotent-replayed')).toBeNull();
    // Without a key, each call pays.
    expect((await withdraw(user, { amount: 25 })).status).toBe(201);
    expect(balanceOf(svc.service.db, user.walletId)).toBe(9950);
  });

  it('refuses a malformed Idempotency-Key', async () => {
    const user = await loginCopyUser(svc);
    const res = await withdraw(user, { amount: 10 }, { 'idempotency-key': 'k'.repeat(256) });
    expectError(res, 400, 'VALIDATION_FAILED', /^Idempotency-Key must be 1 to 255 visible ASCII characters/);
  });
});

describe('configured venue and fees', () => {
  let acme: RunningService;
  beforeAll(async () => {
    acme = await startCopyService({
      venue: 'acme',
      withdrawFees: { service: 0.5, transfer: 0.25, withdraw: 1.5 },
      withdrawBase: 5,
    });
  });
  afterAll(() => acme.close());

  it('names paths, the venue object and the fee fields after the venue, with its fees', async () => {
    const user = await loginCopyUser(acme);
    const list = await call<CopyWallet[]>(acme, 'GET', '/copy-wallets/acme-embedded/list', {
      token: user.token,
    });
    expect(list.body[0]).toMatchObject({ exchange: 'ACME', acme: { isEmbedded: true } });
    expect(list.body[0]).not.toHaveProperty(DEFAULT_VENUE);
    expect((await call(acme, 'GET', embeddedWalletsPath(DEFAULT_VENUE), { token: user.token })).status).toBe(
      404,
    );

    const body = { sourceAddress: user.embeddedWallet, destinationAddress: DESTINATION, amount: 7.25 };
    const res = await call<Withdrawal>(acme, 'POST', '/embedded-wallets/acme/withdraw', {
      token: user.token,
      body,
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      destinationAddress: DESTINATION,
      chargeFeeTime: NOW_ISO,
      chargeFeeTxHash: expect.stringMatching(HASH),
      withdrawTime: NOW_ISO,
      txHash: expect.stringMatching(HASH),
      amount: 7.25,
      feeAmount: 0.5,
      acmeWithdrawFeeAmount: 1.5,
      acmeTransferFeeAmount: 0.25,
      withdrawAmount: 6.5,
      receiveAmount: 5,
    });
    const below = await call(acme, 'POST', '/embedded-wallets/acme/withdraw', {
      token: user.token,
      body: { ...body, amount: 7.24 },
    });
    expectError(
      below,
      400,
      'VALIDATION_FAILED',
      /minimum withdrawal 7\.25 \(5 plus fees 0\.5 \+ 0\.25 \+ 1\.5\)/,
    );
  });
});
