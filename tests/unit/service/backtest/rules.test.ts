// Hand-computed scenarios, one per copy rule the backtest applies (issue 16, item 5;
// docs/backtest.md). Fees: 0.035 % taker on every fill, plus 0.025 % service fee on opens.
import { describe, expect, it } from 'vitest';
import { BTC, ETH, MIN, minutes, order, run, settings } from './world';

const PERCENT_STOP_50 = {
  enableStopLoss: true,
  stopLossType: 'PERCENT' as const,
  stopLossAmount: 50,
  enableTakeProfit: false,
  takeProfitType: 'PERCENT' as const,
  takeProfitAmount: null,
};

// A long source opened at 50,000 (20,000 on 2,000) and closed at minute 2 at 51,000. The copy:
// margin 100 at 10× = 1,000 USD = 0.02 BTC; open fee 1,000 × 0.06 % = 0.6.
const openClose = [order('OPEN', 0, 50_000), order('CLOSE', 2, 51_000)];

describe('stop loss on the price path', () => {
  it('is hit between two orders on the mark path (47,400 at minute 1), and the result says marks', () => {
    const r = run(openClose, settings({ exits: PERCENT_STOP_50 }), {
      [BTC]: minutes([50_000, 47_400, 51_000]),
    });
    // PERCENT 50 at 10× from 50,000: stop at 47,500. Closed at the mark 47,400:
    // realised (47,400 − 50,000) × 0.02 = −52; close fee 948 × 0.035 % = 0.3318.
    expect(r.positions).toHaveLength(1);
    expect(r.positions[0]!.closeReason).toBe('STOP_LOSS');
    expect(r.positions[0]!.position.closeTime).toBe(1 * MIN);
    expect(r.positions[0]!.profit).toBe(-52.9318);
    expect(r.totals.totalStopLoss).toBe(1);
    expect(r.totals.finalBalance).toBe(947.0682);
  });

  it('is missed on the fills alone: the trader never traded at 47,400', () => {
    const r = run(openClose, settings({ exits: PERCENT_STOP_50 }));
    // Closed with the source at 51,000: +20, close fee 1,020 × 0.035 % = 0.357.
    expect(r.positions[0]!.closeReason).toBe('COPY_TRADE');
    expect(r.positions[0]!.profit).toBe(19.043);
    expect(r.totals.totalStopLoss).toBe(0);
    expect(r.totals.finalBalance).toBe(1_019.043);
  });

  it('in USD closes at the unrealised loss; take profit in USD on a short', () => {
    const usd = { ...PERCENT_STOP_50, stopLossType: 'USD' as const, stopLossAmount: 30 };
    // 0.02 BTC long from 50,000: a 30 USD loss at 48,500; the path reaches 48,400.
    const stop = run(openClose, settings({ exits: usd }), { [BTC]: minutes([50_000, 48_400, 51_000]) });
    // (48,400 − 50,000) × 0.02 = −32; −32 − 0.6 − 968 × 0.035 % (0.3388) = −32.9388.
    expect(stop.positions[0]!).toMatchObject({ closeReason: 'STOP_LOSS', profit: -32.9388 });
    const tp = {
      ...PERCENT_STOP_50,
      enableStopLoss: false,
      enableTakeProfit: true,
      takeProfitType: 'USD' as const,
      takeProfitAmount: 30,
    };
    const short = [order('OPEN', 0, 50_000, { isLong: false }), order('CLOSE', 2, 51_000, { isLong: false })];
    const r = run(short, settings({ exits: tp }), { [BTC]: minutes([50_000, 48_500, 51_000]) });
    // 0.02 BTC short from 50,000: take profit at 48,500; +30 − 0.6 − 970 × 0.035 % (0.3395).
    expect(r.positions[0]!).toMatchObject({ closeReason: 'TAKE_PROFIT', profit: 29.0605 });
    expect(r.totals.totalTakeProfit).toBe(1);
  });
});

