// The life of a copy position driven by source orders: open, decrease, close, overwrite, reverse,
// the balance check, exactly-once. Default fees: 0.06 % of notional on opens and increases
// (taker 0.035 % + service 0.025 %), 0.035 % on decreases and closes.
import { afterEach, describe, expect, it } from 'vitest';
import { BTC, CopyWorld, ETH, TRADER_A } from './world';
import { expectAll } from '../../../support/expect-all';

let world: CopyWorld;
afterEach(() => world.close());

describe('a plain OPEN and CLOSE', () => {
  it('opens at the mark with volume × leverage, then closes at the mark with COPY_TRADE', () => {
    world = new CopyWorld();
    const trade = world.trade({ title: 'Plain' });
    world.tick(BTC, 50_000);
    const btc = world.source(BTC, true);
    // The source trades 20,000 USD with 2,000 collateral at 50,010; the mark says 50,000.
    const open = btc.open(20_000, 2_000, 50_010);
    const opened = world.engine.processSourceOrder(open);

    // margin 100, 10× → 1,000 USD = 0.02 BTC at 50,000; fee 1,000 × 0.06 % = 0.6.
    const [position] = world.positions();
    expect(position).toMatchObject({
      userId: world.userId,
      copyTradeId: trade.id,
      copyAccount: TRADER_A,
      indexToken: BTC,
      pair: 'BTC/USD',
      sourceOrderTxHashes: [open.txHash],
      sourceSizeDelta: '20000',
      sizeDelta: '0.02',
      sourceInitialVol: '2000',
      totalSizeDelta: 0.02,
      initialVol: 100,
      isLong: true,
      isReverse: false,
      entryPrice: 50_000,
      leverage: 10,
      stopLossPrice: null,
      takeProfitPrice: null,
      pnl: -0.6,
      realisedPnl: 0,
      fee: 0.6,
      funding: 0,
      closeType: null,
      status: 'OPEN',
      protocol: 'NOVA_ARB',
      exchange: 'PERPX',
      copyTradeTitle: 'Plain',
      positionIndex: 0,
      createdAt: new Date(open.blockTimeMs).toISOString(),
    });
    // The events carry what reading the rows back answers.
    expect(opened[0]).toEqual({ kind: 'copyPositionOpened', userId: world.userId, copyPosition: position });
    expect(opened[1]).toMatchObject({
      kind: 'activityLog',
      activityLog: { type: 'OPEN', copyPositionId: position!.id },
    });
    expect(opened.map((e) => [e.kind, e.userId])).toEqual([
      ['copyPositionOpened', world.userId],
      ['activityLog', world.userId],
    ]);
    expect(world.balance()).toBe(9999.4);
    expect(world.available()).toBe(9899.4);

    world.tick(BTC, 51_000);
    const closed = world.engine.processSourceOrder(btc.close(51_000));
    // 0.02 BTC at 51,000 = 1,020 USD: realised +20, fee 1,020 × 0.035 % = 0.357.
    expect(world.positions()[0]).toMatchObject({
      status: 'CLOSE',
      closeType: 'COPY_TRADE',
      realisedPnl: 20,
      fee: 0.957,
      pnl: 19.043,
      lastOrderAt: new Date(open.blockTimeMs + 60_000).toISOString(),
    });
    expect(closed.map((e) => e.kind)).toEqual(['copyPositionClosed', 'activityLog']);
    expect(closed[0]).toMatchObject({ copyPosition: world.positions()[0] });
    expect(world.balance()).toBe(10_019.043);
    expect(world.available()).toBe(10_019.043);

    const orders = world.orders(position!.id);
    expect(orders.map(({ createdAt: _c, txHash: _t, ...o }) => o)).toEqual([
      {
        price: 51_000,
        size: 1020,
        pnl: 19.643,
        realisedPnl: 20,
        fee: 0.357,
        isLong: true,
        isIncrease: false,
        protocol: 'NOVA_ARB',
      },
      {
        price: 50_000,
        size: 1000,
        pnl: -0.6,
        realisedPnl: 0,
        fee: 0.6,
        isLong: true,
        isIncrease: true,
        protocol: 'NOVA_ARB',
      },
    ]);
    expectAll(orders, (o) => /^0x[0-9a-f]{64}$/.test(o.txHash));
    expect(world.logs()).toEqual([
      expect.objectContaining({
        type: 'OPEN',
        isSuccess: 1,
        price: 50_000,
        sourcePrice: 50_010,
        volume: 1000,
        leverage: 10,
        sourceTxHash: open.txHash,
        copyPositionId: position!.id,
      }),
      expect.objectContaining({
        type: 'CLOSE',
        isSuccess: 1,
        price: 51_000,
        sourcePrice: 51_000,
        volume: 1020,
        leverage: 10,
      }),
    ]);
  });

  it('fills at the source price when the token has no mark', () => {
    world = new CopyWorld();
    world.trade();
    world.engine.processSourceOrder(world.source(BTC, true).open(20_000, 2_000, 40_000));
    expect(world.positions()[0]).toMatchObject({ entryPrice: 40_000, sizeDelta: '0.025' });
  });

  it('writes the same ids and hashes for the same inputs', () => {
    const run = () => {
      const w = new CopyWorld();
      w.trade();
      const btc = w.source(BTC, true);
      w.engine.processSourceOrder(btc.open(20_000, 2_000, 50_000));
      w.engine.processSourceOrder(btc.close(50_500));
      const p = w.positions()[0]!;
      const rows = { id: p.id, key: p.key, orders: w.orders(p.id).map((o) => o.txHash) };
      w.close();
      return rows;
    };
    world = new CopyWorld();
    expect(run()).toEqual(run());
  });
});

