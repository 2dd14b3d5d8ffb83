// The sweep: two settings swept over lists of values with the others fixed, its body, and the
// heat map of a metric over the two (docs/ui.md, Backtest).
import type {
  SweepField,
  SweepItem,
  SweepRank,
  SweepRequestInput,
  SweepSettings,
} from '@shared/api/backtest';
import { parseAmount } from '@renderer/copy-trades/copy-trade-form';
import { settingsToBody, type BacktestSettings } from './backtest-settings';

/** The settings a heat map's axes may sweep, with the words and the unit they are read in. */
export const SWEEP_AXES: readonly { field: SweepField; label: string; unit: string }[] = [
  { field: 'leverage', label: 'Leverage', unit: '×' },
  { field: 'orderVolume', label: 'Margin per order', unit: 'USD' },
  { field: 'stopLossAmount', label: 'Stop loss', unit: '' },
  { field: 'takeProfitAmount', label: 'Take profit', unit: '' },
  { field: 'lookBackOrders', label: 'Look-back orders', unit: 'orders' },
  { field: 'maxVolMultiplier', label: 'Max volume multiplier', unit: '×' },
  { field: 'reverseCopy', label: 'Reverse copy', unit: '' },
  { field: 'delaySeconds', label: 'Delay', unit: 's' },
];
export const axisLabel = (field: SweepField): string =>
  SWEEP_AXES.find((a) => a.field === field)?.label ?? field;

/** The metrics a heat map colours by; the first two are the ones the service ranks by. */
export const HEAT_METRICS = [
  { id: 'roi', label: 'ROI %' },
  { id: 'roiPerDrawDown', label: 'ROI / max drawdown' },
  { id: 'profit', label: 'Profit USD' },
  { id: 'maxDrawDown', label: 'Max drawdown %' },
  { id: 'winRate', label: 'Win rate %' },
] as const;
export type HeatMetric = (typeof HEAT_METRICS)[number]['id'];

/** A metric's value of one sweep item. */
export function metricOf(item: SweepItem, metric: HeatMetric): number {
  if (metric === 'roiPerDrawDown') return item.roi / Math.max(1, Math.abs(item.maxDrawDown));
  return item[metric];
}

/**
 * `5, 10, 20` → [5, 10, 20]; `yes, no` for reverse copy. Returns the values, or the first
 * entry that is not one.
 */
