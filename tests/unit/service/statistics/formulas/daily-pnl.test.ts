// Daily PnL series (docs/semantics.md, Daily PnL series) and the decision at the top of daily-pnl.ts:
// a day's realised PnL and fee count the positions the window's record holds, so the series sums
// to the record and today's realised PnL is 0 in D-windows.
import { describe, expect, it } from 'vitest';
import { dailyPnlSeries, sumSeries } from '../../../../../src/service/statistics/formulas/daily-pnl';
import { computeStatistic } from '../../../../../src/service/statistics/formulas/statistics';
import { C, E, F, G, HOUR_MS, MARKS, NOW, T0, TRADER, closedAt } from './fixtures';
import { DAY_MS } from '../../../../../src/service/statistics/formulas/windows';

const day = (n: number) => new Date(T0 + n * DAY_MS).toISOString();
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe('dailyPnlSeries', () => {
  it('D7 runs over the 7 window days and then today', () => {
    const s = dailyPnlSeries(TRADER, 'D7', NOW, MARKS);
    expect(s.date).toEqual([-7, -6, -5, -4, -3, -2, -1, 0].map(day));
    expect(s.date[0]).toBe('2024-03-08T00:00:00.000Z');
    // D on 03-11: 150; A and B on 03-13: 50 − 100; C on 03-14: −80. G closed today: outside D7.
    expect(s.realisedPnl).toEqual([0, 0, 0, 150, 0, -50, -80, 0]);
    expect(s.fee).toEqual([0, 0, 0, 20, 0, 15, 2, 0]);
    // Only today carries the open position E: (2200 − 2000) / 2000 × 1000.
    expect(s.unrealisedPnl).toEqual([0, 0, 0, 0, 0, 0, 0, 100]);
    expect(sum(s.realisedPnl)).toBe(computeStatistic(TRADER, 'D7', NOW, MARKS)?.realisedPnl);
    expect(sum(s.fee)).toBe(computeStatistic(TRADER, 'D7', NOW, MARKS)?.totalFee);
  });

  it('FULL starts on the day of the first close and counts today’s closes today', () => {
    const s = dailyPnlSeries(TRADER, 'FULL', NOW, MARKS);
    expect(s.date[0]).toBe('2024-03-05T00:00:00.000Z'); // F closed T0 − 10 d
    expect(s.date.at(-1)).toBe('2024-03-15T00:00:00.000Z');
    expect(s.realisedPnl).toEqual([20, 0, 0, 0, 0, 0, 150, 0, -50, -80, 10]);
    expect(s.fee).toEqual([1, 0, 0, 0, 0, 0, 20, 0, 15, 2, 0]);
    expect(s.unrealisedPnl.at(-1)).toBe(100);
    expect(sum(s.realisedPnl)).toBe(50); // = the FULL record's realisedPnl
  });

  it('D60 has 61 entries, across February 29', () => {
    const s = dailyPnlSeries(TRADER, 'D60', NOW, MARKS);
    expect(s.date).toHaveLength(61);
    expect(s.date[0]).toBe('2024-01-15T00:00:00.000Z');
    expect(s.date).toContain('2024-02-29T00:00:00.000Z');
  });

  it('puts a close at 23:59:59.999 on its own day and one at 00:00 on the next', () => {
    const s = dailyPnlSeries(
      [closedAt(T0 - DAY_MS - 1, { realisedPnl: 1 }), closedAt(T0 - DAY_MS, { realisedPnl: 2 })],
      'D7',
      NOW,
      MARKS,
    );
    expect(s.realisedPnl.slice(-3)).toEqual([1, 2, 0]);
  });

  it('FULL with only open positions is today alone', () => {
    expect(dailyPnlSeries([E], 'FULL', NOW, MARKS)).toEqual({
      date: ['2024-03-15T00:00:00.000Z'],
      realisedPnl: [0],
      unrealisedPnl: [100],
      fee: [0],
    });
  });

  it('counts a FULL close stamped after today on today, so the sum still matches', () => {
    const s = dailyPnlSeries([closedAt(NOW + 2 * DAY_MS, { realisedPnl: 4 })], 'FULL', NOW, MARKS);
    expect(s.realisedPnl).toEqual([4]);
  });

  it('skips open positions without a mark price', () => {
    expect(dailyPnlSeries([E, G], 'D7', NOW, () => undefined).unrealisedPnl.at(-1)).toBe(0);
  });

  it('is the same at any time of the day', () => {
    expect(dailyPnlSeries(TRADER, 'D15', T0 + 2 * HOUR_MS, MARKS)).toEqual(
      dailyPnlSeries(TRADER, 'D15', NOW, MARKS),
    );
  });
});

describe('sumSeries', () => {
  it('adds day by day, aligning different first days', () => {
    const a = dailyPnlSeries([F], 'FULL', NOW, MARKS); // 03-05 .. 03-15, 20 on 03-05
    const b = dailyPnlSeries([C, E], 'FULL', NOW, MARKS); // 03-14 .. 03-15, −80 on 03-14, 100 open
    const s = sumSeries(a, b);
    expect(s.date).toEqual(a.date);
    expect(s.realisedPnl).toEqual([20, 0, 0, 0, 0, 0, 0, 0, 0, -80, 0]);
    expect(s.fee).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]);
    expect(s.unrealisedPnl).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100]);
    expect(sumSeries(b, a)).toEqual(s);
  });

  it('is the identity with an empty series', () => {
    const a = dailyPnlSeries(TRADER, 'D7', NOW, MARKS);
    expect(sumSeries(a, { date: [], realisedPnl: [], unrealisedPnl: [], fee: [] })).toEqual(a);
  });
});