describe('exactly once', () => {
  it('copies the same source order once, however often it arrives', () => {
    world = new CopyWorld();
    world.trade();
    const open = world.source(BTC, true).open(20_000, 2_000, 50_000);
    expect(world.engine.processSourceOrder(open)).toHaveLength(2);
    expect(world.engine.processSourceOrder(open)).toEqual([]);
    expect(world.engine.processSourceOrder({ ...open })).toEqual([]);
    expect(world.positions()).toHaveLength(1);
    expect(world.logs()).toHaveLength(1);
    expect(world.balance()).toBe(9999.4);
    expect(world.db.prepare('SELECT COUNT(*) FROM copy_source_orders').pluck().get()).toBe(1);
  });

  it('marks an order nobody follows, and ignores MARGIN_TRANSFERRED', () => {
    world = new CopyWorld();
    world.trade();
    const btc = world.source(BTC, true);
    world.engine.processSourceOrder(btc.open(20_000, 2_000, 50_000));
    const transfer = { ...btc.increase(0, 500, 50_000), type: 'MARGIN_TRANSFERRED' as const };
    expect(world.engine.processSourceOrder(transfer)).toEqual([]);
    expect(
      world.engine.processSourceOrder(world.source(BTC, true, '0x' + '9'.repeat(40)).open(1, 1, 1)),
    ).toEqual([]);
    expect(world.db.prepare('SELECT COUNT(*) FROM copy_source_orders').pluck().get()).toBe(3);
    expect(world.logs()).toHaveLength(1);
  });
});

