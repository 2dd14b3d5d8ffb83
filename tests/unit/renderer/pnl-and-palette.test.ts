import { describe, expect, it } from 'vitest';
import { describeFreshness } from '@renderer/components/freshness-text';
import {
  fuzzyScore,
  isTraderAddress,
  paletteItems,
  parseItemId,
} from '@renderer/components/palette/palette-items';
import { cumulativePnl, sparklineShape } from '@renderer/statistics/pnl-series';
import { averageScore } from '@renderer/statistics/statistic-fields';
import { hrefOfTrader, pageFromHash, traderFromHash } from '@renderer/stores/navigation';

const A = '0x1234567890abcdef1234567890abcdef12345678';

describe('cumulativePnl', () => {
  it('accumulates realised − fee + unrealised per day', () => {
    const points = cumulativePnl({
      date: ['2025-01-01T00:00:00.000Z', '2025-01-02T00:00:00.000Z', '2025-01-03T00:00:00.000Z'],
      realisedPnl: [100, -50, 0],
      fee: [10, 5, 0],
      unrealisedPnl: [0, 0, 20],
    });
    expect(points.map((p) => p.daily)).toEqual([90, -55, 20]);
    expect(points.map((p) => p.cumulative)).toEqual([90, 35, 55]);
    expect(points[0]!.time).toBe(Date.UTC(2025, 0, 1) / 1000);
  });
  it('gives nothing for no series', () => {
    expect(cumulativePnl(undefined)).toEqual([]);
  });
});

describe('sparklineShape', () => {
  it('fills the box and places zero', () => {
    const shape = sparklineShape(
      [
        { time: 1, daily: 10, cumulative: 10 },
        { time: 2, daily: -20, cumulative: -10 },
      ],
      80,
      20,
      0,
    )!;
    expect(shape.path).toBe('M0.0,0.0L80.0,20.0');
    expect(shape.zeroY).toBe(10);
    expect(shape.last).toBe(-10);
    expect(sparklineShape([], 80, 20)).toBeNull();
    expect(sparklineShape([{ time: 1, daily: 5, cumulative: 5 }], 80, 20)!.path).toMatch(/^M0,[\d.]+H80$/);
  });
});

describe('command palette', () => {
  const pages = [
    { id: 'leaderboard', label: 'Leaderboard', purpose: 'Ranks traders' },
    { id: 'live', label: 'Live', purpose: 'Streams' },
    { id: 'copy', label: 'Copy trading', purpose: 'Copies' },
  ];
  it('recognises addresses', () => {
    expect(isTraderAddress(A)).toBe(true);
    expect(isTraderAddress(` ${A} `)).toBe(true);
    expect(isTraderAddress('0x1234')).toBe(false);
    expect(isTraderAddress('leaderboard')).toBe(false);
  });
  it('matches pages fuzzily, best first', () => {
    expect(fuzzyScore('ldb', 'Leaderboard')).not.toBeNull();
    expect(fuzzyScore('xyz', 'Leaderboard')).toBeNull();
    expect(paletteItems('li', pages, [], [])[0]!.id).toBe('page:live');
    expect(paletteItems('copy', pages, [], [])[0]!.id).toBe('page:copy');
    expect(paletteItems('', pages, [], []).map((i) => i.id)).toEqual([
      'page:leaderboard',
      'page:live',
      'page:copy',
    ]);
  });
  it('offers a typed address on every protocol, the last used first', () => {
    const items = paletteItems(
      A,
      pages,
      [{ protocol: 'ORBIT_BASE', account: A }],
      ['NOVA_ARB', 'ORBIT_BASE'],
    );
    expect(items.map((i) => i.id)).toEqual([`trader:ORBIT_BASE:${A}`, `trader:NOVA_ARB:${A}`]);
    expect(parseItemId(items[0]!.id)).toEqual({ protocol: 'ORBIT_BASE', account: A });
    expect(parseItemId('page:live')).toEqual({ page: 'live' });
  });
});

describe('trader routes', () => {
  it('round-trips a trader through the address hash', () => {
    const ref = { protocol: 'NOVA_ARB', account: A };
    expect(traderFromHash(hrefOfTrader(ref))).toEqual(ref);
    expect(pageFromHash(hrefOfTrader(ref))).toBe('trader');
    expect(traderFromHash('#/trader')).toBeNull();
    expect(traderFromHash('#/trader/nova/0x12')).toBeNull();
  });

  it('opens Funds and Login key under their own and their former addresses', () => {
    expect(pageFromHash('#/funds')).toBe('funds');
    expect(pageFromHash('#/login-key')).toBe('login-key');
    // Saved or bookmarked before the rename (docs/ui.md, "Funds and Login key").
    expect(pageFromHash('#/wallets')).toBe('funds');
    expect(pageFromHash('#/wallet')).toBe('login-key');
    expect(pageFromHash('#/nowhere')).toBeNull();
    expect(pageFromHash('#/constructor')).toBeNull();
  });
});

describe('freshness', () => {
  const now = Date.parse('2025-01-01T12:00:00.000Z');
  const at = (min: number): string => new Date(now - min * 60_000).toISOString();
  it('says live, cached, offline or downloaded', () => {
    expect(describeFreshness({ fetchedAt: at(0), fromCache: false, stale: false }, { now }).tone).toBe(
      'live',
    );
    expect(describeFreshness({ fetchedAt: at(3), fromCache: true, stale: false }, { now }).label).toBe(
      'Cached 3 min ago',
    );
    expect(describeFreshness({ fetchedAt: at(120), fromCache: true, stale: true }, { now }).label).toBe(
      'Offline · as of 2 h ago',
    );
    expect(
      describeFreshness({ fetchedAt: at(5), fromCache: false, stale: false }, { now, origin: 'downloaded' })
        .tone,
    ).toBe('offline-data');
    expect(describeFreshness(null).tone).toBe('unknown');
  });
});

describe('averageScore', () => {
  it('averages the percentiles present', () => {
    expect(averageScore({ pnl: 100, winRate: 50 })).toBe(75);
    expect(averageScore(null)).toBeNull();
  });
});
