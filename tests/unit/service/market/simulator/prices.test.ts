// The price paths: deterministic, positive, with the volatility they are given, and a crossing
// search that finds what a plain scan finds.
import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../../../../../src/service/fixture/random';
import { SYMBOL_DYNAMICS, STEP_MS, YEAR_MS } from '../../../../../src/service/market/simulator/parameters';
import { buildPricePaths, type PricePath } from '../../../../../src/service/market/simulator/prices';

const END = Date.UTC(2026, 0, 10);
const paths = buildPricePaths(7, ['BTC', 'DOGE', 'EUR'], END, 10);
const path = (symbol: string) => paths.get(symbol) as PricePath;

describe('price paths', () => {
  it('are the same for the same seed and differ for another', () => {
    const again = buildPricePaths(7, ['BTC'], END, 10).get('BTC') as PricePath;
    const other = buildPricePaths(8, ['BTC'], END, 10).get('BTC') as PricePath;
    expect(again.values).toEqual(path('BTC').values);
    expect(other.values).not.toEqual(path('BTC').values);
  });

  it('has one positive value per minute, ending at the end time', () => {
    const btc = path('BTC');
    expect(btc.values.length).toBe(10 * 1440 + 1);
    expect(btc.endMs).toBe(END);
    expect(btc.priceAt(END)).toBe(btc.lastPrice);
    for (const p of paths.values()) expect(Math.min(...p.values)).toBeGreaterThan(0);
  });

  it('moves with roughly its yearly volatility (jumps aside)', () => {
    for (const symbol of ['BTC', 'EUR']) {
      const v = path(symbol).values;
      const returns = Array.from({ length: v.length - 1 }, (_, i) =>
        Math.log((v[i + 1] as number) / (v[i] as number)),
      );
      // The median absolute return ignores jumps: σ × 0.6745 for a normal distribution.
      const median = returns.map(Math.abs).sort((a, b) => a - b)[returns.length >> 1] as number;
      const sigma = (SYMBOL_DYNAMICS[symbol]?.volatility ?? 0) * Math.sqrt(STEP_MS / YEAR_MS);
      expect(median / 0.6745 / sigma).toBeGreaterThan(0.9);
      expect(median / 0.6745 / sigma).toBeLessThan(1.1);
    }
  });

  it('finds the first crossing of a level like a plain scan does', () => {
    const random = new SeededRandom(3);
    const doge = path('DOGE');
    const v = doge.values;
    for (let trial = 0; trial < 200; trial += 1) {
      const from = random.int(0, v.length - 1);
      const to = Math.min(v.length - 1, from + random.int(0, 5_000));
      const level = (v[from] as number) * random.between(0.9, 1.1);
      let below = -1;
      let above = -1;
      for (let i = from; i <= to; i += 1) {
        if (below < 0 && (v[i] as number) <= level) below = i;
        if (above < 0 && (v[i] as number) >= level) above = i;
      }
      expect(doge.firstAtOrBelow(from, to, level)).toBe(below);
      expect(doge.firstAtOrAbove(from, to, level)).toBe(above);
    }
  });

  it('accrues funding hour by hour, mostly in the longs-pay direction for crypto', () => {
    const btc = path('BTC');
    const start = btc.startMs;
    expect(btc.fundingAt(start)).toBe(0);
    const tenDays = btc.fundingAt(END);
    expect(tenDays).toBeGreaterThan(0);
    expect(tenDays).toBeLessThan(0.02); // ≈ 240 h × 0.001 %
    expect(btc.fundingAt(start + 1_800_000)).toBeCloseTo(btc.fundingAt(start + 3_600_000) / 2, 12);
  });
});
