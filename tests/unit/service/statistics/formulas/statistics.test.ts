// The statistic record of docs/semantics.md, field by field, on the worked example of fixtures.ts.
import { describe, expect, it } from 'vitest';
import { positionStatisticSchema } from '../../../../../src/shared/api/statistics';
import {
  computeStatistic,
  computeTraderStatistics,
} from '../../../../../src/service/statistics/formulas/statistics';
import { DAY_MS } from '../../../../../src/service/statistics/formulas/windows';
import {
  A,
  ACCOUNT,
  B,
  C,
  D,
  E,
  F,
  G,
  HOUR_MS,
  MARKS,
  NOW,
  T0,
  TRADER,
  closedAt,
  position,
} from './fixtures';

const noMarks = () => undefined;

describe('computeStatistic on the worked example', () => {
  it('D7 holds A, B, C, D and every field matches the hand computation', () => {
    // D7 = [T0 − 7 d, T0): A, B, C, D. F closed T0 − 10 d (too old), G closed today, E is open.
    expect(computeStatistic(TRADER, 'D7', NOW, MARKS)).toEqual({
      totalTrade: 4,
      totalWin: 2, // A and D: realisedPnl > 0
      totalLose: 2,
      realisedTotalGain: 200, // 50 + 150
      realisedTotalLoss: -180, // −100 − 80
      totalGain: 190, // pnl of A and D: 40 + 150
      totalLoss: -182, // pnl of B and C: −100 − 82
      realisedPnl: 20, // 50 − 100 − 80 + 150
      pnl: 8, // 40 − 100 − 82 + 150 (= G + L)
      totalFee: 37, // 5 + 10 + 2 + 20
      totalVolume: 6500, // 1000 + 2000 + 500 + 3000
      avgVolume: 1625, // 6500 / 4
      realisedAvgRoi: -1.25, // (50 − 25 − 80 + 50) / 4
      avgRoi: -4.25, // (40 − 25 − 82 + 50) / 4
      realisedMaxRoi: 50,
      maxRoi: 50,
      realisedMaxPnl: 150,
      maxPnl: 150,
      realisedMaxDrawdown: -80, // C's realisedRoi
      maxDrawdown: -82, // C's roi
      realisedMaxDrawdownPnl: -100, // B's realisedPnl
      maxDrawdownPnl: -100, // B's pnl (C's is −82)
      winRate: 50, // 2 / 4
      realisedProfitRate: expect.closeTo(52.631579, 5), // 200 / (200 + 180) × 100
      profitRate: expect.closeTo(51.075269, 5), // 190 / (190 + 182) × 100
      longRate: 50, // A and C
      orderPositionRatio: 2.75, // (2 + 4 + 2 + 3) / 4
      realisedProfitLossRatio: expect.closeTo(1.111111, 5), // (200 / 2) / (180 / 2)
      profitLossRatio: expect.closeTo(1.043956, 5), // (190 / 2) / (182 / 2)
      realisedGainLossRatio: expect.closeTo(1.111111, 5), // 200 / 180
      gainLossRatio: expect.closeTo(1.043956, 5), // 190 / 182
      avgDuration: 45900, // (86400 + 3600 + 7200 + 86400) / 4
      minDuration: 3600,
      maxDuration: 86400,
      avgLeverage: 7.5, // (10 + 5 + 5 + 10) / 4
      minLeverage: 5,
      maxLeverage: 10,
      totalLiquidation: 1, // C; D was liquidated in profit, a win, so it does not count
      totalLiquidationAmount: -80,
      runTimeDays: 20, // first open F at T0 − 20 d, now T0 + 12 h: floor(20.5)
      lastTradeAtTs: T0 + HOUR_MS, // G, outside D7 but the latest close over all time
      lastTradeAt: '2024-03-15T01:00:00.000Z',
      isOpenPosition: true, // E
      unrealisedPnl: 100, // E: (2200 − 2000) / 2000 × 1000
      statisticAt: '2024-03-15T12:00:00.000Z',
      indexTokens: ['BTC', 'ETH'],
      pairs: ['BTC-USD', 'ETH-USD'],
      longPnl: -42, // A and C: 40 − 82
      realisedLongPnl: -30, // 50 − 80
      shortPnl: 50, // B and D: −100 + 150
      realisedShortPnl: 50, // −100 + 150
      totalLongVolume: 1500, // 1000 + 500
      totalShortVolume: 5000, // 2000 + 3000
      // By close: D (win), A (win), B, C (losses); TRADER lists them in another order.
      winStreak: 0,
      loseStreak: 2,
      maxWinStreak: 2,
      maxLoseStreak: 2,
      // realisedRoi 50, −25, −80, 50: mean −1.25, sample deviation sqrt(12018.75 / 3).
      realisedSharpeRatio: expect.closeTo(-1.25 / Math.sqrt(12018.75 / 3), 12),
      // roi 40, −25, −82, 50: mean −4.25, sample deviation sqrt(11376.75 / 3).
      sharpeRatio: expect.closeTo(-4.25 / Math.sqrt(11376.75 / 3), 12),
      // Downside deviation sqrt((25² + 80²) / 4), sqrt((25² + 82²) / 4).
      realisedSortinoRatio: expect.closeTo(-1.25 / Math.sqrt(7025 / 4), 12),
      sortinoRatio: expect.closeTo(-4.25 / Math.sqrt(7349 / 4), 12),
    });
  });

  it('FULL adds F (T0 − 10 d) and G (closed today)', () => {
    const full = computeStatistic(TRADER, 'FULL', NOW, MARKS);
    expect(full).toMatchObject({
      totalTrade: 6,
      totalWin: 4, // A, D, F, G
      totalLose: 2,
      realisedPnl: 50, // 20 + 20 + 10
      pnl: 37, // 8 + 19 + 10
      totalFee: 38,
      realisedTotalGain: 230,
      totalGain: 219,
      totalVolume: 6700,
      minDuration: 3600,
      maxDuration: 864_000, // F: 10 days
      minLeverage: 1, // G: 100 / 100
      longRate: 50, // A, C, F
      indexTokens: ['BTC', 'ETH', 'SOL'],
      pairs: ['BTC-USD', 'ETH-USD', 'SOL-USD'],
    });
    expect(full?.winRate).toBeCloseTo(66.67, 2);
    expect(full?.avgVolume).toBeCloseTo(1116.67, 2);
  });

  it('D15, D30 and D60 hold A, B, C, D and F; the trader-wide fields are the same in every window', () => {
    const all = computeTraderStatistics(TRADER, NOW, MARKS);
    expect(Object.keys(all).sort()).toEqual(['D15', 'D30', 'D60', 'D7', 'FULL']);
    for (const w of ['D15', 'D30', 'D60'] as const) {
      expect(all[w]).toMatchObject({ totalTrade: 5, realisedPnl: 40, pnl: 27, totalFee: 38 });
    }
    for (const record of Object.values(all)) {
      expect(record).toMatchObject({ runTimeDays: 20, lastTradeAtTs: T0 + HOUR_MS, unrealisedPnl: 100 });
    }
  });

  it('writes a record that the wire schema accepts once the store adds its fields', () => {
    const values = computeStatistic(TRADER, 'D7', NOW, MARKS);
    const record = {
      ...values,
      id: 'x',
      account: ACCOUNT,
      protocol: 'PERPX',
      type: 'D7',
      createdAt: values?.statisticAt,
    };
    expect(positionStatisticSchema.safeParse(record).success).toBe(true);
  });
});