describe('liquidation', () => {
  it('takes the margin when the mark crosses entry × (1 − 1/leverage)', () => {
    const r = run(openClose, settings(), { [BTC]: minutes([50_000, 44_000, 51_000]) });
    // Liquidation price 45,000; at 44,000: realised −100, fee 880 × 0.035 % = 0.308.
    expect(r.positions[0]!).toMatchObject({ closeReason: 'LIQUIDATE', profit: -100.908 });
    expect(r.totals.totalLiquidate).toBe(1);
    expect(r.totals.finalBalance).toBe(899.092);
  });

  it('liquidates on the fills too when a source order fills past it', () => {
    const r = run(
      [order('OPEN', 0, 50_000), order('DECREASE', 1, 44_000, { sizeDeltaUsd: 5_000 })],
      settings(),
    );
    expect(r.positions[0]!).toMatchObject({ closeReason: 'LIQUIDATE', profit: -100.908 });
  });
});

describe('costs of a real copy', () => {
  it('a delay turns a win into a loss: the copy fills at the mark two minutes later', () => {
    const path = { [BTC]: minutes([50_000, 50_000, 51_500, 51_000, 51_000, 50_500]) };
    const orders = [order('OPEN', 0, 50_000), order('CLOSE', 3, 51_000)];
    expect(run(orders, settings(), path).positions[0]!.profit).toBe(19.043);
    const late = run(orders, settings({ delayMs: 2 * MIN }), path);
    // Opens at 51,500 (minute 2): 1,000 / 51,500 BTC; closes at 50,500 (minute 5).
    const tokens = 1_000 / 51_500;
    const realised = (50_500 - 51_500) * tokens;
    const closeFee = tokens * 50_500 * 0.00035;
    expect(late.positions[0]!.position.openTime).toBe(2 * MIN);
    expect(late.positions[0]!.profit).toBeCloseTo(realised - 0.6 - closeFee, 5);
    expect(late.positions[0]!.profit).toBeLessThan(0);
  });

  it('slippage and a fee rate reduce the profit by the computed amount', () => {
    const base = run(openClose, settings()).positions[0]!.profit;
    const costly = run(
      openClose,
      settings({ slippage: 10 / 10_000, fees: { taker: 0.0005, service: 0.00025 } }),
    );
    // Buys at 50,000 × 1.001 = 50,050; sells at 51,000 × 0.999 = 50,949.
    const tokens = 1_000 / 50_050;
    const realised = (50_949 - 50_050) * tokens;
    const fees = 1_000 * (0.0005 + 0.00025) + tokens * 50_949 * 0.0005;
    expect(costly.positions[0]!.profit).toBeCloseTo(realised - fees, 5);
    expect(base - costly.positions[0]!.profit).toBeCloseTo(19.043 - (realised - fees), 5);
    expect(costly.totals.fees).toBeCloseTo(fees, 5);
  });

  it('funding: a long pays the cumulative rate on its notional, when funding is on', () => {
    const path = minutes([50_000, 50_000, 50_000], [0, 0.0005, 0.001]);
    const flat = [order('OPEN', 0, 50_000), order('CLOSE', 2, 50_000)];
    // 0.02 BTC × 50,000 × 0.1 % = 1 USD paid; fees 0.6 + 0.35.
    expect(run(flat, settings({ funding: true }), { [BTC]: path }).positions[0]!.profit).toBe(-1.95);
    expect(run(flat, settings({ funding: false }), { [BTC]: path }).positions[0]!.profit).toBe(-0.95);
  });
});

