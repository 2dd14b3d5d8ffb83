// Properties of the statistics over random traders (fast-check): the identities of docs/semantics.md
// and the agreement of the one-pass, all-windows computation with the single-window one.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dailyPnlSeries } from '../../../../../src/service/statistics/formulas/daily-pnl';
import type { PositionFacts } from '../../../../../src/service/statistics/formulas/position-facts';
import {
  computeStatistic,
  computeTraderStatistics,
} from '../../../../../src/service/statistics/formulas/statistics';
import { WINDOWS } from '../../../../../src/service/statistics/formulas/windows';
import { MARKS, nowArb, positionArb } from './fixtures';

const traderArb = fc.array(positionArb, { maxLength: 30 });
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** Floating sums in different orders agree to 1e-9 of the magnitudes involved. */
const tolerance = (ps: readonly PositionFacts[], pick: (p: PositionFacts) => number) =>
  1e-9 * (1 + sum(ps.map((p) => Math.abs(pick(p)))));

const pnlOf = (p: PositionFacts) => p.realisedPnl - p.fee + p.funding;

describe('statistic properties', () => {
  it('totalWin + totalLose = totalTrade; G_r + L_r = realisedPnl; G + L = pnl', () => {
    fc.assert(
      fc.property(traderArb, nowArb, (ps, now) => {
        for (const s of Object.values(computeTraderStatistics(ps, now, MARKS))) {
          expect(s.totalWin + s.totalLose).toBe(s.totalTrade);
          expect(Math.abs(s.realisedTotalGain + s.realisedTotalLoss - s.realisedPnl)).toBeLessThanOrEqual(
            tolerance(ps, (p) => p.realisedPnl),
          );
          expect(Math.abs(s.totalGain + s.totalLoss - s.pnl)).toBeLessThanOrEqual(tolerance(ps, pnlOf));
        }
      }),
    );
  });

  it('never writes NaN or Infinity', () => {
    fc.assert(
      fc.property(traderArb, nowArb, (ps, now) => {
        for (const s of Object.values(computeTraderStatistics(ps, now, MARKS))) {
          for (const v of Object.values(s)) if (typeof v === 'number') expect(Number.isFinite(v)).toBe(true);
        }
      }),
    );
  });

  it('computeTraderStatistics equals computeStatistic for every window', () => {
    fc.assert(
      fc.property(traderArb, nowArb, (ps, now) => {
        const all = computeTraderStatistics(ps, now, MARKS);
        for (const w of WINDOWS) expect(all[w] ?? null).toEqual(computeStatistic(ps, w, now, MARKS));
      }),
    );
  });

  it('Σ daily realisedPnl = the record’s realisedPnl, Σ daily fee = its totalFee (0 without a record)', () => {
    fc.assert(
      fc.property(traderArb, nowArb, (ps, now) => {
        for (const w of WINDOWS) {
          const series = dailyPnlSeries(ps, w, now, MARKS);
          const record = computeStatistic(ps, w, now, MARKS);
          expect(series.realisedPnl).toHaveLength(series.date.length);
          expect(Math.abs(sum(series.realisedPnl) - (record?.realisedPnl ?? 0))).toBeLessThanOrEqual(
            tolerance(ps, (p) => p.realisedPnl),
          );
          expect(Math.abs(sum(series.fee) - (record?.totalFee ?? 0))).toBeLessThanOrEqual(
            tolerance(ps, (p) => p.fee),
          );
          // Today's unrealised PnL sums the same open positions in the same order as the record.
          if (record !== null) expect(series.unrealisedPnl.at(-1)).toBe(record.unrealisedPnl);
        }
      }),
    );
  });

  it('windows nest: D7 ⊆ D15 ⊆ D30 ⊆ D60 ⊆ FULL by count', () => {
    fc.assert(
      fc.property(traderArb, nowArb, (ps, now) => {
        const all = computeTraderStatistics(ps, now, MARKS);
        const n = (w: keyof typeof all) => all[w]?.totalTrade ?? 0;
        expect(n('D7')).toBeLessThanOrEqual(n('D15'));
        expect(n('D15')).toBeLessThanOrEqual(n('D30'));
        expect(n('D30')).toBeLessThanOrEqual(n('D60'));
        expect(n('D60')).toBeLessThanOrEqual(n('FULL'));
      }),
    );
  });
});
