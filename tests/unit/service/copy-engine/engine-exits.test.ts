// Exits: stop loss and take profit on mark ticks, liquidation, MANUAL and FORCE_CLOSE.
// Every scenario opens 0.02 BTC (100 margin at 10×) at 50,000 for a 0.6 fee.
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../../../../src/service/http/errors';
import { BTC, CopyWorld, NOW } from './world';

let world: CopyWorld;
afterEach(() => world.close());

function openBtc(w: CopyWorld, isLong = true) {
  w.tick(BTC, 50_000);
  w.engine.processSourceOrder(w.source(BTC, isLong).open(20_000, 2_000, 50_000));
  return w.positions()[0]!;
}

describe('stop loss and take profit', () => {
  it('PERCENT stop loss: closes when the ROI on margin reaches −amount', () => {
    world = new CopyWorld();
    world.trade({ enableStopLoss: true, stopLossType: 'PERCENT', stopLossAmount: 50 });
    // −50 % of 100 margin at 10× is a 5 % move: 47,500.
    expect(openBtc(world)).toMatchObject({
      stopLossPrice: 47_500,
      stopLossAmount: 50,
      takeProfitPrice: null,
    });
    expect(world.tick(BTC, 48_000)).toEqual([]);
    const events = world.tick(BTC, 47_400, NOW - 1000);
    expect(events.map((e) => e.kind)).toEqual(['copyPositionClosed', 'activityLog']);
    // 0.02 × (47,400 − 50,000) = −52; 948 USD closed, fee 0.3318.
    expect(world.positions()[0]).toMatchObject({
      status: 'CLOSE',
      closeType: 'STOP_LOSS',
      realisedPnl: -52,
      fee: 0.9318,
      pnl: -52.9318,
      lastOrderAt: new Date(NOW - 1000).toISOString(),
    });
    expect(world.logs()[1]).toMatchObject({
      type: 'STOP_LOSS',
      sourceTxHash: '',
      price: 47_400,
      sourcePrice: 47_400,
      volume: 948,
    });
    expect(world.balance()).toBe(9947.0682);
  });

  it('USD take profit on a short: closes when unrealised PnL reaches +amount', () => {
    world = new CopyWorld();
    world.trade({ enableTakeProfit: true, takeProfitType: 'USD', takeProfitAmount: 30 });
    // +30 USD on 0.02 BTC short: 1,500 lower.
    expect(openBtc(world, false)).toMatchObject({
      takeProfitPrice: 48_500,
      takeProfitAmount: 30,
      stopLossPrice: null,
    });
    expect(world.tick(BTC, 48_600)).toEqual([]);
    world.tick(BTC, 48_500);
    // +30; 970 USD closed, fee 0.3395.
    expect(world.positions()[0]).toMatchObject({
      closeType: 'TAKE_PROFIT',
      realisedPnl: 30,
      fee: 0.9395,
      pnl: 29.0605,
    });
    expect(world.logs()[1]).toMatchObject({ type: 'TAKE_PROFIT', isLong: 0 });
    expect(world.balance()).toBe(10_029.0605);
  });

  it('moves a USD stop loss with the size: stored at open, increase and decrease', () => {
    world = new CopyWorld();
    world.trade({ enableStopLoss: true, stopLossType: 'USD', stopLossAmount: 40 });
    const btc = world.source(BTC, true);
    world.engine.processSourceOrder(btc.open(20_000, 2_000, 50_000));
    // −40 USD on 0.02 BTC: 2,000 lower.
    expect(world.positions()[0]).toMatchObject({ stopLossPrice: 48_000 });
    world.engine.processSourceOrder(btc.decrease(10_000, 1_000, 50_000));
    // Half left: 0.01 BTC, 4,000 lower.
    expect(world.positions()[0]).toMatchObject({ stopLossPrice: 46_000 });
    world.engine.processSourceOrder(btc.increase(30_000, 3_000, 50_000));
    // +1,500 USD = 0.03 BTC more: 0.04 BTC, 1,000 lower.
    expect(world.positions()[0]).toMatchObject({ stopLossPrice: 49_000 });
  });
});