describe('sizing', () => {
  it('volume protection scales the margin by the source margin against its recent mean', () => {
    const history = [
      order('OPEN', 0, 100, { indexToken: ETH, collateralDeltaUsd: 100_000 }),
      order('CLOSE', 1, 100, { indexToken: ETH }),
      order('OPEN', 2, 100, { indexToken: ETH, collateralDeltaUsd: 3_000 }),
      order('INCREASE', 3, 100, { indexToken: ETH, collateralDeltaUsd: 2_000 }),
      order('DECREASE', 4, 100, { indexToken: ETH, sizeDeltaUsd: 1_000 }),
      order('INCREASE', 5, 100, { indexToken: ETH, collateralDeltaUsd: 1_000 }),
      order('CLOSE', 6, 100, { indexToken: ETH }),
    ];
    // lookBackOrders 3: margins 1,000, 2,000, 3,000 (mean 2,000); the source opens with 500: f = 0.25.
    const orders = [...history, order('OPEN', 10, 50_000, { collateralDeltaUsd: 500 })];
    const r = run(orders, settings({ volumeProtection: true, lookBackOrders: 3, fromTime: 10 * MIN }));
    expect(r.positions[0]!.position).toMatchObject({ margin: 25, size: 250 });
    const big = [...history, order('OPEN', 10, 50_000, { collateralDeltaUsd: 5_000 })];
    expect(
      run(big, settings({ volumeProtection: true, lookBackOrders: 3, fromTime: 10 * MIN })).positions[0]!
        .position.margin,
    ).toBe(100);
  });

  it('the leverage is capped at the venue maximum of the token', () => {
    // ETH's maximum here is 20: leverage 30 opens at 20×, 2,000 USD on 100 margin.
    const r = run(
      [order('OPEN', 0, 100, { indexToken: ETH }), order('CLOSE', 1, 100, { indexToken: ETH })],
      settings({ leverage: 30 }),
    );
    expect(r.positions[0]!.position).toMatchObject({ leverage: 20, size: 2_000 });
  });

  it('maxVolMultiplier clips an increase to the headroom and skips the next', () => {
    const orders = [
      order('OPEN', 0, 50_000),
      order('INCREASE', 1, 60_000, { sizeDeltaUsd: 20_000 }),
      order('INCREASE', 2, 60_000, { sizeDeltaUsd: 20_000, sizeBeforeUsd: 40_000 }),
      order('CLOSE', 3, 60_000),
    ];
    const r = run(orders, settings({ maxVolMultiplier: 1.5 }));
    // Wanted 20,000 × 100 / 2,000 = 1,000 USD (100 margin); the cap 150 leaves 50: 500 USD at 60,000.
    const tokens = 0.02 + 500 / 60_000;
    const p = r.positions[0]!;
    expect(p.position.entryPrice).toBeCloseTo(1_500 / tokens, 6);
    expect(p.position.margin).toBe(150);
    expect(p.volMultiplier).toBe(1.5);
    expect(r.totals.maxVolMultiplier).toBe(1.5);
    // Realised 60,000 × tokens − 1,500 = 200; fees 0.6 + 0.3 (increase) + 1,700 × 0.035 % (0.595).
    expect(p.position.realisedPnl).toBeCloseTo(200, 5);
    expect(p.position.fee).toBeCloseTo(1.495, 6);
  });
});