export function parseValueList(
  field: SweepField,
  text: string,
): { values: (number | boolean)[] } | { error: string } {
  const parts = text
    .split(/[\s,;]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return { error: 'Type at least one value.' };
  const values: (number | boolean)[] = [];
  for (const part of parts) {
    if (field === 'reverseCopy') {
      const v = /^(yes|true|on)$/i.test(part) ? true : /^(no|false|off)$/i.test(part) ? false : null;
      if (v === null) return { error: `“${part}” is not yes or no.` };
      values.push(v);
    } else {
      const v = parseAmount(part);
      if (v === undefined || Number.isNaN(v)) return { error: `“${part}” is not a number.` };
      values.push(v);
    }
  }
  return { values: [...new Set(values)] };
}

/** The sweep body: the settings fixed, the two axes swept, ranked by `rankBy`. */
export function sweepBody(
  s: BacktestSettings,
  axes: readonly { field: SweepField; values: readonly (number | boolean)[] }[],
  rankBy: SweepRank,
): SweepRequestInput {
  const { isReturnPositions: _positions, ...fixed } = settingsToBody(s, false) as Record<string, unknown>;
  const body: Record<string, unknown> = { ...fixed, rankBy };
  for (const axis of axes) body[axis.field] = [...axis.values];
  // A swept exit needs its switch on, or the amounts would be checked and never used.
  if (axes.some((a) => a.field === 'stopLossAmount')) body.enableStopLoss = true;
  if (axes.some((a) => a.field === 'takeProfitAmount')) body.enableTakeProfit = true;
  if (axes.some((a) => a.field === 'lookBackOrders')) body.volumeProtection = true;
  return body as SweepRequestInput;
}

/** One configuration of a sweep back as form settings, to open its full result. */
export function settingsOfItem(base: BacktestSettings, item: SweepItem): BacktestSettings {
  const v: SweepSettings = item.settings;
  const text = (n: number | null): string => (n === null ? '' : String(n));
  return {
    ...base,
    accounts: [item.account],
    leverage: String(v.leverage),
    orderVolume: String(v.orderVolume),
    enableStopLoss: v.stopLossAmount !== null ? true : base.enableStopLoss,
    stopLossAmount: v.stopLossAmount !== null ? text(v.stopLossAmount) : base.stopLossAmount,
    enableTakeProfit: v.takeProfitAmount !== null ? true : base.enableTakeProfit,
    takeProfitAmount: v.takeProfitAmount !== null ? text(v.takeProfitAmount) : base.takeProfitAmount,
    volumeProtection: v.lookBackOrders !== null ? true : base.volumeProtection,
    lookBackOrders: v.lookBackOrders !== null ? text(v.lookBackOrders) : base.lookBackOrders,
    maxVolMultiplier: text(v.maxVolMultiplier),
    reverseCopy: v.reverseCopy,
    delaySeconds: String(v.delaySeconds),
  };
}

/** A heat map: the axis values in order, and per row (y) and column (x) the item there. */
export interface HeatGrid {
  xs: (number | boolean)[];
  ys: (number | boolean)[];
  /** cells[y][x]; null where the sweep has no such combination (a cancelled run). */
  cells: ({ item: SweepItem; value: number } | null)[][];
  min: number;
  max: number;
}

const settingValue = (item: SweepItem, field: SweepField): number | boolean | null => item.settings[field];

const sortValues = (values: Iterable<number | boolean>): (number | boolean)[] =>
  [...new Set(values)].sort((a, b) => Number(a) - Number(b));

/**
 * The heat map of `metric` over the settings `x` and `y` for one account's items. When other
 * settings were swept too, a cell shows the best of them (the one ranked first).
 */
export function heatGrid(
  items: readonly SweepItem[],
  x: SweepField,
  y: SweepField,
  metric: HeatMetric,
  account: string,
): HeatGrid {
  const mine = items.filter((i) => i.account === account);
  const xs = sortValues(mine.map((i) => settingValue(i, x)).filter((v) => v !== null));
  const ys = sortValues(mine.map((i) => settingValue(i, y)).filter((v) => v !== null));
  const cells: HeatGrid['cells'] = ys.map(() => xs.map(() => null));
  let min = Infinity;
  let max = -Infinity;
  for (const item of mine) {
    const xi = xs.indexOf(settingValue(item, x) as number | boolean);
    const yi = ys.indexOf(settingValue(item, y) as number | boolean);
    if (xi < 0 || yi < 0) continue;
    const row = cells[yi]!;
    const held = row[xi];
    if (held && held.item.rank < item.rank) continue;
    const value = metricOf(item, metric);
    row[xi] = { item, value };
  }
  for (const row of cells)
    for (const cell of row) {
      if (!cell) continue;
      min = Math.min(min, cell.value);
      max = Math.max(max, cell.value);
    }
  return { xs, ys, cells, min: Number.isFinite(min) ? min : 0, max: Number.isFinite(max) ? max : 0 };
}

/**
 * A cell's colour: losses red and gains green, deeper the further from zero (relative to the
 * largest magnitude on the map), as an opacity of the theme's colours.
 */
export function heatTone(
  value: number,
  grid: Pick<HeatGrid, 'min' | 'max'>,
): { tone: 'good' | 'bad' | 'flat'; strength: number } {
  const scale = Math.max(Math.abs(grid.min), Math.abs(grid.max));
  if (value === 0 || scale === 0) return { tone: 'flat', strength: 0 };
  return { tone: value > 0 ? 'good' : 'bad', strength: Math.min(1, Math.abs(value) / scale) };
}