describe('DECREASE and CLOSE', () => {
  it('closes the fraction the source closed, then the rest', () => {
    world = new CopyWorld();
    world.trade();
    const btc = world.source(BTC, true);
    world.tick(BTC, 50_000);
    world.engine.processSourceOrder(btc.open(20_000, 2_000, 50_000));
    world.tick(BTC, 52_000);
    // 5,000 of 20,000: a quarter. 0.005 BTC at 52,000 = 260 USD; realised +10; fee 0.091; margin 100 → 75.
    const events = world.engine.processSourceOrder(btc.decrease(5_000, 500, 52_000));
    expect(events.map((e) => e.kind)).toEqual(['copyPositionUpdated', 'activityLog']);
    expect(world.positions()[0]).toMatchObject({
      status: 'OPEN',
      realisedPnl: 10,
      fee: 0.691,
      pnl: 9.309,
      entryPrice: 50_000,
    });
    expect(world.balance()).toBe(10_009.309);
    expect(world.available()).toBe(9934.309);
    // The rest: 0.015 BTC = 780 USD; realised +30; fee 0.273.
    world.engine.processSourceOrder(btc.close(52_000));
    const [p] = world.positions();
    expect(p).toMatchObject({
      status: 'CLOSE',
      closeType: 'COPY_TRADE',
      realisedPnl: 40,
      fee: 0.964,
      pnl: 39.036,
    });
    expect(p!.sourceOrderTxHashes).toHaveLength(3);
    expect(world.orders(p!.id).map((o) => [o.size, o.realisedPnl, o.fee, o.isIncrease])).toEqual([
      [780, 30, 0.273, false],
      [260, 10, 0.091, false],
      [1000, 0, 0.6, true],
    ]);
    expect(world.logs().map((l) => l.type)).toEqual(['OPEN', 'DECREASE', 'CLOSE']);
    expect(world.balance()).toBe(10_039.036);
  });

  it('closes the rest with COPY_TRADE when the source is liquidated', () => {
    world = new CopyWorld();
    world.trade();
    const btc = world.source(BTC, true);
    world.engine.processSourceOrder(btc.open(20_000, 2_000, 50_000));
    // The source (at 10×) is liquidated at 46,000; the copy (10× too) is still 1,000 above its own.
    world.engine.processSourceOrder(btc.close(46_000, undefined, true));
    expect(world.positions()[0]).toMatchObject({
      status: 'CLOSE',
      closeType: 'COPY_TRADE',
      realisedPnl: -80,
    });
  });

  it('follows a liquidation flag on any order type', () => {
    world = new CopyWorld();
    world.trade();
    const btc = world.source(BTC, true);
    world.engine.processSourceOrder(btc.open(20_000, 2_000, 50_000));
    world.engine.processSourceOrder({ ...btc.decrease(1_000, 0, 49_000), isLiquidate: true });
    expect(world.positions()[0]).toMatchObject({
      status: 'CLOSE',
      closeType: 'COPY_TRADE',
      realisedPnl: -20,
    });
  });
});

describe('a fill past the liquidation price', () => {
  it('liquidates the copy instead: it never loses more than its margin', () => {
    world = new CopyWorld();
    world.trade({ leverage: 20 });
    const btc = world.source(BTC, true);
    world.engine.processSourceOrder(btc.open(20_000, 2_000, 50_000));
    // The source (10×) closes at 47,000; the copy (20×) was liquidated at 47,500 on the way.
    const close = btc.close(47_000);
    world.engine.processSourceOrder(close);
    // 2,000 USD = 0.04 BTC; realised −100 (the margin), not −120; 1,880 USD closed, fee 0.658.
    expect(world.positions()[0]).toMatchObject({ closeType: 'LIQUIDATE', realisedPnl: -100, fee: 1.858 });
    expect(world.logs()[1]).toMatchObject({ type: 'LIQUIDATE', sourceTxHash: close.txHash });
  });
});

describe('processSourceOrders', () => {
  it('copies a burst in one transaction, each order once', () => {
    world = new CopyWorld();
    world.trade();
    const btc = world.source(BTC, true);
    const open = btc.open(20_000, 2_000, 50_000);
    const close = btc.close(51_000);
    const events = world.engine.processSourceOrders([open, open, close]);
    expect(events.map((e) => e.kind)).toEqual([
      'copyPositionOpened',
      'activityLog',
      'copyPositionClosed',
      'activityLog',
    ]);
    expect(world.engine.processSourceOrders([open, close])).toEqual([]);
    expect(world.positions()[0]).toMatchObject({ status: 'CLOSE', pnl: 19.043 });
  });

  it('writes nothing when an order of the burst fails', () => {
    world = new CopyWorld();
    world.trade();
    const open = world.source(BTC, true).open(20_000, 2_000, 50_000);
    const broken = { ...world.source(ETH, true).open(20_000, 2_000, 3_000), id: null as unknown as string };
    expect(() => world.engine.processSourceOrders([open, broken])).toThrow(
      'source order id must be a non-empty string',
    );
    expect(() => world.engine.processSourceOrder({ ...open, price: NaN })).toThrow(
      'price must be a number > 0',
    );
    expect(world.positions()).toEqual([]);
    expect(world.db.prepare('SELECT COUNT(*) FROM copy_source_orders').pluck().get()).toBe(0);
  });
});