describe('existence, null and zero rules', () => {
  it('is null when the window has no closed position, even with open ones', () => {
    expect(computeStatistic([E], 'FULL', NOW, MARKS)).toBeNull();
    expect(computeStatistic([F], 'D7', NOW, MARKS)).toBeNull();
    expect(computeStatistic([], 'FULL', NOW, MARKS)).toBeNull();
    expect(computeTraderStatistics([E, F], NOW, MARKS)).toEqual({
      FULL: expect.anything(),
      D15: expect.anything(),
      D30: expect.anything(),
      D60: expect.anything(),
    });
  });

  it('with no losses: gainLossRatio equals G, profitLossRatio is 0, profit rates are 100', () => {
    // One win: realised 30, fee 10 → pnl 20.
    const s = computeStatistic([position({ realisedPnl: 30, fee: 10 })], 'D7', NOW, MARKS);
    expect(s).toMatchObject({
      totalLose: 0,
      realisedGainLossRatio: 30,
      gainLossRatio: 20,
      realisedProfitLossRatio: 0,
      profitLossRatio: 0,
      realisedProfitRate: 100,
      profitRate: 100,
      realisedMaxDrawdown: 0, // min(0, 30 %)
      realisedMaxDrawdownPnl: 0,
    });
  });

  it('with no wins: profitLossRatio 0, gain ratios and rates 0', () => {
    const s = computeStatistic(
      [position({ realisedPnl: -10 }), position({ realisedPnl: -30 })],
      'D7',
      NOW,
      MARKS,
    );
    expect(s).toMatchObject({
      totalWin: 0,
      winRate: 0,
      realisedProfitLossRatio: 0,
      profitLossRatio: 0,
      realisedGainLossRatio: 0,
      realisedProfitRate: 0,
      realisedTotalLoss: -40,
    });
  });

  it('realisedPnl of exactly 0 is a loss; all-zero amounts give 0 ratios, never NaN', () => {
    const s = computeStatistic([position({ realisedPnl: 0, collateral: 0, size: 0 })], 'D7', NOW, MARKS);
    expect(s).toMatchObject({
      totalWin: 0,
      totalLose: 1,
      realisedProfitRate: 0, // 0 / (0 + 0)
      realisedGainLossRatio: 0, // the loss is 0: equals the gain, 0
      realisedAvgRoi: 0, // collateral 0 → roi 0
      avgLeverage: 0,
    });
    for (const v of Object.values(s ?? {})) if (typeof v === 'number') expect(Number.isFinite(v)).toBe(true);
  });

  it('splits G and L by the sign of realisedPnl, not of pnl (chosen), so G + L = pnl', () => {
    // P: realised 5, fee 10 → pnl −5, a win. Q: realised −10, funding 20 → pnl 10, a loss.
    const s = computeStatistic(
      [position({ realisedPnl: 5, fee: 10 }), position({ realisedPnl: -10, funding: 20 })],
      'D7',
      NOW,
      MARKS,
    );
    expect(s).toMatchObject({
      realisedTotalGain: 5,
      realisedTotalLoss: -10,
      totalGain: -5,
      totalLoss: 10,
      pnl: 5,
      realisedProfitLossRatio: 0.5, // (5 / 1) / (10 / 1)
      profitLossRatio: -0.5, // (−5 / 1) / (|10| / 1)
    });
  });

  it('counts a liquidation only when it is not a win, and sums its realisedPnl', () => {
    const s = computeStatistic(
      [
        position({ isLiquidate: true, realisedPnl: -40 }),
        position({ isLiquidate: true, realisedPnl: 0 }),
        position({ isLiquidate: true, realisedPnl: 5 }),
        position({ isLiquidate: false, realisedPnl: -7 }),
      ],
      'D7',
      NOW,
      MARKS,
    );
    expect(s).toMatchObject({ totalLiquidation: 2, totalLiquidationAmount: -40 });
  });

  it('leaves an open position without a mark price out of unrealisedPnl, but still open', () => {
    expect(computeStatistic([A, E], 'D7', NOW, noMarks)).toMatchObject({
      isOpenPosition: true,
      unrealisedPnl: 0,
    });
    expect(computeStatistic([A], 'D7', NOW, MARKS)).toMatchObject({
      isOpenPosition: false,
      unrealisedPnl: 0,
    });
  });

  it('marks shorts the other way round', () => {
    // Short ETH of 1000 USD at 2000, mark 2200: −100.
    const short = position({ isLong: false, closeTimeMs: null });
    expect(computeStatistic([A, short], 'D7', NOW, MARKS)?.unrealisedPnl).toBe(-100);
  });

  it('runTimeDays counts whole days from the first open and is never negative', () => {
    const opened = (ms: number) => closedAt(T0 - HOUR_MS, { openTimeMs: ms });
    expect(computeStatistic([opened(NOW - DAY_MS)], 'D7', NOW, MARKS)?.runTimeDays).toBe(1);
    expect(computeStatistic([opened(NOW - DAY_MS + 1)], 'D7', NOW, MARKS)?.runTimeDays).toBe(0);
    expect(computeStatistic([opened(NOW + DAY_MS)], 'D7', NOW, MARKS)?.runTimeDays).toBe(0);
  });

  it('does not depend on the order of the positions for lists', () => {
    const forward = computeStatistic([A, B, C, D], 'D7', NOW, MARKS);
    const backward = computeStatistic([D, C, B, A], 'D7', NOW, MARKS);
    expect(backward?.indexTokens).toEqual(forward?.indexTokens);
    expect(backward?.pairs).toEqual(forward?.pairs);
  });
});

