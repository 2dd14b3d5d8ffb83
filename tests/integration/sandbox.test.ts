import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAddress } from 'viem';
import { postJson, startTestService, type RunningService } from '../support/service';
import { indexTokenAddress } from '../../src/service/market/catalogue';

const ADMIN = 'sandbox-admin-key-0123456789';
const TRADER = getAddress('0x' + 'ab'.repeat(20));
const P = 'NOVA_ARB';
const ETH = indexTokenAddress(P, 'ETH');
let svc: RunningService;

beforeAll(async () => {
  svc = await startTestService({ adminKey: ADMIN });
});
afterAll(() => svc.close());

const admin = { 'x-admin-key': ADMIN };
let n = 0;
const order = (patch: Record<string, unknown>) => ({
  id: `o-${(n += 1)}`,
  account: TRADER,
  protocol: P,
  indexToken: ETH,
  isLong: true,
  type: 'OPEN',
  sizeDeltaNumber: 10_000,
  collateralDeltaNumber: 1_000,
  priceNumber: 2_000,
  blockTime: new Date(svc.clock.ms - 3 * 86_400_000).toISOString(),
  txHash: `0x${String(n).padStart(64, '0')}`,
  ...patch,
});

describe('sandbox ingestion', () => {
  it('is shut without the admin key, and refuses a wrong one', async () => {
    const shut = await startTestService();
    try {
      expect((await postJson(`${shut.url}/sandbox/orders`, { orders: [order({})] }, admin)).status).toBe(403);
    } finally {
      await shut.close();
    }
    expect((await postJson(`${svc.url}/sandbox/orders`, { orders: [order({})] })).status).toBe(401);
    expect(
      (
        await postJson(
          `${svc.url}/sandbox/orders`,
          { orders: [order({})] },
          { 'x-admin-key': 'wrong-key-wrong-key-wrong' },
        )
      ).status,
    ).toBe(401);
  });

  it('applies orders to the trader positions, idempotently, and updates statistics', async () => {
    const open = order({});
    const decrease = order({
      type: 'DECREASE',
      sizeDeltaNumber: 5_000,
      collateralDeltaNumber: 0,
      priceNumber: 2_200,
      blockTime: new Date(svc.clock.ms - 2.5 * 86_400_000).toISOString(),
    });
    const close = order({
      type: 'CLOSE',
      sizeDeltaNumber: 5_000,
      collateralDeltaNumber: 1_000,
      priceNumber: 1_900,
      blockTime: new Date(svc.clock.ms - 2 * 86_400_000).toISOString(),
    });
    const res = await postJson(`${svc.url}/sandbox/orders`, { orders: [open, decrease, close] }, admin);
    expect(res.status).toBe(200);
    expect((res.body.data as { status: string }[]).map((d) => d.status)).toEqual([
      'applied',
      'applied',
      'applied',
    ]);
    // 5 ETH at 2000; half sold at 2200 (+500), the rest at 1900 (−250): realised 250 on a peak size of 10,000.
    const position = svc.service.db
      .prepare('SELECT * FROM positions WHERE account = ?')
      .get(TRADER) as Record<string, number | string>;
    expect(position).toMatchObject({
      status: 'CLOSE',
      size: 10_000,
      collateral: 1_000,
      realised_pnl: 250,
      leverage: 10,
      order_count: 3,
      is_win: 1,
    });
    expect(
      svc.service.db
        .prepare('SELECT type FROM orders WHERE account = ? ORDER BY block_time_ms')
        .pluck()
        .all(TRADER),
    ).toEqual(['OPEN', 'DECREASE', 'CLOSE']);
    const stats = svc.service.db
      .prepare(
        'SELECT "realisedPnl", "totalTrade" FROM statistics WHERE account = ? AND type = \'D7\' AND gen_to IS NULL',
      )
      .get(TRADER);
    expect(stats).toEqual({ realisedPnl: 250, totalTrade: 1 });

    const again = await postJson(`${svc.url}/sandbox/orders`, { orders: [open, close] }, admin);
    expect((again.body.data as { status: string }[]).map((d) => d.status)).toEqual([
      'duplicate',
      'duplicate',
    ]);
    expect(svc.service.db.prepare('SELECT COUNT(*) FROM orders WHERE account = ?').pluck().get(TRADER)).toBe(
      3,
    );
  });

  it('refuses an order that does not fit the position, naming it, and changes nothing', async () => {
    const before = svc.service.db.prepare('SELECT COUNT(*) FROM orders').pluck().get();
    const res = await postJson(
      `${svc.url}/sandbox/orders`,
      { orders: [order({ type: 'DECREASE', account: getAddress('0x' + 'cd'.repeat(20)) })] },
      admin,
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/orders\[0\]\.type is DECREASE but .* has no open position/);
    const bad = await postJson(
      `${svc.url}/sandbox/orders`,
      { orders: [{ ...order({}), priceNumber: -1 }] },
      admin,
    );
    expect(bad.body.message).toMatch(/orders\[0\]\.priceNumber must be more than 0/);
    expect(svc.service.db.prepare('SELECT COUNT(*) FROM orders').pluck().get()).toBe(before);
  });

  it('applies a request all or nothing: a bad order refuses the orders around it too', async () => {
    const trader = getAddress('0x' + '3c'.repeat(20));
    const open = order({ account: trader });
    const bad = order({ type: 'DECREASE', account: getAddress('0x' + '12'.repeat(20)) });
    const close = order({
      account: trader,
      type: 'CLOSE',
      priceNumber: 2_100,
      blockTime: new Date(svc.clock.ms - 2 * 86_400_000).toISOString(),
    });
    const count = (sql: string, ...args: unknown[]) =>
      svc.service.db
        .prepare(sql)
        .pluck()
        .get(...args);
    const ordersBefore = count('SELECT COUNT(*) FROM orders');
    const res = await postJson(`${svc.url}/sandbox/orders`, { orders: [open, bad, close] }, admin);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/orders\[1\]\.type is DECREASE but .* has no open position/);
    expect(count('SELECT COUNT(*) FROM orders')).toBe(ordersBefore);
    expect(count('SELECT COUNT(*) FROM positions WHERE account = ?', trader)).toBe(0);
    expect(count('SELECT COUNT(*) FROM sandbox_orders WHERE id = ?', open.id)).toBe(0);
    expect(count('SELECT COUNT(*) FROM statistics WHERE account = ?', trader)).toBe(0);

    // Sent again without the bad order, both are applied (not duplicates), with their statistics.
    const again = await postJson(`${svc.url}/sandbox/orders`, { orders: [open, close] }, admin);
    expect((again.body.data as { status: string }[]).map((d) => d.status)).toEqual(['applied', 'applied']);
    // 5 ETH bought at 2000, sold at 2100: +500.
    expect(
      svc.service.db
        .prepare(
          'SELECT "realisedPnl", "totalTrade" FROM statistics WHERE account = ? AND type = \'D7\' AND gen_to IS NULL',
        )
        .get(trader),
    ).toEqual({ realisedPnl: 500, totalTrade: 1 });
  });

  it('sets mark prices and credits an embedded wallet', async () => {
    const prices = await postJson(
      `${svc.url}/sandbox/prices`,
      { prices: [{ indexToken: ETH, price: 2_345, time: svc.clock.ms }] },
      admin,
    );
    expect(prices.status).toBe(200);
    expect(
      svc.service.db.prepare('SELECT price FROM mark_prices WHERE index_token = ?').pluck().get(ETH),
    ).toBe(2_345);
    const missing = await postJson(
      `${svc.url}/sandbox/deposit`,
      { address: '0x' + '9'.repeat(40), amount: 5 },
      admin,
    );
    expect(missing.status).toBe(404);
  });
});