describe('sides, overwrite and balance', () => {
  it('reverse copy: a long source becomes a short copy', () => {
    const r = run(openClose, settings({ reverseCopy: true }));
    // 0.02 BTC short from 50,000 closed at 51,000: −20 − 0.6 − 0.357.
    expect(r.positions[0]!.position.isLong).toBe(false);
    expect(r.positions[0]!.profit).toBe(-20.957);
  });

  it('OVERWRITE: a second OPEN of the same source position closes the first copy', () => {
    const orders = [order('OPEN', 0, 50_000), order('OPEN', 1, 50_500), order('CLOSE', 2, 50_500)];
    const r = run(orders, settings());
    // +10 − 0.6 − 1,010 × 0.035 % (0.3535) = 9.0465, then a new copy at 50,500.
    expect(r.positions[0]!).toMatchObject({ closeReason: 'OVERWRITE', profit: 9.0465 });
    expect(r.positions[1]!.position.entryPrice).toBe(50_500);
  });

  it('insufficient balance skips an OPEN and counts it; its later orders copy nothing', () => {
    const orders = [
      order('OPEN', 0, 50_000),
      order('OPEN', 1, 100, { indexToken: ETH }),
      order('CLOSE', 2, 100, { indexToken: ETH }),
      order('CLOSE', 3, 51_000),
    ];
    // Balance 150: the BTC copy holds 100 and paid 0.6, leaving 49.4; ETH needs 100 + 0.6.
    const r = run(orders, settings({ balance: 150 }));
    expect(r.totals.totalSkipped).toBe(1);
    expect(r.positions).toHaveLength(1);
    expect(r.totals.finalBalance).toBe(169.043);
  });

  it('a DECREASE closes the same fraction of the copy', () => {
    const orders = [
      order('OPEN', 0, 50_000),
      order('DECREASE', 1, 52_000, { sizeDeltaUsd: 5_000 }),
      order('CLOSE', 2, 52_000),
    ];
    const r = run(orders, settings());
    // A quarter (0.005 BTC = 260 USD) at 52,000: +10, fee 0.091; the rest +30, fee 0.273.
    expect(r.positions[0]!.position.realisedPnl).toBe(40);
    expect(r.positions[0]!.position.fee).toBe(0.964);
  });

  it('a position still open at toTime is valued at the mark then (WINDOW_END)', () => {
    const r = run([order('OPEN', 0, 50_000)], settings({ toTime: 2 * MIN }), {
      [BTC]: minutes([50_000, 50_500, 51_000]),
    });
    expect(r.positions[0]!).toMatchObject({ closeReason: 'WINDOW_END', profit: 19.043 });
  });

  it('filters: side, excluded tokens and the low thresholds skip the source position', () => {
    const base = settings();
    const withTrade = (trade: Partial<typeof base.filters.trade>, excluded: string[] = []) =>
      settings({
        filters: { ...base.filters, trade: { ...base.filters.trade, ...trade }, excluded: new Set(excluded) },
      });
    const short = [order('OPEN', 0, 50_000, { isLong: false }), order('CLOSE', 2, 51_000, { isLong: false })];
    expect(run(short, withTrade({ side: 'LONG' })).positions).toHaveLength(0);
    expect(run(short, withTrade({ side: 'SHORT' })).positions).toHaveLength(1);
    expect(run(openClose, withTrade({ hasExclude: true }, [BTC])).positions).toHaveLength(0);
    // The source opened 20,000 on 2,000: 10×, collateral 2,000, size 20,000; thresholds are strict.
    expect(run(openClose, withTrade({ skipLowLeverage: true, lowLeverage: 11 })).positions).toHaveLength(0);
    expect(run(openClose, withTrade({ skipLowLeverage: true, lowLeverage: 10 })).positions).toHaveLength(1);
    expect(
      run(openClose, withTrade({ skipLowCollateral: true, lowCollateral: 2_001 })).positions,
    ).toHaveLength(0);
    expect(run(openClose, withTrade({ skipLowSize: true, lowSize: 20_000 })).positions).toHaveLength(1);
    // A skipped OPEN is not counted as a copy the balance refused.
    expect(run(short, withTrade({ side: 'LONG' })).totals.totalSkipped).toBe(0);
  });

  it('filters: a token outside the copied list is not copied, one in it is', () => {
    const s = settings();
    s.filters = {
      ...s.filters,
      trade: { ...s.filters.trade, copyAll: false },
      tokens: new Set([ETH]),
    };
    expect(run(openClose, s).positions).toHaveLength(0);
    const eth = [order('OPEN', 0, 100, { indexToken: ETH }), order('CLOSE', 1, 101, { indexToken: ETH })];
    expect(run(eth, s).positions).toHaveLength(1);
  });
});
