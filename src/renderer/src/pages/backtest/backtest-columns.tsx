// The backtest's tables: simulated positions, traders, runs compared, and the sweep ranked. The
// same columns feed the CSV export (raw numbers), like every table of the terminal.
import type { BacktestResult, SimulatorPosition, SweepItem } from '@shared/api/backtest';
import { SideTag } from '@renderer/components/SideTag';
import type { Column } from '@renderer/components/table/DataTable';
import {
  COLUMN_WIDTHS,
  leverageColumn,
  priceColumn,
  shortenedTextColumn,
  signedPercentColumn,
  usdColumn,
} from '@renderer/components/table/column-kinds';
import { shortAddress } from '@renderer/format/address';
import { formatNumber, formatPercent } from '@renderer/format/number';
import { CLOSE_REASON_LABELS } from './close-reasons';

const isoTime = (ms: number): string => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

const timeColumn = (
  id: string,
  label: string,
  get: (p: SimulatorPosition) => number,
): Column<SimulatorPosition> => ({
  id,
  label,
  width: COLUMN_WIDTHS.dateTime,
  sortable: true,
  // The CSV keeps the full ISO time; the cell shows minutes, UTC.
  value: (p) => new Date(get(p)).toISOString(),
  render: (p) => <span className="num muted">{isoTime(get(p))}</span>,
});

/** The positions table: entry, exit, size, volume multiplier, PnL, ROI, why it closed. */
export const positionColumns: readonly Column<SimulatorPosition>[] = [
  {
    id: 'pair',
    label: 'Pair',
    width: 100,
    sortable: true,
    value: (p) => p.position.pair,
    render: (p) => <span className="symbol">{p.position.pair}</span>,
  },
  {
    id: 'side',
    label: 'Side',
    width: COLUMN_WIDTHS.side,
    sortable: true,
    value: (p) => (p.position.isLong ? 'LONG' : 'SHORT'),
    render: (p) => <SideTag isLong={p.position.isLong} />,
  },
  timeColumn('openTime', 'Opened (UTC)', (p) => p.position.openTime),
  timeColumn('closeTime', 'Closed (UTC)', (p) => p.position.closeTime),
  priceColumn({ id: 'entry', label: 'Entry', width: 92, sortable: true, get: (p) => p.position.entryPrice }),
  priceColumn({ id: 'exit', label: 'Exit', width: 92, sortable: true, get: (p) => p.position.closePrice }),
  usdColumn({
    id: 'size',
    label: 'Size',
    title: 'Peak notional of the simulated copy, USD.',
    width: 84,
    sortable: true,
    compact: true,
    get: (p) => p.position.size,
  }),
  leverageColumn({
    id: 'leverage',
    label: 'Lev.',
    width: COLUMN_WIDTHS.leverage,
    sortable: true,
    get: (p) => p.position.leverage,
  }),
  {
    id: 'volMultiplier',
    label: 'Vol. mult.',
    title: 'Peak margin / margin per order: how far increases grew the copy.',
    align: 'right',
    width: 84,
    sortable: true,
    value: (p) => p.volMultiplier,
    render: (p) => <span className="num">{formatNumber(p.volMultiplier, { fixed: true })}×</span>,
  },
  usdColumn({
    id: 'fee',
    label: 'Fees',
    width: 70,
    sortable: true,
    get: (p) => p.position.fee,
  }),
  usdColumn({
    id: 'profit',
    label: 'PnL',
    title: 'realised PnL − fees + funding of the simulated copy.',
    width: 96,
    sortable: true,
    signed: true,
    get: (p) => p.profit,
  }),
  signedPercentColumn({
    id: 'roi',
    label: 'ROI',
    title: 'PnL / peak margin.',
    width: 80,
    sortable: true,
    get: (p) => p.roi,
  }),
  usdColumn({ id: 'balance', label: 'Balance after', width: 104, sortable: true, get: (p) => p.balance }),
  {
    id: 'closeReason',
    label: 'Closed by',
    width: 110,
    sortable: true,
    value: (p) => p.closeReason,
    render: (p) => (
      <span className={p.closeReason === 'LIQUIDATE' ? 'tag tag-bad' : 'muted'}>
        {CLOSE_REASON_LABELS[p.closeReason]}
      </span>
    ),
  },
];

