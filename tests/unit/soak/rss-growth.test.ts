import { describe, expect, it } from 'vitest';
import { rssGrowthPct } from '../../soak/rss-growth';

const samples = (pairs: [number, number][]) => pairs.map(([s, mib]) => ({ atMs: s * 1000, mib }));

describe('the soak RSS growth', () => {
  it('compares the minute after the first with the last minute, by their medians', () => {
    const run = samples([
      [10, 500], // warm-up: left out
      [65, 100],
      [90, 110],
      [110, 300],
      [300, 120],
      [560, 115],
      [580, 125],
      [590, 121],
    ]);
    expect(rssGrowthPct(run, 600_000).pct).toBe(10);
  });

  it('uses thirds of a run shorter than three minutes', () => {
    expect(
      rssGrowthPct(
        samples([
          [5, 100],
          [12, 200],
          [25, 190],
        ]),
        30_000,
      ).pct,
    ).toBe(-5);
  });

  it('says so when a window has no life to read', () => {
    const growth = rssGrowthPct(samples([[100, 100]]), 600_000);
    expect(growth.pct).toBeNull();
    expect(growth.detail).toMatch(/not enough lives/);
  });
});
