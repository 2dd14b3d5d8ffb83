// What every statistic is called, how it is shown and what it means: the formulas are those of
// docs/semantics.md (Statistic record, Ranking), worded for a trader. The leaderboard's
// columns and filters and the trader page's grid and tooltips all read them from here.
import type { Window } from '@shared/api/common';
import type { RankingKey, StatisticNumericField } from '@shared/api/statistics';
import { LOWER_IS_BETTER_RANKING_KEYS, RANKING_KEYS } from '@shared/api/statistics';
import {
  MISSING,
  formatDuration,
  formatInteger,
  formatLeverage,
  formatNumber,
  formatPercent,
  formatUsd,
  formatUsdCompact,
  type Decimals,
} from '@renderer/format/number';
import { formatDay } from '@renderer/format/time';

/** How a figure is written. */
export type StatKind = 'usd' | 'percent' | 'ratio' | 'count' | 'duration' | 'leverage' | 'days' | 'time';

export type StatGroup = 'Profit' | 'Returns' | 'Risk' | 'Activity';

export interface StatField {
  key: StatisticNumericField;
  label: string;
  /** A shorter header for dense tables, when the label is long. */
  short?: string;
  kind: StatKind;
  group: StatGroup;
  /** What the figure means, with its formula. */
  formula: string;
  /** Coloured green/red by sign. */
  signed?: boolean;
  /** Column width in the leaderboard. */
  width?: number;
  /**
   * Why the figure has no value for this record although the service writes a number, else null:
   * a ratio over no wins or no losses, which the API writes as 0 (docs/semantics.md) and which
   * would read as the worst ratio there is. `stat` reads the record's other figures.
   */
  noValue?: (stat: (key: StatisticNumericField) => number | null) => string | null;
}

/** A profit/loss ratio's reason to have no value: no wins, or no losses (`loss`: their sum). */
const ratioOverNothing =
  (loss: StatisticNumericField) =>
  (stat: (key: StatisticNumericField) => number | null): string | null => {
    if (stat('totalWin') === 0)
      return 'No winning positions: there is no average win (the service writes 0).';
    if (stat('totalLose') === 0 || stat(loss) === 0)
      return 'No losing positions: there is no average loss to divide by (the service writes 0).';
    return null;
  };

const PNL = 'pnl = realisedPnl − fee + funding, per position';
const WIN = 'a win is a position with realisedPnl > 0';

