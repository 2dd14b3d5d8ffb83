// The leaderboard's range filters: rows of "field between min and max" as typed, turned into the
// `ranges` of a `leaderboard:page` request. Pure, so the parsing is unit-tested.
import type { StatisticNumericField } from '@shared/api/statistics';
import { RANKING_KEYS } from '@shared/api/statistics';
import { STAT_FIELDS, statField, type StatKind } from '@renderer/statistics/statistic-fields';

/** A filter row as the user typed it. `field` is a statistic or `ranking.<key>`. */
export interface FilterDraft {
  id: string;
  field: string;
  min: string;
  max: string;
}

/** A field the filters offer, with the unit typed and the factor to the service's unit. */
export interface FilterFieldOption {
  field: string;
  label: string;
  group: string;
  unit: string;
  /** typed value × scale = the service's value (hours → seconds). */
  scale: number;
}

export interface RangeFilter {
  fieldName: string;
  gte?: number;
  lte?: number;
}

const UNITS: Record<StatKind, { unit: string; scale: number }> = {
  usd: { unit: '$', scale: 1 },
  percent: { unit: '%', scale: 1 },
  ratio: { unit: '', scale: 1 },
  count: { unit: '', scale: 1 },
  // Nobody thinks of holding times in seconds.
  duration: { unit: 'h', scale: 3600 },
  leverage: { unit: '×', scale: 1 },
  days: { unit: 'd', scale: 1 },
  time: { unit: '', scale: 1 },
};

/** Every field the filters offer: the statistics (bar the last-trade time) and the percentiles. */
export const FILTER_FIELDS: readonly FilterFieldOption[] = [
  ...STAT_FIELDS.filter((f) => f.kind !== 'time').map((f) => ({
    field: f.key,
    label: f.label,
    group: f.group,
    ...UNITS[f.kind],
  })),
  ...RANKING_KEYS.map((k) => ({
    field: `ranking.${k}`,
    label: `${statField(k).label} percentile`,
    group: 'Percentiles',
    unit: 'pct',
    scale: 1,
  })),
];

const fieldOptions = new Map(FILTER_FIELDS.map((f) => [f.field, f]));

/** The option of a filter field, or undefined for a name the filters do not offer. */
export const filterField = (field: string): FilterFieldOption | undefined => fieldOptions.get(field);

const SUFFIX: Record<string, number> = { k: 1e3, m: 1e6, b: 1e9 };

/**
 * A typed bound: `''` → null (no bound); `1,500`, `$2k`, `−3.5%`, `1.2M` → numbers;
 * anything else → 'invalid'.
 */
export function parseBound(text: string): number | null | 'invalid' {
  const t = text
    .trim()
    .replace(/[\s,$%×_]/g, '')
    .replace(/^[−–]/, '-')
    .toLowerCase();
  if (t === '') return null;
  const match = /^([-+]?(?:\d+\.?\d*|\.\d+))([kmb])?$/.exec(t);
  if (!match?.[1]) return 'invalid';
  const value = Number(match[1]) * (match[2] ? (SUFFIX[match[2]] ?? 1) : 1);
  return Number.isFinite(value) ? value : 'invalid';
}

export interface FilterProblem {
  id: string;
  message: string;
}

/**
 * The ranges of the filter rows that say something, and the problems of those that cannot be
 * read (an unreadable bound, min above max). Rows with neither bound are ignored.
 */
export function toRanges(drafts: readonly FilterDraft[]): {
  ranges: RangeFilter[];
  problems: FilterProblem[];
} {
  const ranges: RangeFilter[] = [];
  const problems: FilterProblem[] = [];
  for (const d of drafts) {
    const option = filterField(d.field);
    if (!option) {
      problems.push({ id: d.id, message: 'Choose a field' });
      continue;
    }
    const min = parseBound(d.min);
    const max = parseBound(d.max);
    if (min === 'invalid' || max === 'invalid') {
      problems.push({ id: d.id, message: 'Type a number, like 1500, 2k or −30' });
      continue;
    }
    if (min === null && max === null) continue;
    if (min !== null && max !== null && min > max) {
      problems.push({ id: d.id, message: 'The minimum is above the maximum' });
      continue;
    }
    const range: RangeFilter = { fieldName: d.field };
    if (min !== null) range.gte = min * option.scale;
    if (max !== null) range.lte = max * option.scale;
    ranges.push(range);
  }
  return { ranges, problems };
}

/** The statistic behind a sortable leaderboard field, for its label. */
export function fieldLabel(field: string): string {
  const option = filterField(field);
  if (option) return option.label;
  if (field === 'lastTradeAtTs') return statField(field as StatisticNumericField).label;
  return field;
}
