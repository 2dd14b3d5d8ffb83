// Percentile rankings (docs/statistics.md, Rankings): 100 × #strictly worse / (N − 1), 2 decimals.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LOWER_IS_BETTER_RANKING_KEYS, RANKING_KEYS } from '../../../../../src/shared/api/statistics';
import type { RankingKey } from '../../../../../src/shared/api/statistics';
import { RANKING_DIRECTION, rankPopulation } from '../../../../../src/service/statistics/formulas/rankings';
import type { RankingInput } from '../../../../../src/service/statistics/formulas/rankings';

/** A record with every key 0 except the given ones. */
const rec = (values: Partial<Record<RankingKey, number | null>>): RankingInput => ({
  ...(Object.fromEntries(RANKING_KEYS.map((k) => [k, 0])) as Record<RankingKey, number>),
  ...values,
});

/** The rankings of one key over a population given as that key's values. */
const rankOf = (key: RankingKey, values: (number | null)[]) =>
  rankPopulation(values.map((v) => rec({ [key]: v }))).map((r) => r[key]);

describe('rankPopulation by hand', () => {
  it('higher is better, ties share a ranking, null is the worst', () => {
    // N = 4, N − 1 = 3. 10 beats only null (1/3); each 20 beats 10 and null (2/3); null beats none.
    expect(rankOf('pnl', [10, 20, 20, null])).toEqual([33.33, 66.67, 66.67, 0]);
  });

  it('lower is better for avgDuration, avgLeverage and orderPositionRatio', () => {
    // 100 beats null; each 50 beats 100 and null; null beats nothing.
    expect(rankOf('avgDuration', [100, 50, null, 50])).toEqual([33.33, 66.67, 0, 66.67]);
    expect(rankOf('avgLeverage', [2, 10, 5])).toEqual([100, 0, 50]);
    expect(rankOf('orderPositionRatio', [3, 1])).toEqual([0, 100]);
    expect(RANKING_DIRECTION).toMatchObject({
      avgDuration: 'lowerIsBetter',
      avgLeverage: 'lowerIsBetter',
      orderPositionRatio: 'lowerIsBetter',
      totalTrade: 'higherIsBetter',
    });
  });

  it('a drawdown closer to 0 is better', () => {
    expect(rankOf('realisedMaxDrawdown', [-10, 0, -50, -10])).toEqual([33.33, 100, 0, 33.33]);
  });

  it('ranks all 13 keys independently', () => {
    const [a, b] = rankPopulation([
      rec({ winRate: 60, avgLeverage: 10 }),
      rec({ winRate: 40, avgLeverage: 2 }),
    ]);
    expect(a).toMatchObject({ winRate: 100, avgLeverage: 0, totalTrade: 0 });
    expect(b).toMatchObject({ winRate: 0, avgLeverage: 100, totalTrade: 0 });
    expect(Object.keys(a ?? {}).sort()).toEqual([...RANKING_KEYS].sort());
  });

  it('two nulls tie, and a whole tie gives everyone 0 (nobody is strictly worse)', () => {
    expect(rankOf('pnl', [null, null, 5])).toEqual([0, 0, 100]);
    expect(rankOf('pnl', [7, 7, 7])).toEqual([0, 0, 0]);
  });

  it('gives 100 on every key when N = 1, even for a null; nothing for N = 0', () => {
    const [only] = rankPopulation([rec({ pnl: null })]);
    expect(Object.values(only ?? {})).toEqual(RANKING_KEYS.map(() => 100));
    expect(rankPopulation([])).toEqual([]);
  });
});

/** The definition read literally: O(N²). */
function reference(values: (number | null)[], lowerIsBetter: boolean): number[] {
  const worse = (x: number | null, y: number | null) => {
    if (x === null) return y !== null;
    if (y === null) return false;
    return lowerIsBetter ? x > y : x < y;
  };
  const n = values.length;
  return values.map((v) =>
    n === 1 ? 100 : Math.round(((100 * values.filter((o) => worse(o, v)).length) / (n - 1)) * 100) / 100,
  );
}

const valueArb = fc.option(fc.integer({ min: -5, max: 5 }), { nil: null, freq: 5 });

describe('rankPopulation properties', () => {
  it('matches the literal definition on every key', () => {
    fc.assert(
      fc.property(
        fc.array(valueArb, { minLength: 1, maxLength: 40 }),
        fc.constantFrom(...RANKING_KEYS),
        (values, key) => {
          expect(rankOf(key, values)).toEqual(reference(values, RANKING_DIRECTION[key] === 'lowerIsBetter'));
        },
      ),
    );
  });

  it('stays in [0, 100], gives a unique best 100 and a unique worst 0', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { nil: null }), {
          minLength: 2,
          maxLength: 60,
        }),
        (values) => {
          const ranks = rankOf('pnl', values);
          for (const r of ranks) expect(r >= 0 && r <= 100).toBe(true);
          const numbers = values.filter((v): v is number => v !== null);
          const best = Math.max(...numbers);
          if (numbers.filter((v) => v === best).length === 1) expect(ranks[values.indexOf(best)]).toBe(100);
          if (
            values.every((v) => v !== null) &&
            numbers.filter((v) => v === Math.min(...numbers)).length === 1
          ) {
            expect(ranks[values.indexOf(Math.min(...numbers))]).toBe(0);
          }
        },
      ),
    );
  });
});

describe('ranking directions', () => {
  it("the service's table and the contract's lower-is-better list agree (the core and terminal read the list)", () => {
    const lower = RANKING_KEYS.filter((k) => RANKING_DIRECTION[k] === 'lowerIsBetter');
    expect(lower.sort()).toEqual([...LOWER_IS_BETTER_RANKING_KEYS].sort());
    expect(lower).toContain('maxLoseStreak');
  });

  it('rank the added keys: a higher Sharpe, a longer winning and a shorter losing streak are better', () => {
    const [good, bad] = rankPopulation([
      rec({ sharpeRatio: 1.5, maxWinStreak: 4, maxLoseStreak: 1 }),
      rec({ sharpeRatio: null, maxWinStreak: 2, maxLoseStreak: 5 }),
    ]);
    expect([good?.sharpeRatio, good?.maxWinStreak, good?.maxLoseStreak]).toEqual([100, 100, 100]);
    expect([bad?.sharpeRatio, bad?.maxWinStreak, bad?.maxLoseStreak]).toEqual([0, 0, 0]);
  });
});

describe('the unrolled ranking columns', () => {
  it('follow RANKING_KEYS and the direction table', () => {
    // Two records that differ on one key at a time: the better one must rank 100 on that key only.
    for (const key of RANKING_KEYS) {
      const base = rec(Object.fromEntries(RANKING_KEYS.map((k) => [k, 1])));
      const better = { ...base, [key]: RANKING_DIRECTION[key] === 'higherIsBetter' ? 2 : 0 };
      const [rb, rw] = rankPopulation([better, base]);
      for (const k of RANKING_KEYS) {
        expect(rb![k], `${key}/${k}`).toBe(k === key ? 100 : 0);
        expect(rw![k], `${key}/${k}`).toBe(0);
      }
    }
  });
});