/** Every numeric statistic, in the order the trader page lists them. */
export const STAT_FIELDS: readonly StatField[] = [
  // Profit
  {
    key: 'pnl',
    label: 'PnL',
    kind: 'usd',
    group: 'Profit',
    signed: true,
    formula: `Σ pnl over the window's closed positions; ${PNL}.`,
  },
  {
    key: 'realisedPnl',
    label: 'Realised PnL',
    short: 'Realised',
    kind: 'usd',
    group: 'Profit',
    signed: true,
    formula: "Σ realisedPnl over the window's closed positions, before fees and funding.",
  },
  {
    key: 'totalGain',
    label: 'Total gain',
    kind: 'usd',
    group: 'Profit',
    signed: true,
    formula: `G = Σ pnl of the winning positions (${WIN}); ${PNL}.`,
  },
  {
    key: 'totalLoss',
    label: 'Total loss',
    kind: 'usd',
    group: 'Profit',
    signed: true,
    formula: 'L = Σ pnl of the other positions (realisedPnl ≤ 0); G + L = PnL.',
  },
  {
    key: 'realisedTotalGain',
    label: 'Realised gain',
    kind: 'usd',
    group: 'Profit',
    signed: true,
    formula: 'G_r = Σ realisedPnl of the positions with realisedPnl > 0.',
  },
  {
    key: 'realisedTotalLoss',
    label: 'Realised loss',
    kind: 'usd',
    group: 'Profit',
    signed: true,
    formula: 'L_r = Σ realisedPnl of the positions with realisedPnl ≤ 0 (never positive).',
  },
  {
    key: 'maxPnl',
    label: 'Best PnL',
    kind: 'usd',
    group: 'Profit',
    signed: true,
    formula: "max pnl: the window's best single position after fees and funding.",
  },
  {
    key: 'realisedMaxPnl',
    label: 'Best realised PnL',
    short: 'Best realised',
    kind: 'usd',
    group: 'Profit',
    signed: true,
    formula: "max realisedPnl: the window's best single position.",
  },
  {
    key: 'totalFee',
    label: 'Fees',
    kind: 'usd',
    group: 'Profit',
    formula: "Σ fee over the window's closed positions.",
  },
  {
    key: 'realisedLongPnl',
    label: 'Long realised PnL',
    short: 'Long realised',
    kind: 'usd',
    group: 'Profit',
    signed: true,
    formula: 'Σ realisedPnl of the long positions closed in the window; 0 with none.',
  },
  {
    key: 'realisedShortPnl',
    label: 'Short realised PnL',
    short: 'Short realised',
    kind: 'usd',
    group: 'Profit',
    signed: true,
    formula: 'Σ realisedPnl of the short positions closed in the window; 0 with none.',
  },
  {
    key: 'longPnl',
    label: 'Long PnL',
    kind: 'usd',
    group: 'Profit',
    signed: true,
    formula: `Σ pnl of the long positions; ${PNL}. Long PnL + short PnL = PnL.`,
  },
  {
    key: 'shortPnl',
    label: 'Short PnL',
    kind: 'usd',
    group: 'Profit',
    signed: true,
    formula: `Σ pnl of the short positions; ${PNL}.`,
  },
  // Returns
  {
    key: 'realisedAvgRoi',
    label: 'Avg ROI',
    kind: 'percent',
    group: 'Returns',
    signed: true,
    formula: 'Mean of realisedRoi, where realisedRoi = realisedPnl / collateral × 100 per position.',
  },
  {
    key: 'avgRoi',
    label: 'Avg net ROI',
    kind: 'percent',
    group: 'Returns',
    signed: true,
    formula: `Mean of roi, where roi = pnl / collateral × 100 per position; ${PNL}.`,
  },
  {
    key: 'realisedMaxRoi',
    label: 'Best ROI',
    kind: 'percent',
    group: 'Returns',
    signed: true,
    formula: 'max realisedRoi: the best single position (may be negative).',
  },
  {
    key: 'maxRoi',
    label: 'Best net ROI',
    kind: 'percent',
    group: 'Returns',
    signed: true,
    formula: 'max roi: the best single position after fees and funding (may be negative).',
  },
  {
    key: 'winRate',
    label: 'Win rate',
    kind: 'percent',
    group: 'Returns',
    formula: `wins / trades × 100; ${WIN}.`,
  },
  {
    key: 'realisedProfitRate',
    label: 'Profit rate',
    kind: 'percent',
    group: 'Returns',
    formula:
      'G_r / (G_r + |L_r|) × 100: the share of realised gains in all realised moves; 0 when there were none.',
  },
  {
    key: 'profitRate',
    label: 'Net profit rate',
    kind: 'percent',
    group: 'Returns',
    formula: 'G / (G + |L|) × 100, with pnl after fees and funding; 0 when there were none.',
  },
  {
    key: 'realisedProfitLossRatio',
    label: 'Profit/loss ratio',
    short: 'P/L ratio',
    kind: 'ratio',
    group: 'Returns',
    formula:
      '(G_r / wins) / (|L_r| / losses): the average win over the average loss; 0 when there are no wins, no losses or no loss amount.',
    noValue: ratioOverNothing('realisedTotalLoss'),
  },
  {
    key: 'profitLossRatio',
    label: 'Net profit/loss ratio',
    short: 'Net P/L ratio',
    kind: 'ratio',
    group: 'Returns',
    formula:
      '(G / wins) / (|L| / losses), with pnl after fees and funding; 0 when there are no wins, no losses or L is 0.',
    noValue: ratioOverNothing('totalLoss'),
  },
  {
    key: 'realisedGainLossRatio',
    label: 'Gain/loss ratio',
    short: 'Gain/loss',
    kind: 'ratio',
    group: 'Returns',
    formula: 'G_r / |L_r|: realised gains over realised losses; equals G_r when nothing was lost.',
  },
  {
    key: 'gainLossRatio',
    label: 'Net gain/loss ratio',
    short: 'Net gain/loss',
    kind: 'ratio',
    group: 'Returns',
    formula: 'G / |L| with pnl after fees and funding; equals G when nothing was lost.',
  },
  {
    key: 'realisedSharpeRatio',
    label: 'Sharpe ratio',
    short: 'Sharpe',
    kind: 'ratio',
    group: 'Returns',
    signed: true,
    formula:
      "mean / sample standard deviation (n − 1) of the window's realisedRoi: return per unit of spread; empty (—) with fewer than two trades or no spread.",
  },
  {
    key: 'sharpeRatio',
    label: 'Net Sharpe ratio',
    short: 'Net Sharpe',
    kind: 'ratio',
    group: 'Returns',
    signed: true,
    formula:
      'Sharpe ratio of roi (after fees and funding): mean / sample standard deviation; empty with fewer than two trades or no spread.',
  },
  {
    key: 'realisedSortinoRatio',
    label: 'Sortino ratio',
    short: 'Sortino',
    kind: 'ratio',
    group: 'Returns',
    signed: true,
    formula:
      'mean realisedRoi / downside deviation, sqrt(Σ min(realisedRoi, 0)² / n): only losses count as risk; empty with fewer than two trades or no losing one.',
  },
  {
    key: 'sortinoRatio',
    label: 'Net Sortino ratio',
    short: 'Net Sortino',
    kind: 'ratio',
    group: 'Returns',
    signed: true,
    formula:
      'Sortino ratio of roi (after fees and funding): mean / sqrt(Σ min(roi, 0)² / n); empty with fewer than two trades or no losing one.',
  },
  // Risk
  {
    key: 'realisedMaxDrawdown',
    label: 'Max drawdown',
    short: 'Max DD',
    kind: 'percent',
    group: 'Risk',
    signed: true,
    formula:
      'min(0, min realisedRoi): the ROI of the worst single position; never positive, 0 when no position lost.',
  },
  {
    key: 'maxDrawdown',
    label: 'Max net drawdown',
    short: 'Net max DD',
    kind: 'percent',
    group: 'Risk',
    signed: true,
    formula: 'min(0, min roi): the worst single position after fees and funding; never positive.',
  },
  {
    key: 'realisedMaxDrawdownPnl',
    label: 'Max drawdown $',
    short: 'Max DD $',
    kind: 'usd',
    group: 'Risk',
    signed: true,
    formula: 'min(0, min realisedPnl): the loss of the worst single position; never positive.',
  },
  {
    key: 'maxDrawdownPnl',
    label: 'Max net drawdown $',
    short: 'Net max DD $',
    kind: 'usd',
    group: 'Risk',
    signed: true,
    formula: 'min(0, min pnl): the worst single position after fees and funding; never positive.',
  },
  {
    key: 'avgLeverage',
    label: 'Avg leverage',
    short: 'Avg lev.',
    kind: 'leverage',
    group: 'Risk',
    formula: 'Mean of leverage, where leverage = size / collateral per position.',
  },
  {
    key: 'minLeverage',
    label: 'Min leverage',
    short: 'Min lev.',
    kind: 'leverage',
    group: 'Risk',
    formula: 'Lowest leverage (size / collateral) of a position in the window.',
  },
  {
    key: 'maxLeverage',
    label: 'Max leverage',
    short: 'Max lev.',
    kind: 'leverage',
    group: 'Risk',
    formula: 'Highest leverage (size / collateral) of a position in the window.',
  },
  {
    key: 'totalLiquidation',
    label: 'Liquidations',
    short: 'Liquid.',
    kind: 'count',
    group: 'Risk',
    formula: 'Number of positions liquidated (and not won).',
  },
  {
    key: 'totalLiquidationAmount',
    label: 'Liquidated $',
    kind: 'usd',
    group: 'Risk',
    signed: true,
    formula: 'Σ realisedPnl of the liquidated positions (never positive).',
  },
  {
    key: 'longRate',
    label: 'Long share',
    kind: 'percent',
    group: 'Risk',
    formula: 'long positions / trades × 100.',
  },
  // Activity
  {
    key: 'totalTrade',
    label: 'Trades',
    kind: 'count',
    group: 'Activity',
    formula: 'n: the positions closed in the window.',
  },
  {
    key: 'totalWin',
    label: 'Wins',
    kind: 'count',
    group: 'Activity',
    formula: `Number of winning positions; ${WIN}.`,
  },
  { key: 'totalLose', label: 'Losses', kind: 'count', group: 'Activity', formula: 'trades − wins.' },
  {
    key: 'winStreak',
    label: 'Win streak',
    short: 'Win run',
    width: 96,
    kind: 'count',
    group: 'Activity',
    formula: `The current run: wins in a row that end the window, in order of close (${WIN}); 0 when the last trade lost.`,
  },
  {
    key: 'loseStreak',
    label: 'Losing streak',
    short: 'Loss run',
    width: 96,
    kind: 'count',
    group: 'Activity',
    formula:
      'The current run: non-winning trades in a row that end the window, in order of close; 0 when the last trade won.',
  },
  {
    key: 'maxWinStreak',
    label: 'Max win streak',
    short: 'Max win run',
    width: 108,
    kind: 'count',
    group: 'Activity',
    formula: 'The longest run of wins in a row in the window, in order of close.',
  },
  {
    key: 'maxLoseStreak',
    label: 'Max losing streak',
    short: 'Max loss run',
    width: 112,
    kind: 'count',
    group: 'Activity',
    formula: 'The longest run of non-winning trades in a row in the window, in order of close.',
  },
  {
    key: 'totalVolume',
    label: 'Volume',
    kind: 'usd',
    group: 'Activity',
    formula: "Σ size, where size is a position's peak notional in USD.",
  },
  {
    key: 'avgVolume',
    label: 'Avg size',
    kind: 'usd',
    group: 'Activity',
    formula: 'Volume / trades: the mean peak notional of a position.',
  },
  {
    key: 'totalLongVolume',
    label: 'Long volume',
    kind: 'usd',
    group: 'Activity',
    formula: 'Σ size of the long positions closed in the window (peak notional, USD).',
  },
  {
    key: 'totalShortVolume',
    label: 'Short volume',
    kind: 'usd',
    group: 'Activity',
    formula: 'Σ size of the short positions closed in the window (peak notional, USD).',
  },
  {
    key: 'avgDuration',
    label: 'Avg duration',
    short: 'Avg hold',
    kind: 'duration',
    group: 'Activity',
    formula: 'Mean of closeBlockTime − openBlockTime over the positions.',
  },
  {
    key: 'minDuration',
    label: 'Shortest hold',
    short: 'Min hold',
    kind: 'duration',
    group: 'Activity',
    formula: 'min of closeBlockTime − openBlockTime.',
  },
  {
    key: 'maxDuration',
    label: 'Longest hold',
    short: 'Max hold',
    kind: 'duration',
    group: 'Activity',
    formula: 'max of closeBlockTime − openBlockTime.',
  },
  {
    key: 'orderPositionRatio',
    label: 'Orders / position',
    short: 'Orders/pos.',
    kind: 'ratio',
    group: 'Activity',
    formula:
      'Σ orderCount / trades, counting open, increase, decrease and close orders (not margin transfers).',
  },
  {
    key: 'runTimeDays',
    label: 'Days active',
    kind: 'days',
    group: 'Activity',
    formula: "Whole days since the trader's first open on this protocol; the same in every window.",
  },
  {
    key: 'lastTradeAtTs',
    // The API's `lastTradeAt` is the latest close (docs/semantics.md): named for what it is, so that a
    // trader who opened a position a minute ago is not shown as idle for weeks.
    label: 'Last close',
    kind: 'time',
    group: 'Activity',
    width: 104,
    formula: "The trader's latest close on this protocol, over all time.",
  },
];

