// One scenario per copy trade option (docs/semantics.md, Copy engine): filters, sizing, leverage cap,
// multiple accounts, the increase clip. Default fees: 0.06 % on opens and increases.
import { afterEach, describe, expect, it } from 'vitest';
import { BTC, CopyWorld, ETH, HOUR, SOL, TRADER_A, TRADER_B, TRADER_C } from './world';

let world: CopyWorld;
afterEach(() => world.close());

const skipped = (w: CopyWorld) =>
  w.db.prepare('SELECT copy_trade_id AS tradeId, source_key AS key, reason FROM copy_skipped_sources').all();

describe('filters (decided at the source OPEN; a skip writes no activity log)', () => {
  it('side LONG skips a short source position and all its later orders', () => {
    world = new CopyWorld();
    const trade = world.trade({ side: 'LONG' });
    const short = world.source(ETH, false);
    expect(world.engine.processSourceOrder(short.open(20_000, 2_000, 3_000))).toEqual([]);
    expect(world.engine.processSourceOrder(short.increase(10_000, 1_000, 3_000))).toEqual([]);
    expect(world.engine.processSourceOrder(short.close(2_900))).toEqual([]);
    expect(skipped(world)).toEqual([
      {
        tradeId: trade.id,
        key: `${TRADER_A.toLowerCase()}|NOVA_ARB|${ETH.toLowerCase()}|SHORT`,
        reason: 'side LONG copies long positions only',
      },
    ]);
    world.engine.processSourceOrder(world.source(ETH, true).open(20_000, 2_000, 3_000));
    expect(world.positions().map((p) => p.isLong)).toEqual([true]);
    expect(world.logs().map((l) => l.type)).toEqual(['OPEN']);
  });

  it('hasExclude skips the excluded tokens and copies the rest', () => {
    world = new CopyWorld();
    world.trade({ hasExclude: true, excludingTokenAddresses: [ETH.toLowerCase()] });
    world.engine.processSourceOrder(world.source(ETH, true).open(20_000, 2_000, 3_000));
    world.engine.processSourceOrder(world.source(BTC, true).open(20_000, 2_000, 50_000));
    expect(world.positions().map((p) => p.indexToken)).toEqual([BTC]);
    expect(skipped(world)).toEqual([
      expect.objectContaining({ reason: `token ${ETH} is in excludingTokenAddresses` }),
    ]);
  });

  it('copyAll=false copies only tokenAddresses', () => {
    world = new CopyWorld();
    world.trade({ copyAll: false, tokenAddresses: [SOL] });
    world.engine.processSourceOrder(world.source(BTC, true).open(20_000, 2_000, 50_000));
    world.engine.processSourceOrder(world.source(SOL, true).open(20_000, 2_000, 100));
    // SOL: 100 margin at 10× = 1,000 USD = 10 SOL.
    expect(world.positions().map((p) => [p.pair, p.sizeDelta])).toEqual([['SOL/USD', '10']]);
    expect(world.logs()).toHaveLength(1);
  });

  it('skipLowLeverage, skipLowCollateral and skipLowSize compare the source OPEN with their thresholds', () => {
    world = new CopyWorld();
    const lev = world.trade({ skipLowLeverage: true, lowLeverage: 5 });
    const col = world.trade({ skipLowCollateral: true, lowCollateral: 500 });
    const size = world.trade({ skipLowSize: true, lowSize: 5_000 });
    // A: 4,000 on 1,000 (4×): low leverage and low size, enough collateral.
    world.engine.processSourceOrder(world.source(BTC, true).open(4_000, 1_000, 50_000));
    // B: 6,000 on 400 (15×): low collateral only.
    world.engine.processSourceOrder(world.source(ETH, true).open(6_000, 400, 3_000));
    // C: 5,000 on 1,000 (5×): exactly at every threshold, so nobody skips it.
    world.engine.processSourceOrder(world.source(SOL, true).open(5_000, 1_000, 100));
    const copied = (tradeId: string) =>
      world
        .positions()
        .filter((p) => p.copyTradeId === tradeId)
        .map((p) => p.pair);
    expect(copied(lev.id)).toEqual(['ETH/USD', 'SOL/USD']);
    expect(copied(col.id)).toEqual(['BTC/USD', 'SOL/USD']);
    expect(copied(size.id)).toEqual(['ETH/USD', 'SOL/USD']);
    expect((skipped(world) as { reason: string }[]).map((s) => s.reason).sort()).toEqual([
      'source collateral 400 USD is below lowCollateral 500',
      'source leverage 4 is below lowLeverage 5',
      'source size 4000 USD is below lowSize 5000',
    ]);
  });

  it('decides again at the next OPEN of the same key', () => {
    world = new CopyWorld();
    world.trade({ skipLowSize: true, lowSize: 5_000 });
    const btc = world.source(BTC, true);
    world.engine.processSourceOrder(btc.open(4_000, 1_000, 50_000));
    world.engine.processSourceOrder(btc.close(50_000));
    world.engine.processSourceOrder(btc.open(8_000, 1_000, 50_000));
    expect(world.positions()).toHaveLength(1);
    expect(skipped(world)).toEqual([]);
  });
});