describe('window edges through the record', () => {
  const d7Count = (closeTimeMs: number, openTimeMs = closeTimeMs - HOUR_MS) =>
    computeStatistic([position({ openTimeMs, closeTimeMs })], 'D7', NOW, MARKS)?.totalTrade ?? 0;

  it('closed at T0 − 1 ms is in D7; closed at T0 is not', () => {
    expect(d7Count(T0 - 1)).toBe(1);
    expect(d7Count(T0)).toBe(0);
  });

  it('closed at T0 − 7 days exactly is in D7; 1 ms earlier is not', () => {
    expect(d7Count(T0 - 7 * DAY_MS)).toBe(1);
    expect(d7Count(T0 - 7 * DAY_MS - 1)).toBe(0);
  });

  it('opened before the window and closed inside it is in', () => {
    expect(d7Count(T0 - DAY_MS, T0 - 40 * DAY_MS)).toBe(1);
  });

  it('FULL includes a position closed today; no D-window does', () => {
    const all = computeTraderStatistics([G], NOW, MARKS);
    expect(Object.keys(all)).toEqual(['FULL']);
  });

  it('uses 00:00 UTC of now, not now − n × 24 h', () => {
    // Closed T0 − 7 d − 1 h: within 7 × 24 h of NOW (T0 + 12 h), yet before the window's first day.
    expect(d7Count(T0 - 7 * DAY_MS - HOUR_MS)).toBe(0);
  });
});

describe('single positions', () => {
  it('a short loss: drawdowns are its own numbers', () => {
    expect(computeStatistic([B], 'D7', NOW, MARKS)).toMatchObject({
      realisedMaxDrawdown: -25,
      maxDrawdown: -25,
      realisedMaxDrawdownPnl: -100,
      maxDrawdownPnl: -100,
      realisedMaxRoi: -25, // a max may be negative
      longRate: 0,
    });
  });
  it('F and D alone lie in different windows', () => {
    expect(computeStatistic([F], 'D15', NOW, MARKS)?.totalTrade).toBe(1);
    expect(computeStatistic([D], 'D7', NOW, MARKS)?.totalTrade).toBe(1);
  });
});
