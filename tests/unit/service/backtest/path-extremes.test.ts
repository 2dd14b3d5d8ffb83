// The block extremes of a path against reading every point (docs/backtest.md, Speed).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extremesOf, firstCrossIn, stretchExtremes } from '../../../../src/service/backtest/path-extremes';

/** A walk of `n` points, with a NaN now and then (a gap the crossing test never crosses at). */
const path = fc
  .tuple(fc.integer({ min: 0, max: 1_500 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }))
  .map(([n, seed]) => {
    let x = seed;
    const values = new Float64Array(n);
    let p = 100;
    for (let i = 0; i < n; i += 1) {
      x = (x * 48_271) % 2_147_483_647;
      p *= 1 + (x / 2_147_483_647 - 0.5) * 0.02;
      values[i] = x % 97 === 0 ? NaN : p;
    }
    return values;
  });

const stretch = (n: number) =>
  fc.tuple(fc.integer({ min: -2, max: n + 2 }), fc.integer({ min: -2, max: n + 2 }));

describe('path extremes', () => {
  it('give the min and max of any stretch, as reading its points does', () => {
    fc.assert(
      fc.property(
        path.chain((values) => fc.tuple(fc.constant(values), stretch(values.length))),
        ([values, [from, to]]) => {
          const out = new Float64Array(2);
          stretchExtremes(extremesOf(values), from, Math.min(to, values.length - 1), out, 0);
          let low = Infinity;
          let high = -Infinity;
          for (let i = Math.max(0, from); i <= Math.min(to, values.length - 1); i += 1) {
            if (values[i]! < low) low = values[i]!;
            if (values[i]! > high) high = values[i]!;
          }
          expect([out[0], out[1]]).toEqual([low, high]);
        },
      ),
      { numRuns: 2_000, seed: 4 },
    );
  });

  it('find the first point of a stretch at or past a level, as reading its points does', () => {
    fc.assert(
      fc.property(
        path.chain((values) =>
          fc.tuple(
            fc.constant(values),
            stretch(values.length),
            fc.double({ min: 0.8, max: 1, noNaN: true }),
            fc.double({ min: 1, max: 1.2, noNaN: true }),
          ),
        ),
        ([values, [from, to], down, up]) => {
          const last = Math.min(to, values.length - 1);
          const start = values[Math.max(0, Math.min(from, values.length - 1))] ?? 100;
          const low = start * down;
          const high = start * up;
          let want = -1;
          for (let i = Math.max(0, from); i <= last; i += 1)
            if (values[i]! <= low || values[i]! >= high) {
              want = i;
              break;
            }
          expect(firstCrossIn(extremesOf(values), from, last, low, high)).toBe(want);
        },
      ),
      { numRuns: 2_000, seed: 5 },
    );
  });
});