describe('sizing', () => {
  it('volumeProtection scales a small order down by the mean margin of the last lookBackOrders', () => {
    world = new CopyWorld();
    const protectedTrade = world.trade({ volumeProtection: true, lookBackOrders: 3 });
    const plain = world.trade({ volumeProtection: false });
    const t = world.clock + 10 * HOUR;
    world.addHistory(TRADER_A, [
      { type: 'OPEN', collateral: 100_000, atMs: t - 5 * HOUR }, // beyond the last three
      { type: 'OPEN', collateral: 1_000, atMs: t - 4 * HOUR },
      { type: 'DECREASE', collateral: 50_000, atMs: t - 3 * HOUR }, // not an OPEN/INCREASE
      { type: 'INCREASE', collateral: 2_000, atMs: t - 2 * HOUR },
      { type: 'OPEN', collateral: 3_000, atMs: t - HOUR },
      { type: 'OPEN', collateral: 1, atMs: t - HOUR, protocol: 'ORBIT_BASE' }, // another protocol
      { type: 'OPEN', collateral: 1, atMs: t + HOUR }, // after the order
    ]);
    // Mean of 3,000, 2,000, 1,000 = 2,000; the source puts in 500: f = 0.25, margin 25 → 250 USD.
    world.engine.processSourceOrder(world.source(BTC, true).open(5_000, 500, 50_000, t));
    // 5,000 of collateral is above the mean: f = min(1, 2.5) = 1.
    world.engine.processSourceOrder(world.source(ETH, true).open(50_000, 5_000, 3_000, t));
    const margins = world.positions().map((p) => [p.copyTradeId, p.pair, p.initialVol, p.sizeDelta, p.fee]);
    expect(margins).toEqual([
      [protectedTrade.id, 'BTC/USD', 25, '0.005', 0.15],
      [plain.id, 'BTC/USD', 100, '0.02', 0.6],
      [protectedTrade.id, 'ETH/USD', 100, String(1000 / 3000), 0.6],
      [plain.id, 'ETH/USD', 100, String(1000 / 3000), 0.6],
    ]);
  });

  it('volumeProtection copies the full volume without history', () => {
    world = new CopyWorld();
    world.trade({ volumeProtection: true });
    world.engine.processSourceOrder(world.source(BTC, true).open(100, 10, 50_000));
    expect(world.positions()[0]).toMatchObject({ initialVol: 100 });
  });

  it("caps the leverage at the venue's maximum for the token", () => {
    world = new CopyWorld();
    world.trade({ leverage: 30 });
    world.tick(SOL, 100);
    world.engine.processSourceOrder(world.source(SOL, true).open(20_000, 2_000, 100));
    world.engine.processSourceOrder(world.source(BTC, true).open(20_000, 2_000, 50_000));
    // SOL is capped at 20×: 100 margin → 2,000 USD = 20 SOL, fee 1.2. BTC allows 50×: 30× stays.
    expect(world.positions().map((p) => [p.pair, p.leverage, p.sizeDelta, p.fee])).toEqual([
      ['SOL/USD', 20, '20', 1.2],
      ['BTC/USD', 30, '0.06', 1.8],
    ]);
    expect(world.logs().map((l) => [l.leverage, l.volume])).toEqual([
      [20, 2000],
      [30, 3000],
    ]);
  });
});

