// Per-position numbers of docs/semantics.md, Positions.
import { describe, expect, it } from 'vitest';
import {
  derivePosition,
  unrealisedPnlOf,
} from '../../../../../src/service/statistics/formulas/position-facts';
import { A, B, C, D, E } from './fixtures';

describe('derivePosition', () => {
  it('derives the worked example (see fixtures.ts)', () => {
    expect(derivePosition(A)).toEqual({
      pnl: 40, // 50 − 5 + (−5)
      roi: 40, // 40 / 100 × 100
      realisedRoi: 50,
      leverage: 10, // 1000 / 100
      isWin: true,
      durationInSecond: 86_400,
      status: 'CLOSE',
    });
    expect(derivePosition(B)).toMatchObject({
      pnl: -100,
      roi: -25,
      realisedRoi: -25,
      leverage: 5,
      isWin: false,
    });
    expect(derivePosition(C)).toMatchObject({ pnl: -82, roi: -82, realisedRoi: -80, durationInSecond: 7200 });
    expect(derivePosition(D)).toMatchObject({ pnl: 150, roi: 50, isWin: true });
  });

  it('leaves isWin and durationInSecond null while open', () => {
    expect(derivePosition(E)).toMatchObject({
      isWin: null,
      durationInSecond: null,
      status: 'OPEN',
      leverage: 5,
    });
  });

  it('is a loss at realisedPnl 0, even when funding makes pnl positive', () => {
    expect(derivePosition({ ...A, realisedPnl: 0, fee: 0, funding: 3 })).toMatchObject({
      isWin: false,
      pnl: 3,
    });
  });

  it('guards a zero collateral: roi, realisedRoi and leverage 0, never NaN or Infinity', () => {
    expect(derivePosition({ ...A, collateral: 0 })).toMatchObject({ roi: 0, realisedRoi: 0, leverage: 0 });
    expect(
      derivePosition({ ...A, collateral: 0, size: 0, realisedPnl: 0, fee: 0, funding: 0 }),
    ).toMatchObject({
      roi: 0,
      leverage: 0,
    });
  });
});

describe('unrealisedPnlOf', () => {
  it('is the relative price move times the USD size, negated for shorts', () => {
    expect(unrealisedPnlOf(E, 2200)).toBe(100); // (2200 − 2000) / 2000 × 1000
    expect(unrealisedPnlOf(E, 1800)).toBe(-100);
    expect(unrealisedPnlOf({ ...E, isLong: false }, 2200)).toBe(-100);
    expect(unrealisedPnlOf({ ...E, isLong: false }, 2000)).toBe(0);
  });

  it('is 0 when the average price is 0', () => {
    expect(unrealisedPnlOf({ ...E, averagePrice: 0 }, 2200)).toBe(0);
  });
});
