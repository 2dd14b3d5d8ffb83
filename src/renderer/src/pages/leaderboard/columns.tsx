import type { ReactElement } from 'react';
import type { Window } from '@shared/api/common';
import type { RankingKey } from '@shared/api/statistics';
import { RANKING_KEYS } from '@shared/api/statistics';
import type { Column } from '@renderer/components/table/DataTable';
import type { ColumnChoice } from '@renderer/components/table/ColumnChooser';
import { shortAddress } from '@renderer/format/address';
import { formatNumber, signClass } from '@renderer/format/number';
import type { RankedRow } from '@renderer/stores/leaderboard';
import { Sparkline } from './Sparkline';
import {
  STAT_FIELDS,
  averageScore,
  statText,
  rankingFormula,
  statField,
  type StatField,
  type StatKind,
} from '@renderer/statistics/statistic-fields';

const WIDTHS: Record<StatKind, number> = {
  usd: 104,
  percent: 92,
  ratio: 88,
  count: 80,
  duration: 92,
  leverage: 88,
  days: 84,
  time: 100,
};

/** A column with its chooser heading and, when the header is abbreviated, its full name. */
type LeaderboardColumn = Column<RankedRow> & { group: string; fullLabel?: string };

const numberAt = (row: RankedRow, key: string): number | null => {
  const v = (row as unknown as Record<string, unknown>)[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
};

function statColumn(field: StatField): LeaderboardColumn {
  return {
    id: field.key,
    label: field.short ?? field.label,
    fullLabel: field.label,
    title: `${field.label}: ${field.formula}`,
    group: field.group,
    align: 'right',
    width: field.width ?? WIDTHS[field.kind],
    sortable: true,
    value: (row) => numberAt(row, field.key),
    render: (row) => {
      const { text, why } = statText(field, (key) => numberAt(row, key), { compact: true, fixed: true });
      return why ? <span title={why}>{text}</span> : text;
    },
    cellClass: field.signed ? (row) => `num ${signClass(numberAt(row, field.key))}` : () => 'num',
  };
}

/** A percentile as a number with a thin bar: 100 is the best trader of the protocol. */
function PercentileCell({ value }: { value: number | null }): ReactElement {
  if (value === null) return <span className="num muted">—</span>;
  const tone = value >= 75 ? 'high' : value >= 40 ? 'mid' : 'low';
  return (
    <span className="pct-cell">
      <span className={`pct-bar pct-${tone}`} aria-hidden="true">
        <span style={{ width: `${Math.max(2, Math.min(100, value))}%` }} />
      </span>
      <span className="num">{formatNumber(value)}</span>
    </span>
  );
}

function rankingColumn(key: RankingKey): LeaderboardColumn {
  const value = (row: RankedRow): number | null => row.ranking?.[key] ?? null;
  return {
    id: `ranking.${key}`,
    label: `${statField(key).short ?? statField(key).label} %ile`,
    fullLabel: `${statField(key).label} percentile`,
    title: rankingFormula(key),
    group: 'Percentiles',
    align: 'right',
    width: 116,
    sortable: true,
    value,
    render: (row) => <PercentileCell value={value(row)} />,
  };
}

/** Every column the leaderboard can show, in display order; the chooser picks among them. */
const LEADERBOARD_COLUMNS: readonly LeaderboardColumn[] = [
  {
    id: 'rank',
    label: '#',
    fullLabel: 'Place #',
    title: 'Place in the current order.',
    group: 'Trader',
    align: 'right',
    width: 44,
    value: (row) => row.rank,
    cellClass: () => 'num muted',
  },
  {
    id: 'account',
    label: 'Trader',
    title: "The trader's address; open the row for the full address and history.",
    group: 'Trader',
    width: 112,
    value: (row) => row.account,
    render: (row) => (
      <span className="mono lb-account" title={row.account}>
        {shortAddress(row.account)}
      </span>
    ),
  },
  {
    id: 'protocol',
    label: 'Protocol',
    group: 'Trader',
    width: 116,
    value: (row) => row.protocol,
    cellClass: () => 'lb-protocol',
  },
  {
    id: 'sparkline',
    label: 'PnL trend',
    title: 'Cumulative daily PnL over the window: realised − fees + unrealised (statistics:pnl).',
    group: 'Trader',
    width: 96,
    value: () => null,
    // Replaced in chosenColumns, which knows the window.
    render: () => null,
  },
  {
    id: 'score',
    label: 'Score',
    title:
      'Average of the percentiles the service ranks on (0–100): one number for how the trader ranks overall.',
    group: 'Percentiles',
    align: 'right',
    width: 104,
    value: (row) => averageScore(row.ranking),
    render: (row) => <PercentileCell value={averageScore(row.ranking)} />,
  },
  ...STAT_FIELDS.map(statColumn),
  ...RANKING_KEYS.map(rankingColumn),
];

const GROUP_ORDER = ['Trader', 'Profit', 'Returns', 'Risk', 'Activity', 'Percentiles'];

/** The chooser's list: every column, grouped; the trader's address is always shown. */
export const COLUMN_CHOICES: readonly ColumnChoice[] = LEADERBOARD_COLUMNS.map((c) => ({
  id: c.id,
  label: c.fullLabel ?? c.label,
  title: c.title,
  group: c.group,
  locked: c.id === 'account',
})).sort((a, b) => GROUP_ORDER.indexOf(a.group) - GROUP_ORDER.indexOf(b.group));

/** The columns to show, in display order, from the ids chosen (unknown ids are ignored). */
export function chosenColumns(ids: readonly string[], window: Window): Column<RankedRow>[] {
  const wanted = new Set(ids);
  return LEADERBOARD_COLUMNS.filter((c) => c.id === 'account' || wanted.has(c.id)).map((c) =>
    c.id === 'sparkline'
      ? {
          ...c,
          render: (row: RankedRow) => (
            <Sparkline protocol={row.protocol} account={row.account} window={window} />
          ),
        }
      : c,
  );
}

/** Columns the CSV leaves out: a picture is not a figure. */
export const NOT_IN_CSV = new Set(['sparkline']);
