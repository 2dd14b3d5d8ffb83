// Saved leaderboard filters (localStorage), and a few built in that a copy trader starts from.
import type { FilterDraft } from './range-filters';
import { filterField } from './range-filters';

/** A saved set of filters and the sort that goes with it. */
export interface FilterPreset {
  name: string;
  filters: Omit<FilterDraft, 'id'>[];
  sort?: { field: string; direction: 'asc' | 'desc' };
  builtIn?: boolean;
}

/** Starting points: what people who copy traders usually look for first. */
export const BUILT_IN_PRESETS: readonly FilterPreset[] = [
  {
    name: 'Consistent winners',
    builtIn: true,
    filters: [
      { field: 'winRate', min: '55', max: '' },
      { field: 'totalTrade', min: '20', max: '' },
      { field: 'pnl', min: '0', max: '' },
    ],
    sort: { field: 'pnl', direction: 'desc' },
  },
  {
    name: 'Low drawdown',
    builtIn: true,
    filters: [
      { field: 'realisedMaxDrawdown', min: '-25', max: '' },
      { field: 'totalTrade', min: '10', max: '' },
    ],
    sort: { field: 'realisedAvgRoi', direction: 'desc' },
  },
  {
    name: 'Top 10% by PnL',
    builtIn: true,
    filters: [{ field: 'ranking.pnl', min: '90', max: '' }],
    sort: { field: 'pnl', direction: 'desc' },
  },
];

const isText = (v: unknown): v is string => typeof v === 'string';

/** The presets kept in storage, dropping anything malformed or naming an unknown field. */
export function parsePresets(stored: unknown): FilterPreset[] {
  if (!Array.isArray(stored)) return [];
  const presets: FilterPreset[] = [];
  for (const item of stored as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const p = item as Record<string, unknown>;
    if (!isText(p.name) || p.name.trim() === '' || !Array.isArray(p.filters)) continue;
    const filters = (p.filters as unknown[]).flatMap((f) => {
      if (typeof f !== 'object' || f === null) return [];
      const { field, min, max } = f as Record<string, unknown>;
      return isText(field) && isText(min) && isText(max) && filterField(field) ? [{ field, min, max }] : [];
    });
    const sort = p.sort as Record<string, unknown> | undefined;
    const validSort =
      sort && isText(sort.field) && (sort.direction === 'asc' || sort.direction === 'desc')
        ? { field: sort.field, direction: sort.direction as 'asc' | 'desc' }
        : undefined;
    presets.push({ name: p.name.trim().slice(0, 60), filters, ...(validSort ? { sort: validSort } : {}) });
  }
  return presets;
}

/** The presets with `preset` added, replacing one of the same name (case-insensitive). */
export function upsertPreset(presets: readonly FilterPreset[], preset: FilterPreset): FilterPreset[] {
  const name = preset.name.trim().toLowerCase();
  return [...presets.filter((p) => p.name.trim().toLowerCase() !== name), preset];
}