describe('multiple accounts', () => {
  it('follows `accounts` only with multipleCopy, in any letter case', () => {
    world = new CopyWorld();
    const multi = world.trade({ multipleCopy: true, accounts: [TRADER_B] });
    world.trade({ multipleCopy: false, accounts: [TRADER_B] });
    const b = world.source(BTC, true, TRADER_B.toLowerCase());
    world.engine.processSourceOrder(b.open(20_000, 2_000, 50_000));
    world.engine.processSourceOrder(world.source(BTC, true, TRADER_C).open(20_000, 2_000, 50_000));
    world.engine.processSourceOrder(world.source(ETH, true, TRADER_A).open(20_000, 2_000, 3_000));
    expect(world.positions().map((p) => [p.copyTradeId, p.copyAccount, p.pair])).toEqual([
      [multi.id, TRADER_B, 'BTC/USD'],
      [multi.id, TRADER_A, 'ETH/USD'],
      ['trade-2', TRADER_A, 'ETH/USD'],
    ]);
    world.engine.processSourceOrder(b.close(50_000));
    expect(world.positions().map((p) => p.status)).toEqual(['CLOSE', 'OPEN', 'OPEN']);
    expect(world.logs().map((l) => [l.type, l.sourceAccount])).toEqual([
      ['OPEN', TRADER_B],
      ['OPEN', TRADER_A],
      ['OPEN', TRADER_A],
      ['CLOSE', TRADER_B],
    ]);
  });
});

describe('INCREASE', () => {
  it('scales by initialVol / sourceInitialVol, clips to volume × maxVolMultiplier, then skips', () => {
    world = new CopyWorld();
    world.trade({ maxVolMultiplier: 1.5 });
    const btc = world.source(BTC, true);
    world.tick(BTC, 50_000);
    world.engine.processSourceOrder(btc.open(20_000, 2_000, 50_000));
    world.tick(BTC, 60_000);
    // Wanted: 20,000 × 100 / 2,000 = 1,000 USD = 100 margin; the cap 150 leaves 50 → 500 USD at 60,000.
    const events = world.engine.processSourceOrder(btc.increase(20_000, 2_000, 60_000));
    expect(events.map((e) => e.kind)).toEqual(['copyPositionUpdated', 'activityLog']);
    const tokens = 0.02 + 500 / 60_000;
    const [p] = world.positions();
    expect(p).toMatchObject({ status: 'OPEN', sizeDelta: '0.02', initialVol: 100, fee: 0.9, pnl: -0.9 });
    expect(p!.totalSizeDelta).toBeCloseTo(tokens, 12);
    // Size-weighted entry: (1,000 + 500) USD over the tokens.
    expect(p!.entryPrice).toBeCloseTo(1500 / tokens, 6);
    expect(world.available()).toBe(9999.1 - 150);
    expect(world.logs()[1]).toMatchObject({ type: 'INCREASE', volume: 500, price: 60_000 });
    // The margin is at the cap: the next INCREASE writes nothing.
    expect(world.engine.processSourceOrder(btc.increase(10_000, 1_000, 60_000))).toEqual([]);
    expect(world.orders(p!.id)).toHaveLength(2);
    expect(world.logs()).toHaveLength(2);
  });

  it('adds the scaled delta in full without maxVolMultiplier', () => {
    world = new CopyWorld();
    world.trade();
    const btc = world.source(BTC, true);
    world.engine.processSourceOrder(btc.open(20_000, 2_000, 50_000));
    world.engine.processSourceOrder(btc.increase(10_000, 0, 50_000));
    // 10,000 × 100 / 2,000 = 500 USD: margin +50, 0.01 BTC, fee 0.3.
    expect(world.positions()[0]).toMatchObject({ totalSizeDelta: 0.03, entryPrice: 50_000, fee: 0.9 });
    expect(world.available()).toBe(9999.1 - 150);
  });

  it('refuses an INCREASE the balance cannot pay: a FAILED INCREASE log', () => {
    world = new CopyWorld();
    world.trade();
    const btc = world.source(BTC, true);
    world.engine.processSourceOrder(btc.open(20_000, 2_000, 50_000));
    world.setBalance(120);
    world.engine.processSourceOrder(btc.increase(20_000, 2_000, 50_000));
    expect(world.logs()[1]).toMatchObject({
      type: 'INCREASE',
      isSuccess: 0,
      reason: 'insufficient balance: needs 100.6 USD, available 20 USD',
    });
    expect(world.positions()[0]).toMatchObject({ totalSizeDelta: 0.02 });
  });
});