const byKey = new Map(STAT_FIELDS.map((f) => [f.key, f]));

/** The field of `key`; every numeric statistic has one. */
export function statField(key: StatisticNumericField): StatField {
  const field = byKey.get(key);
  if (!field) throw new Error(`No statistic field ${key}`);
  return field;
}

/** The tooltip of a percentile. */
export function rankingFormula(key: RankingKey): string {
  const way = LOWER_IS_BETTER_RANKING_KEYS.has(key)
    ? 'lower is better'
    : key === 'realisedMaxDrawdown'
      ? 'closer to 0 is better'
      : 'higher is better';
  return (
    `Percentile of ${statField(key).label} among the traders of this protocol and window (${way}): ` +
    '100 × traders strictly worse / (traders − 1). 100 is the best.'
  );
}

/** The average of the percentiles: one score out of 100 for a trader. */
export function averageScore(ranking: Partial<Record<RankingKey, number>> | null | undefined): number | null {
  if (!ranking) return null;
  const values = RANKING_KEYS.map((k) => ranking[k]).filter((v): v is number => typeof v === 'number');
  if (values.length === 0) return null;
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** The windows as a trader names them. */
export const WINDOW_LABELS: Record<Window, string> = {
  D7: '7D',
  D15: '15D',
  D30: '30D',
  D60: '60D',
  FULL: 'All',
};
/** The windows from the shortest to all time, as the tabs show them. */
export const WINDOW_ORDER: readonly Window[] = ['D7', 'D15', 'D30', 'D60', 'FULL'];

/** What a window covers (docs/semantics.md, Windows). */
export function windowMeaning(window: Window): string {
  if (window === 'FULL') return 'Every closed position.';
  const days = window.slice(1);
  return `Positions closed in the ${days} full UTC days before today (today excluded).`;
}

/**
 * A figure as a page shows it: dollars (compact when asked), percents, durations. `fixed`: two
 * decimals always on percents, ratios, leverage and compact dollars, as a table column writes them
 * (format/number.ts, Decimals).
 */
export function formatStat(
  kind: StatKind,
  value: number | null | undefined,
  options: { compact?: boolean } & Decimals = {},
): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return MISSING;
  switch (kind) {
    case 'usd':
      return options.compact ? formatUsdCompact(value, options) : formatUsd(value);
    case 'percent':
      return formatPercent(value, options);
    case 'ratio':
      return formatNumber(value, options);
    case 'count':
      return formatInteger(value);
    case 'duration':
      return formatDuration(value);
    case 'leverage':
      return formatLeverage(value, options);
    case 'days':
      return `${formatInteger(value)} d`;
    case 'time':
      return formatDate(value);
  }
}

/**
 * A record's figure as a page shows it, and why it has none when the service's 0 means "no
 * value" (StatField.noValue): then the text is an em dash and `why` says so, for its title.
 */
export function statText(
  field: StatField,
  stat: (key: StatisticNumericField) => number | null,
  options: { compact?: boolean } & Decimals = {},
): { text: string; why: string | null } {
  const value = stat(field.key);
  const why = value === 0 ? (field.noValue?.(stat) ?? null) : null;
  return { text: why ? MISSING : formatStat(field.kind, value, options), why };
}

/** A millisecond time as a day in the user's locale (`14 Mar 2025` in en-GB). */
function formatDate(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? MISSING : formatDay(d);
}
