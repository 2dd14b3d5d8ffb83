// The statistics added for real clients (docs/statistics.md): long/short split, streaks, Sharpe
// and Sortino. Hand cases for each rule, then properties over random traders.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PositionFacts } from '../../../../../src/service/statistics/formulas/position-facts';
import {
  ReturnMoments,
  sharpeRatio,
  sortinoRatio,
} from '../../../../../src/service/statistics/formulas/return-ratios';
import {
  computeStatistic,
  computeTraderStatistics,
} from '../../../../../src/service/statistics/formulas/statistics';
import { DAY_MS, WINDOWS } from '../../../../../src/service/statistics/formulas/windows';
import { HOUR_MS, MARKS, NOW, T0, closedAt, nowArb, positionArb } from './fixtures';

/** Closed positions one hour apart in list order, winning where `pattern` has W (realisedPnl ±10). */
const run = (pattern: string): PositionFacts[] =>
  [...pattern].map((c, i) =>
    closedAt(T0 - 3 * DAY_MS + i * HOUR_MS, {
      id: `s${String(i).padStart(3, '0')}`,
      realisedPnl: c === 'W' ? 10 : -10,
    }),
  );

const full = (ps: readonly PositionFacts[]) => computeStatistic(ps, 'FULL', NOW, MARKS);

describe('Sharpe and Sortino moments', () => {
  it('do not depend on the order of returns too small to square (CI found one at 1e-159 %)', () => {
    // The shrunk counterexample: two positions of no collateral (ROI 0) and one whose ROI is
    // −1.6e-159 %. Its squared deviations underflow, so the ratio depended on the input order.
    const tiny = -1.6469e-159;
    const ratios = (rs: number[]) => {
      const m = new ReturnMoments();
      for (const r of rs) m.add(r);
      return [sharpeRatio(m), sortinoRatio(m)];
    };
    expect(ratios([0, 0, tiny])).toEqual(ratios([tiny, 0, 0]));
    // Tiny returns count as 0: no spread, no ratio.
    expect(ratios([0, 0, tiny])).toEqual([null, null]);
    expect(ratios([0, tiny, -1.5, 2.5])).toEqual(ratios([0, 0, -1.5, 2.5]));
  });
});

describe('streaks', () => {
  it('count the run that ends the window and the longest of each kind', () => {
    expect(full(run('WWWLLWWL'))).toMatchObject({
      winStreak: 0,
      loseStreak: 1,
      maxWinStreak: 3,
      maxLoseStreak: 2,
    });
    expect(full(run('LWWLWWWW'))).toMatchObject({
      winStreak: 4,
      loseStreak: 0,
      maxWinStreak: 4,
      maxLoseStreak: 1,
    });
    expect(full(run('L'))).toMatchObject({ winStreak: 0, loseStreak: 1, maxWinStreak: 0, maxLoseStreak: 1 });
  });

  it('follow close time whatever the input order', () => {
    const ordered = run('WWLWLLLW');
    const reversed = [...ordered].reverse();
    const expected = { winStreak: 1, loseStreak: 0, maxWinStreak: 2, maxLoseStreak: 3 };
    expect(full(ordered)).toMatchObject(expected);
    expect(full(reversed)).toMatchObject(expected);
  });

  it('break ties of close time by id', () => {
    const at = T0 - 2 * DAY_MS;
    const win = closedAt(at, { id: 'b', realisedPnl: 5 });
    const loss = closedAt(at, { id: 'a', realisedPnl: -5 });
    // Same instant: a (loss) then b (win), in either input order.
    for (const ps of [
      [win, loss],
      [loss, win],
    ])
      expect(full(ps)).toMatchObject({ winStreak: 1, loseStreak: 0 });
  });

  it('a break-even close (realisedPnl 0) is not a win, so it extends a losing run', () => {
    const ps = run('LL').concat(closedAt(T0 - DAY_MS, { id: 'z', realisedPnl: 0 }));
    expect(full(ps)).toMatchObject({ loseStreak: 3, maxLoseStreak: 3 });
  });

  it('D-windows count only their own positions: a run split by the window edge', () => {
    // Wins 10 days ago are outside D7; the two losses inside it end it.
    const ps = [
      closedAt(T0 - 10 * DAY_MS, { id: 'a', realisedPnl: 5 }),
      closedAt(T0 - 9 * DAY_MS, { id: 'b', realisedPnl: 5 }),
      closedAt(T0 - 3 * DAY_MS, { id: 'c', realisedPnl: -5 }),
      closedAt(T0 - 2 * DAY_MS, { id: 'd', realisedPnl: -5 }),
    ];
    expect(computeStatistic(ps, 'D7', NOW, MARKS)).toMatchObject({ maxWinStreak: 0, loseStreak: 2 });
    expect(full(ps)).toMatchObject({ maxWinStreak: 2, loseStreak: 2 });
  });

  it('refuse positions out of close order that cannot be read twice', () => {
    const reversed = run('WL').reverse();
    function* once() {
      yield* reversed;
    }
    expect(() => computeTraderStatistics(once(), NOW, MARKS)).toThrow(/readable twice/);
  });
});

