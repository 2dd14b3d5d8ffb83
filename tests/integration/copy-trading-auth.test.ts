import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityLog } from '../../src/shared/api/activity-logs';
import type { Paged } from '../../src/shared/api/common';
import type { CopyPosition } from '../../src/shared/api/copy-positions';
import type { CopyTrade } from '../../src/shared/api/copy-trades';
import type { CopyWallet } from '../../src/shared/api/copy-wallets';
import { DEFAULT_VENUE, embeddedWalletsPath, withdrawPath } from '../../src/shared/profile';
import { addLog, addOrder, addPosition } from '../support/copy-rows';
import {
  apiKeyOf,
  call,
  expectError,
  loginCopyUser,
  startCopyService,
  tradeBody,
  type CopyUser,
} from '../support/copy-session';
import type { RunningService } from '../support/service';

let svc: RunningService;
let alice: CopyUser;
let bob: CopyUser;
let aliceTrade: CopyTrade;
let alicePosition: string;

beforeAll(async () => {
  svc = await startCopyService();
  alice = await loginCopyUser(svc);
  bob = await loginCopyUser(svc);
  aliceTrade = (
    await call<CopyTrade>(svc, 'POST', '/copy-trades', { token: alice.token, body: tradeBody(svc, alice) })
  ).body;
  const owner = { userId: alice.id, copyTradeId: aliceTrade.id, copyWalletId: alice.walletId };
  alicePosition = addPosition(svc.service.db, owner).id;
  addOrder(svc.service.db, alicePosition, alice.id, svc.clock.ms);
  addLog(svc.service.db, owner, svc.clock.ms);
});
afterAll(() => svc.close());

/** Every endpoint of copy trading, with a body that would succeed for Alice. */
const endpoints = (): [string, string, unknown][] => [
  ['POST', '/copy-trades', tradeBody(svc, alice)],
  ['PUT', `/copy-trades/${aliceTrade.id}`, { title: 'renamed' }],
  ['POST', '/copy-trades/list', {}],
  ['GET', '/copy-wallets/list', undefined],
  ['GET', embeddedWalletsPath(DEFAULT_VENUE), undefined],
  [
    'POST',
    withdrawPath(DEFAULT_VENUE),
    { sourceAddress: alice.embeddedWallet, destinationAddress: alice.address, amount: 10 },
  ],
  ['POST', '/copy-positions/page', {}],
  ['GET', `/copy-positions/${alicePosition}/orders`, undefined],
  ['POST', '/activity-logs/page', {}],
];

describe('credentials on every copy-trading endpoint', () => {
  it('answers 401 without credentials', async () => {
    for (const [method, path, body] of endpoints()) {
      expectError(await call(svc, method, path, { body }), 401, 'UNAUTHORIZED', /logged-in user/);
    }
  });

  it('answers 401 to an API key: these endpoints are JWT only', async () => {
    const key = apiKeyOf(svc);
    for (const [method, path, body] of endpoints()) {
      const res = await call(svc, method, path, { body, headers: { 'x-api-key': key } });
      expectError(res, 401, 'UNAUTHORIZED', /logged-in user/);
    }
  });

  it('answers 401 to a token that is not one of ours', async () => {
    for (const [method, path, body] of endpoints()) {
      expectError(await call(svc, method, path, { body, token: 'x.y.z' }), 401, 'UNAUTHORIZED');
    }
  });

  it('serves Alice with her JWT, plain or as a Bearer token', async () => {
    for (const [method, path, body] of endpoints()) {
      const res = await call(svc, method, path, {
        body,
        headers: { authorization: `Bearer ${alice.token}` },
      });
      expect([200, 201], `${method} ${path}: ${JSON.stringify(res.body)}`).toContain(res.status);
    }
  });
});

describe("another user's resources", () => {
  it('answers 404 by id and never shows them', async () => {
    const put = await call(svc, 'PUT', `/copy-trades/${aliceTrade.id}`, {
      token: bob.token,
      body: { title: 'x' },
    });
    expectError(put, 404, 'NOT_FOUND');
    const orders = await call(svc, 'GET', `/copy-positions/${alicePosition}/orders`, { token: bob.token });
    expectError(orders, 404, 'NOT_FOUND');
    const withdraw = await call(svc, 'POST', withdrawPath(DEFAULT_VENUE), {
      token: bob.token,
      body: { sourceAddress: alice.embeddedWallet, destinationAddress: bob.address, amount: 10 },
    });
    expectError(withdraw, 404, 'NOT_FOUND');
  });

  it('lists only their own rows, even when filtering by her ids', async () => {
    const trades = await call<CopyTrade[]>(svc, 'POST', '/copy-trades/list', { token: bob.token, body: {} });
    expect(trades.body).toEqual([]);
    const byId = await call<CopyTrade[]>(svc, 'POST', '/copy-trades/list', {
      token: bob.token,
      body: { ids: [aliceTrade.id], copyWalletId: alice.walletId },
    });
    expect(byId.body).toEqual([]);
    for (const path of ['/copy-wallets/list', embeddedWalletsPath(DEFAULT_VENUE)]) {
      const wallets = await call<CopyWallet[]>(svc, 'GET', path, { token: bob.token });
      expect(wallets.body.map((w) => w.id)).toEqual([bob.walletId]);
    }
    const positions = await call<Paged<CopyPosition>>(svc, 'POST', '/copy-positions/page', {
      token: bob.token,
      body: { copyTradeIds: [aliceTrade.id] },
    });
    expect(positions.body.meta.total).toBe(0);
    const logs = await call<Paged<ActivityLog>>(svc, 'POST', '/activity-logs/page', {
      token: bob.token,
      body: { ranges: [{ fieldName: 'copyTradeId', in: [aliceTrade.id] }] },
    });
    expect(logs.body.meta.total).toBe(0);
    // Alice still sees hers.
    const hers = await call<Paged<ActivityLog>>(svc, 'POST', '/activity-logs/page', {
      token: alice.token,
      body: {},
    });
    expect(hers.body.meta.total).toBe(1);
  });
});