describe('OVERWRITE', () => {
  it('closes an open copy of the same account, token and side before opening the new one', () => {
    world = new CopyWorld();
    world.trade();
    world.tick(BTC, 50_000);
    world.engine.processSourceOrder(world.source(BTC, true).open(20_000, 2_000, 50_000));
    world.tick(BTC, 50_500);
    // The source's close never arrived; it opens BTC long again.
    const events = world.engine.processSourceOrder(world.source(BTC, true).open(10_000, 1_000, 50_500));
    expect(events.map((e) => e.kind)).toEqual([
      'copyPositionClosed',
      'activityLog',
      'copyPositionOpened',
      'activityLog',
    ]);
    const [first, second] = world.positions();
    // 0.02 BTC at 50,500 = 1,010 USD: realised +10, fee 0.3535; pnl 10 − 0.6 − 0.3535.
    expect(first).toMatchObject({
      status: 'CLOSE',
      closeType: 'OVERWRITE',
      realisedPnl: 10,
      fee: 0.9535,
      pnl: 9.0465,
    });
    expect(second).toMatchObject({
      status: 'OPEN',
      entryPrice: 50_500,
      initialVol: 100,
      positionIndex: 1,
      fee: 0.6,
    });
    expect(world.logs().map((l) => l.type)).toEqual(['OPEN', 'CLOSE', 'OPEN']);
    expect(world.balance()).toBe(10_008.4465);
    expect(world.available()).toBe(9908.4465);
  });

  it('leaves the other side and other tokens open', () => {
    world = new CopyWorld();
    world.trade();
    world.engine.processSourceOrder(world.source(BTC, false).open(20_000, 2_000, 50_000));
    world.engine.processSourceOrder(world.source(ETH, true).open(20_000, 2_000, 3_000));
    world.engine.processSourceOrder(world.source(BTC, true).open(20_000, 2_000, 50_000));
    expect(world.positions().map((p) => p.status)).toEqual(['OPEN', 'OPEN', 'OPEN']);
  });
});

describe('reverse copy', () => {
  it('copies the opposite side and loses what the source wins', () => {
    world = new CopyWorld();
    world.trade({ reverseCopy: true });
    const btc = world.source(BTC, true);
    world.engine.processSourceOrder(btc.open(20_000, 2_000, 50_000));
    expect(world.positions()[0]).toMatchObject({
      isLong: false,
      isReverse: true,
      identifyKey: expect.stringMatching(/:SHORT$/),
    });
    world.engine.processSourceOrder(btc.close(51_000));
    // A 0.02 BTC short from 50,000 closed at 51,000: −20; fees 0.6 + 0.357.
    expect(world.positions()[0]).toMatchObject({
      status: 'CLOSE',
      realisedPnl: -20,
      fee: 0.957,
      pnl: -20.957,
    });
    expect(world.logs().map((l) => [l.type, l.isLong, l.isReverse])).toEqual([
      ['OPEN', 0, 1],
      ['CLOSE', 0, 1],
    ]);
    expect(world.balance()).toBe(9979.043);
  });
});

describe('the balance', () => {
  it('refuses an OPEN that needs more than the available balance: a FAILED log, no position', () => {
    world = new CopyWorld();
    world.trade();
    world.setBalance(50);
    const events = world.engine.processSourceOrder(world.source(BTC, true).open(20_000, 2_000, 50_000));
    expect(world.positions()).toEqual([]);
    expect(events.map((e) => e.kind)).toEqual(['activityLog']);
    expect(events[0]).toMatchObject({
      activityLog: {
        type: 'OPEN',
        isSuccess: false,
        copyOrderId: null,
        copyPositionId: null,
        volume: 1000,
        reason: 'insufficient balance: needs 100.6 USD, available 50 USD',
      },
    });
    expect(world.logs()).toEqual([
      expect.objectContaining({
        isSuccess: 0,
        reason: 'insufficient balance: needs 100.6 USD, available 50 USD',
      }),
    ]);
    expect(world.balance()).toBe(50);
  });

  it('counts the margin open positions hold', () => {
    world = new CopyWorld();
    world.trade();
    world.setBalance(150);
    world.engine.processSourceOrder(world.source(BTC, true).open(20_000, 2_000, 50_000));
    // 150 − 0.6 fee = 149.4, of which 100 is held: 49.4 available.
    world.engine.processSourceOrder(world.source(ETH, true).open(20_000, 2_000, 3_000));
    expect(world.positions()).toHaveLength(1);
    expect(world.logs()[1]).toMatchObject({
      isSuccess: 0,
      reason: 'insufficient balance: needs 100.6 USD, available 49.4 USD',
    });
  });
});