describe('Sharpe and Sortino ratios', () => {
  /** Closed positions with these realised ROIs (collateral 100, no fee: roi = realisedRoi). */
  const withRois = (rois: number[]) =>
    rois.map((r, i) =>
      closedAt(T0 - 3 * DAY_MS + i * HOUR_MS, { collateral: 100, realisedPnl: r, fee: 0, funding: 0 }),
    );

  it('mean over the sample deviation, mean over the downside deviation', () => {
    // r = 10, −20, 30: mean 20 / 3; Σ(r − mean)² = 1266.67; s = sqrt(1266.67 / 2); d = sqrt(400 / 3).
    const s = full(withRois([10, -20, 30]))!;
    const mean = 20 / 3;
    const ss = (10 - mean) ** 2 + (-20 - mean) ** 2 + (30 - mean) ** 2;
    expect(s.realisedSharpeRatio).toBeCloseTo(mean / Math.sqrt(ss / 2), 12);
    expect(s.sharpeRatio).toBeCloseTo(mean / Math.sqrt(ss / 2), 12);
    expect(s.realisedSortinoRatio).toBeCloseTo(mean / Math.sqrt(400 / 3), 12);
  });

  it('are null with one position, with no spread, and (Sortino) without a losing return', () => {
    expect(full(withRois([10]))).toMatchObject({ sharpeRatio: null, sortinoRatio: null });
    expect(full(withRois([-7, -7, -7]))).toMatchObject({ sharpeRatio: null, realisedSharpeRatio: null });
    // Equal losses still have a downside: mean / d = −7 / 7 = −1.
    expect(full(withRois([-7, -7, -7]))!.sortinoRatio).toBeCloseTo(-1, 12);
    const gains = full(withRois([5, 15]))!;
    expect(gains.sortinoRatio).toBeNull();
    expect(gains.sharpeRatio).toBeCloseTo(10 / Math.sqrt(50), 12);
  });

  it('keep the spread of large returns (no cancellation)', () => {
    const s = full(withRois([1e9, 1e9 + 2, 1e9 + 4]))!;
    // mean 1e9 + 2, s = 2. Σr² − n·mean² would lose the spread entirely at this magnitude; the
    // ROI's own division (pnl / collateral × 100) leaves an error of a few parts in 1e8.
    expect(Math.abs(s.realisedSharpeRatio! / ((1e9 + 2) / 2) - 1)).toBeLessThan(1e-6);
  });
});

describe('added statistics over random traders', () => {
  const traderArb = fc.array(positionArb, { maxLength: 30 });
  const near = (a: number, b: number, scale: number) =>
    expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-9 * (1 + scale));

  it('long + short = the whole; streaks fit the counts; one current streak is 0', () => {
    fc.assert(
      fc.property(traderArb, nowArb, (ps, now) => {
        const scale = ps.reduce(
          (n, p) => n + Math.abs(p.realisedPnl) + p.fee + Math.abs(p.funding) + p.size,
          0,
        );
        for (const s of Object.values(computeTraderStatistics(ps, now, MARKS))) {
          near(s.longPnl + s.shortPnl, s.pnl, scale);
          near(s.realisedLongPnl + s.realisedShortPnl, s.realisedPnl, scale);
          near(s.totalLongVolume + s.totalShortVolume, s.totalVolume, scale);
          expect(s.winStreak === 0 || s.loseStreak === 0).toBe(true);
          expect(s.winStreak + s.loseStreak).toBeGreaterThan(0);
          expect(s.winStreak).toBeLessThanOrEqual(s.maxWinStreak);
          expect(s.loseStreak).toBeLessThanOrEqual(s.maxLoseStreak);
          expect(s.maxWinStreak).toBeLessThanOrEqual(s.totalWin);
          expect(s.maxLoseStreak).toBeLessThanOrEqual(s.totalLose);
          expect(s.maxWinStreak > 0).toBe(s.totalWin > 0);
          if (s.totalTrade < 2) expect([s.sharpeRatio, s.sortinoRatio]).toEqual([null, null]);
        }
      }),
    );
  });

  it('do not depend on the order of the input (streaks sort by close time, then id)', () => {
    fc.assert(
      fc.property(traderArb, nowArb, fc.integer(), (ps, now, seed) => {
        const shuffled = [...ps].sort(
          (a, b) => ((a.id.length * 31 + seed) % 7) - ((b.id.length * 17 + seed) % 5),
        );
        const a = computeTraderStatistics(ps, now, MARKS);
        const b = computeTraderStatistics(shuffled, now, MARKS);
        for (const w of WINDOWS) {
          const [x, y] = [a[w], b[w]];
          expect(x === undefined).toBe(y === undefined);
          if (!x || !y) continue;
          expect([y.winStreak, y.loseStreak, y.maxWinStreak, y.maxLoseStreak]).toEqual([
            x.winStreak,
            x.loseStreak,
            x.maxWinStreak,
            x.maxLoseStreak,
          ]);
          for (const k of [
            'sharpeRatio',
            'sortinoRatio',
            'realisedSharpeRatio',
            'realisedSortinoRatio',
          ] as const) {
            const [u, v] = [x[k], y[k]];
            expect(u === null).toBe(v === null);
            if (u !== null && v !== null)
              expect(Math.abs(u - v)).toBeLessThanOrEqual(1e-6 * (1 + Math.abs(u)));
          }
        }
      }),
    );
  });
});
