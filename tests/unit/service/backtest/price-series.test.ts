// The price path's searches against brute force, and the fast price rounding against toPrecision.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PriceSeries } from '../../../../src/service/backtest/price-series';
import { roundPrice } from '../../../../src/service/copy-engine/exits';

/** A seeded uniform draw. */
function rng(seed: number) {
  let x = seed;
  return () => (x = (x * 48_271) % 2_147_483_647) / 2_147_483_647;
}

describe('PriceSeries', () => {
  const r = rng(7);
  const values = new Float64Array(10_000);
  let price = 100;
  for (let i = 0; i < values.length; i += 1) values[i] = price *= 1 + (r() - 0.5) * 0.01;
  const regular = new PriceSeries(values, null, 1_000, 60_000);
  const times = Float64Array.from(values, (_, i) => 5_000 + i * 1_000 + (i % 3));
  const ticks = new PriceSeries(values, times);

  it('finds the first point at or after `from` outside (low, high), as a scan does', () => {
    for (let trial = 0; trial < 2_000; trial += 1) {
      const from = Math.floor(r() * values.length);
      const mid = values[from]!;
      const low = mid * (1 - r() * 0.3);
      const high = mid * (1 + r() * 0.3);
      let expected = -1;
      for (let i = from; i < values.length; i += 1)
        if (values[i]! <= low || values[i]! >= high) {
          expected = i;
          break;
        }
      expect(regular.firstCross(from, low, high)).toBe(expected);
      expect(ticks.firstCross(from, low, high)).toBe(expected);
    }
  });

  it('answers the price in force at a time, NaN before the first point', () => {
    expect(regular.priceAt(999)).toBeNaN();
    expect(regular.priceAt(1_000)).toBe(values[0]);
    expect(regular.priceAt(1_000 + 60_000 * 5 + 59_999)).toBe(values[5]);
    expect(regular.priceAt(1e15)).toBe(values[values.length - 1]);
    expect(ticks.indexAt(5_000 + 7 * 1_000 + 1)).toBe(7);
    expect(ticks.indexAt(5_000 + 7 * 1_000)).toBe(6);
    expect(ticks.indexAt(4_999)).toBe(-1);
  });

  it('interpolates the cumulative funding rate within a step', () => {
    const s = new PriceSeries(values, null, 0, 60_000, {
      index: Float64Array.from([0, 0.001, 0.003]),
      startMs: 0,
      stepMs: 3_600_000,
    });
    expect(s.fundingAt(0)).toBe(0);
    expect(s.fundingAt(1_800_000)).toBeCloseTo(0.0005, 12);
    expect(s.fundingAt(5_400_000)).toBeCloseTo(0.002, 12);
    expect(s.fundingAt(1e12)).toBeCloseTo(0.003, 12);
    expect(regular.fundingAt(1e6)).toBe(0);
  });
});

describe('roundPrice', () => {
  it('is Number(price.toPrecision(12)) for prices of every magnitude, ties and powers of ten', () => {
    const r = rng(11);
    const mismatches: number[] = [];
    const check = (x: number) => {
      if (roundPrice(x) !== Number(x.toPrecision(12))) mismatches.push(x);
    };
    for (let i = 0; i < 200_000; i += 1) {
      check(r() * 10 ** (Math.floor(r() * 24) - 12));
      const entry = Math.round(r() * 1e8) / 100;
      const leverage = 2 + Math.floor(r() * 49);
      check(entry * (1 - 1 / leverage));
      check(entry * (1 + 1 / leverage));
      check(-entry);
    }
    // Twelve-digit ties (…5 in the 13th digit) and the decades' edges.
    for (let e = -10; e <= 12; e += 1)
      for (let d = 1; d <= 9; d += 1) {
        check(d * 10 ** e);
        check(d * 10 ** e * (1 + Number.EPSILON));
        check(d * 10 ** e * (1 - Number.EPSILON));
        check((d + 0.00000000005) * 10 ** e);
      }
    expect(mismatches).toEqual([]);
  });

  it('is Number(price.toPrecision(12)) for any double, the decades near powers of ten included', () => {
    const nearPower = fc
      .tuple(fc.integer({ min: -11, max: 12 }), fc.integer({ min: -3, max: 3 }))
      .map(([e, ulps]) => 10 ** e * (1 + ulps * Number.EPSILON));
    fc.assert(
      fc.property(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), nearPower), (x) => {
        expect(roundPrice(x)).toBe(Number(x.toPrecision(12)));
      }),
      { numRuns: 50_000, seed: 12 },
    );
  });
});