describe('sandbox orders drive the copy engine, and the terminal hears of it', () => {
  it('opens and closes a copy position for a follower, pushing events on its stream', async () => {
    const { loginCopyUser, tradeBody } = await import('../support/copy-session');
    const follower = await loginCopyUser(svc);
    const whale = getAddress('0x' + 'ef'.repeat(20));
    const created = await postJson(
      `${svc.url}/copy-trades`,
      tradeBody(svc, follower, { account: whale, volume: 100, leverage: 5 }),
      {
        authorization: follower.token,
      },
    );
    expect(created.status).toBe(201);

    const controller = new AbortController();
    const stream = await fetch(`${svc.url}/events`, {
      headers: { authorization: follower.token },
      signal: controller.signal,
    });
    const reader = stream.body!.getReader();
    let text = '';
    void (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        text += new TextDecoder().decode(value);
      }
    })();

    const now = svc.clock.ms;
    const opened = await postJson(
      `${svc.url}/sandbox/orders`,
      { orders: [order({ account: whale, blockTime: now - 60_000 })] },
      admin,
    );
    expect((opened.body.data as { copyEvents: number }[])[0]!.copyEvents).toBeGreaterThan(0);
    const page = await postJson(
      `${svc.url}/copy-positions/page?status=OPEN`,
      {},
      { authorization: follower.token },
    );
    expect(page.body.data).toHaveLength(1);
    expect(page.body.data as unknown[]).toEqual([
      expect.objectContaining({ copyAccount: whale, isLong: true, status: 'OPEN' }),
    ]);
    await expect.poll(() => text).toMatch(/event: copyPositionOpened/);

    await postJson(
      `${svc.url}/sandbox/orders`,
      { orders: [order({ account: whale, type: 'CLOSE', blockTime: now - 30_000 })] },
      admin,
    );
    const closed = await postJson(
      `${svc.url}/copy-positions/page?status=CLOSE`,
      {},
      { authorization: follower.token },
    );
    expect(closed.body.data as unknown[]).toEqual([
      expect.objectContaining({ closeType: 'COPY_TRADE', status: 'CLOSE' }),
    ]);
    await expect.poll(() => text).toMatch(/event: copyPositionClosed/);
    expect(text).toMatch(/event: activityLog/);
    controller.abort();
  });
});
