import { describe, expect, it } from 'vitest';
import { LEADERBOARD_FIELDS } from '@shared/ipc/schemas/leaderboard';
import { leaderboardPageRequestSchema } from '@shared/ipc/schemas/leaderboard';
import { BUILT_IN_PRESETS, parsePresets, upsertPreset } from '@renderer/filters/filter-presets';
import { FILTER_FIELDS, parseBound, toRanges } from '@renderer/filters/range-filters';
import { STAT_FIELDS } from '@renderer/statistics/statistic-fields';
import { STATISTIC_NUMERIC_FIELDS } from '@shared/api/statistics';

describe('parseBound', () => {
  it.each([
    ['', null],
    ['  ', null],
    ['1500', 1500],
    ['1,500.5', 1500.5],
    ['$2k', 2000],
    ['1.2M', 1_200_000],
    ['−30', -30],
    ['-0.5%', -0.5],
    ['.5', 0.5],
    ['abc', 'invalid'],
    ['1..2', 'invalid'],
    ['5x5', 'invalid'],
  ])('%j → %j', (text, expected) => {
    expect(parseBound(text)).toBe(expected);
  });
});

describe('toRanges', () => {
  it('turns typed rows into ranges the leaderboard request accepts', () => {
    const { ranges, problems } = toRanges([
      { id: '1', field: 'winRate', min: '55', max: '' },
      { id: '2', field: 'avgDuration', min: '', max: '2' },
      { id: '3', field: 'ranking.pnl', min: '90', max: '100' },
      { id: '4', field: 'pnl', min: '', max: '' },
    ]);
    expect(problems).toEqual([]);
    expect(ranges).toEqual([
      { fieldName: 'winRate', gte: 55 },
      // Durations are typed in hours and sent in seconds.
      { fieldName: 'avgDuration', lte: 7200 },
      { fieldName: 'ranking.pnl', gte: 90, lte: 100 },
    ]);
    const parsed = leaderboardPageRequestSchema.safeParse({ protocols: ['NOVA_ARB'], ranges });
    expect(parsed.success).toBe(true);
  });
  it('reports unreadable rows and min above max instead of sending them', () => {
    const { ranges, problems } = toRanges([
      { id: 'a', field: 'pnl', min: 'lots', max: '' },
      { id: 'b', field: 'pnl', min: '10', max: '5' },
      { id: 'c', field: 'nope', min: '1', max: '' },
    ]);
    expect(ranges).toEqual([]);
    expect(problems.map((p) => p.id)).toEqual(['a', 'b', 'c']);
  });
});

describe('fields', () => {
  it('describes every numeric statistic once, with a formula', () => {
    expect(STAT_FIELDS.map((f) => f.key).sort()).toEqual([...STATISTIC_NUMERIC_FIELDS].sort());
    for (const f of STAT_FIELDS) expect(f.formula.length).toBeGreaterThan(10);
  });
  it('offers only fields the leaderboard request takes', () => {
    for (const f of FILTER_FIELDS) expect(LEADERBOARD_FIELDS as readonly string[]).toContain(f.field);
  });
});

describe('presets', () => {
  it('keeps well-formed presets from storage and drops the rest', () => {
    const stored = [
      {
        name: 'Mine',
        filters: [{ field: 'winRate', min: '60', max: '' }],
        sort: { field: 'pnl', direction: 'desc' },
      },
      { name: '', filters: [] },
      {
        name: 'Odd',
        filters: [{ field: 'bogus', min: '1', max: '' }, 'x'],
        sort: { field: 'pnl', direction: 'up' },
      },
      null,
      'text',
    ];
    expect(parsePresets(stored)).toEqual([
      {
        name: 'Mine',
        filters: [{ field: 'winRate', min: '60', max: '' }],
        sort: { field: 'pnl', direction: 'desc' },
      },
      { name: 'Odd', filters: [] },
    ]);
    expect(parsePresets('nonsense')).toEqual([]);
  });
  it('replaces a preset of the same name', () => {
    const a = { name: 'A', filters: [] };
    expect(
      upsertPreset([a, { name: 'B', filters: [] }], {
        name: 'a ',
        filters: [{ field: 'pnl', min: '1', max: '' }],
      }),
    ).toEqual([
      { name: 'B', filters: [] },
      { name: 'a ', filters: [{ field: 'pnl', min: '1', max: '' }] },
    ]);
  });
  it('built-in presets produce valid ranges', () => {
    for (const p of BUILT_IN_PRESETS) {
      const { ranges, problems } = toRanges(p.filters.map((f, i) => ({ ...f, id: String(i) })));
      expect(problems).toEqual([]);
      expect(leaderboardPageRequestSchema.safeParse({ protocols: ['X'], ranges, sort: p.sort }).success).toBe(
        true,
      );
    }
  });
});