describe('liquidation', () => {
  it('liquidates at entry × (1 − 1/leverage), before a stop loss the same gap crossed: realisedPnl = −margin', () => {
    world = new CopyWorld();
    world.trade({ enableStopLoss: true, stopLossType: 'PERCENT', stopLossAmount: 50 });
    openBtc(world);
    expect(world.tick(BTC, 45_001)).toHaveLength(2); // the stop loss at 47,500 would fire here…
    world.close();

    world = new CopyWorld();
    world.trade({ enableStopLoss: true, stopLossType: 'PERCENT', stopLossAmount: 50 });
    openBtc(world);
    // …but a gap straight to 44,000 also crosses the liquidation price 45,000.
    world.tick(BTC, 44_000);
    // realised = −100 (the margin); 880 USD closed, fee 0.308.
    expect(world.positions()[0]).toMatchObject({
      closeType: 'LIQUIDATE',
      realisedPnl: -100,
      fee: 0.908,
      pnl: -100.908,
    });
    expect(world.logs()[1]).toMatchObject({ type: 'LIQUIDATE', price: 44_000 });
    expect(world.balance()).toBe(9899.092);
    expect(world.available()).toBe(9899.092);
  });

  it('liquidates a short at entry × (1 + 1/leverage), inclusive', () => {
    world = new CopyWorld();
    world.trade();
    openBtc(world, false);
    expect(world.tick(BTC, 54_999)).toEqual([]);
    world.tick(BTC, 55_000);
    expect(world.positions()[0]).toMatchObject({ closeType: 'LIQUIDATE', realisedPnl: -100 });
  });

  it('ignores a stale tick', () => {
    world = new CopyWorld();
    world.trade();
    openBtc(world);
    expect(world.tick(BTC, 40_000, 0)).toEqual([]);
    expect(world.positions()[0]).toMatchObject({ status: 'OPEN' });
  });
});

describe('MANUAL and FORCE_CLOSE', () => {
  it('MANUAL closes at the mark with the taker fee and a CLOSE log', () => {
    world = new CopyWorld();
    world.trade();
    const p = openBtc(world);
    world.tick(BTC, 49_000);
    const events = world.engine.closeManually(world.userId, p.id);
    // −20; 980 USD closed, fee 0.343.
    expect(events.map((e) => e.kind)).toEqual(['copyPositionClosed', 'activityLog']);
    expect(world.positions()[0]).toMatchObject({
      closeType: 'MANUAL',
      realisedPnl: -20,
      fee: 0.943,
      pnl: -20.943,
      lastOrderAt: new Date(NOW).toISOString(),
    });
    expect(world.logs()[1]).toMatchObject({ type: 'CLOSE', sourceTxHash: '', volume: 980 });
    expect(world.balance()).toBe(9979.057);
  });

  it('FORCE_CLOSE closes at the last mark without trading: no fee, no order, no log', () => {
    world = new CopyWorld();
    world.trade();
    const p = openBtc(world);
    world.tick(BTC, 49_000);
    const events = world.engine.unlink(world.userId, p.id);
    expect(events.map((e) => e.kind)).toEqual(['copyPositionClosed']);
    expect(world.positions()[0]).toMatchObject({
      closeType: 'FORCE_CLOSE',
      realisedPnl: -20,
      fee: 0.6,
      pnl: -20.6,
    });
    expect(world.orders(p.id)).toHaveLength(1);
    expect(world.logs()).toHaveLength(1);
    expect(world.balance()).toBe(9979.4);
    expect(world.available()).toBe(9979.4);
  });

  it("answers NOT_FOUND for another user's or an unknown position and CONFLICT for a closed one", () => {
    world = new CopyWorld();
    world.trade();
    const p = openBtc(world);
    const other = world.addUser();
    const codeOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return error instanceof ServiceError ? error.code : String(error);
      }
      return 'no error';
    };
    expect(codeOf(() => world.engine.closeManually(other, p.id))).toBe('NOT_FOUND');
    expect(codeOf(() => world.engine.unlink(other, p.id))).toBe('NOT_FOUND');
    expect(codeOf(() => world.engine.closeManually(world.userId, 'nope'))).toBe('NOT_FOUND');
    world.engine.unlink(world.userId, p.id);
    expect(codeOf(() => world.engine.closeManually(world.userId, p.id))).toBe('CONFLICT');
    expect(codeOf(() => world.engine.unlink(world.userId, p.id))).toBe('CONFLICT');
  });
});