/** Figures every summary row shares (a trader's result, a run compared, a sweep item). */
function summaryColumns<Row extends Omit<BacktestResult, 'equity'>>(): Column<Row>[] {
  return [
    usdColumn<Row>({
      id: 'profit',
      label: 'Profit',
      width: 100,
      sortable: true,
      signed: true,
      get: (r) => r.profit,
    }),
    signedPercentColumn<Row>({
      id: 'roi',
      label: 'ROI',
      title: 'Profit / starting balance.',
      width: 80,
      sortable: true,
      get: (r) => r.roi,
    }),
    signedPercentColumn<Row>({
      id: 'maxDrawDown',
      label: 'Max DD',
      title: 'Largest fall of the equity curve from a peak, % of that peak.',
      width: 80,
      sortable: true,
      get: (r) => r.maxDrawDown,
    }),
    {
      id: 'winRate',
      label: 'Win rate',
      align: 'right',
      width: 76,
      sortable: true,
      value: (r) => r.winRate,
      render: (r) => <span className="num">{formatPercent(r.winRate, { fixed: true })}</span>,
    },
    {
      id: 'totalTrade',
      label: 'Trades',
      align: 'right',
      width: 64,
      sortable: true,
      value: (r) => r.totalTrade,
    },
    usdColumn<Row>({ id: 'fees', label: 'Fees', width: 84, sortable: true, get: (r) => r.fees }),
    usdColumn<Row>({
      id: 'funding',
      label: 'Funding',
      width: 84,
      sortable: true,
      signed: true,
      get: (r) => r.funding,
    }),
    {
      id: 'totalSkipped',
      label: 'Skipped',
      align: 'right',
      width: 82,
      sortable: true,
      value: (r) => r.totalSkipped,
    },
  ];
}

const traderColumn = <Row extends { account: string }>(): Column<Row> => ({
  id: 'account',
  label: 'Trader',
  width: 130,
  sortable: true,
  value: (r) => r.account,
  render: (r) => (
    <span className="address" title={r.account}>
      {shortAddress(r.account)}
    </span>
  ),
});

/** Several traders under one configuration, one row each. */
export const traderColumns: readonly Column<BacktestResult>[] = [
  traderColumn<BacktestResult>(),
  ...summaryColumns<BacktestResult>(),
  {
    id: 'exits',
    label: 'SL / TP / Liq.',
    width: 100,
    value: (r) => `${r.totalStopLoss} / ${r.totalTakeProfit} / ${r.totalLiquidate}`,
  },
  { id: 'pricePath', label: 'Prices', width: 70, value: (r) => r.pricePath },
];

/** A run of the compare table: one configuration's result for one trader. */
export interface CompareRow extends BacktestResult {
  runId: string;
  runLabel: string;
  settingsText: string;
}

/** Several configurations side by side. */
export const compareColumns: readonly Column<CompareRow>[] = [
  { id: 'run', label: 'Run', width: 70, sortable: true, value: (r) => r.runLabel },
  traderColumn<CompareRow>(),
  ...summaryColumns<CompareRow>(),
  shortenedTextColumn({ id: 'settings', label: 'Settings', width: 420, get: (r) => r.settingsText }),
];

const settingColumn = (id: keyof SweepItem['settings'], label: string, width: number): Column<SweepItem> => ({
  id,
  label,
  align: 'right',
  width,
  sortable: true,
  value: (r) => {
    const v = r.settings[id];
    return typeof v === 'boolean' ? (v ? 'yes' : 'no') : v;
  },
});

/** The sweep ranked: every combination, best first. */
export const sweepColumns: readonly Column<SweepItem>[] = [
  { id: 'rank', label: '#', align: 'right', width: 52, sortable: true, value: (r) => r.rank },
  traderColumn<SweepItem>(),
  settingColumn('leverage', 'Lev.', 58),
  settingColumn('orderVolume', 'Margin', 70),
  settingColumn('stopLossAmount', 'SL', 56),
  settingColumn('takeProfitAmount', 'TP', 56),
  settingColumn('lookBackOrders', 'Look-back', 92),
  settingColumn('maxVolMultiplier', 'Max mult.', 90),
  settingColumn('reverseCopy', 'Reverse', 80),
  settingColumn('delaySeconds', 'Delay s', 70),
  {
    id: 'score',
    label: 'Score',
    title: 'The metric ranked by.',
    align: 'right',
    width: 76,
    sortable: true,
    value: (r) => r.score,
    render: (r) => <span className="num">{formatNumber(r.score, { fixed: true })}</span>,
  },
  ...summaryColumns<SweepItem>(),
];
