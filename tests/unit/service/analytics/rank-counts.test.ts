import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countStrictlyBelow } from '../../../../src/service/analytics/rank-counts';

const brute = (values: number[]) => values.map((v) => values.filter((w) => w < v).length);

describe('countStrictlyBelow', () => {
  it('counts values strictly below, ties equal, signs, zeros and -Infinity in order', () => {
    const values = [3, -1, 3, 0, -0, -Infinity, 2.5, -1e300, 1e-300, -1];
    expect([...countStrictlyBelow(Float64Array.from(values))]).toEqual(brute(values));
  });

  it('agrees with the definition on any population', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double({ noNaN: true }), fc.integer({ min: -3, max: 3 }).map(Number)), {
          maxLength: 300,
        }),
        (values) => {
          expect([...countStrictlyBelow(Float64Array.from(values))]).toEqual(brute(values));
        },
      ),
    );
  });
});

describe('the unrolled ranking columns', () => {
  it('follow RANKING_KEYS and the direction table', async () => {
    const { RANKING_DIRECTION, rankPopulation } = await import('../../../../src/service/analytics/rankings');
    const { RANKING_KEYS } = await import('../../../../src/shared/api/statistics');
    // Two records that differ on one key at a time: the better one must rank 100 on that key only.
    for (const key of RANKING_KEYS) {
      const base = Object.fromEntries(RANKING_KEYS.map((k) => [k, 1])) as Record<string, number>;
      const better = { ...base, [key]: RANKING_DIRECTION[key] === 'higherIsBetter' ? 2 : 0 };
      const [rb, rw] = rankPopulation([better, base] as never);
      for (const k of RANKING_KEYS) {
        expect(rb![k], `${key}/${k}`).toBe(k === key ? 100 : 0);
        expect(rw![k], `${key}/${k}`).toBe(0);
      }
    }
  });
});
