import type { CSSProperties, FormEvent, ReactElement } from 'react';
import { useMemo, useState } from 'react';
import type { SweepField, SweepItem, SweepRank } from '@shared/api/backtest';
import { ExportCsvButton } from '@renderer/components/ExportCsvButton';
import { ProgressBar } from '@renderer/components/ProgressBar';
import { DataTable } from '@renderer/components/table/DataTable';
import { shortAddress } from '@renderer/format/address';
import { formatInteger, formatNumber } from '@renderer/format/number';
import { sweepColumns } from './backtest-columns';
import { type SweepAxis, useBacktest } from './backtest-store';
import {
  axisLabel,
  HEAT_METRICS,
  heatGrid,
  heatTone,
  parseValueList,
  SWEEP_AXES,
  type HeatMetric,
} from './sweep-grid';
import { settingsIssues } from './backtest-settings';

const RANKS: readonly { value: SweepRank; label: string }[] = [
  { value: 'roi', label: 'ROI' },
  { value: 'roiPerDrawDown', label: 'ROI / max drawdown' },
];

const valueText = (v: number | boolean): string =>
  typeof v === 'boolean' ? (v ? 'yes' : 'no') : formatNumber(v);

function AxisInput({
  which,
  field,
  text,
  error,
  onField,
  onText,
}: {
  which: 'x' | 'y';
  field: SweepField;
  text: string;
  error: string | null;
  onField(f: SweepField): void;
  onText(t: string): void;
}): ReactElement {
  return (
    <div className={`field${error ? ' has-error' : ''}`}>
      <label className="field-label" htmlFor={`bt-axis-${which}`}>
        {which === 'x' ? 'Across' : 'Down'}
      </label>
      <div className="bt-axis">
        <select
          className="input select"
          aria-label={`${which === 'x' ? 'Across' : 'Down'}: setting`}
          value={field}
          onChange={(e) => onField(e.target.value as SweepField)}
          data-testid={`bt-axis-${which}-field`}
        >
          {SWEEP_AXES.map((a) => (
            <option key={a.field} value={a.field}>
              {a.label}
            </option>
          ))}
        </select>
        <input
          id={`bt-axis-${which}`}
          className="input num"
          value={text}
          onChange={(e) => onText(e.target.value)}
          aria-describedby={`bt-axis-${which}-note`}
          data-testid={`bt-axis-${which}-values`}
        />
      </div>
      <p id={`bt-axis-${which}-note`} className={error ? 'field-error' : 'field-hint'}>
        {error ?? 'Values, separated by commas'}
      </p>
    </div>
  );
}

function HeatMap({
  items,
  x,
  y,
  metric,
  account,
  onOpen,
}: {
  items: readonly SweepItem[];
  x: SweepField;
  y: SweepField;
  metric: HeatMetric;
  account: string;
  onOpen(item: SweepItem): void;
}): ReactElement {
  const grid = useMemo(() => heatGrid(items, x, y, metric, account), [items, x, y, metric, account]);
  const style = { '--bt-cols': grid.xs.length } as CSSProperties;
  return (
    <div className="bt-heat-wrap">
      <div className="bt-heat-axis-x muted">{axisLabel(x)} →</div>
      <div
        className="bt-heat"
        style={style}
        role="grid"
        aria-label={`Heat map of ${metric}`}
        data-testid="bt-heatmap"
      >
        <div role="row" className="bt-heat-row">
          <div role="columnheader" className="bt-heat-corner muted">
            {axisLabel(y)} ↓
          </div>
          {grid.xs.map((v) => (
            <div key={String(v)} role="columnheader" className="bt-heat-head num">
              {valueText(v)}
            </div>
          ))}
        </div>
        {grid.ys.map((yv, yi) => (
          <div key={String(yv)} role="row" className="bt-heat-row">
            <div role="rowheader" className="bt-heat-head num">
              {valueText(yv)}
            </div>
            {grid.xs.map((xv, xi) => {
              const cell = grid.cells[yi]?.[xi] ?? null;
              if (!cell)
                return (
                  <div key={String(xv)} role="gridcell" className="bt-heat-cell is-empty">
                    —
                  </div>
                );
              const tone = heatTone(cell.value, grid);
              return (
                <button
                  key={String(xv)}
                  type="button"
                  role="gridcell"
                  className={`bt-heat-cell bt-heat-${tone.tone}`}
                  style={{ '--bt-strength': tone.strength } as CSSProperties}
                  onClick={() => onOpen(cell.item)}
                  title={`${axisLabel(x)} ${valueText(xv)}, ${axisLabel(y)} ${valueText(yv)}: rank ${cell.item.rank}. Click for the full result.`}
                  data-testid="bt-heat-cell"
                >
                  {formatNumber(cell.value)}
                </button>
              );
            })}
          </div>
        ))}
      </div>
    </div>
  );
}

/** The sweep: two settings over lists of values, the others as in the form. */
export function SweepPanel(): ReactElement {
  const sweep = useBacktest((s) => s.sweep);
  const startSweep = useBacktest((s) => s.startSweep);
  const cancelSweep = useBacktest((s) => s.cancelSweep);
  const openSweepItem = useBacktest((s) => s.openSweepItem);
  const opening = useBacktest((s) => s.running);
  const [xField, setXField] = useState<SweepField>(sweep?.axes[0].field ?? 'leverage');
  const [yField, setYField] = useState<SweepField>(sweep?.axes[1].field ?? 'orderVolume');
  const [xText, setXText] = useState(sweep ? sweep.axes[0].values.join(', ') : '2, 5, 10, 20');
  const [yText, setYText] = useState(sweep ? sweep.axes[1].values.join(', ') : '50, 100, 200');
  const [rankBy, setRankBy] = useState<SweepRank>(sweep?.rankBy ?? 'roi');
  const [metric, setMetric] = useState<HeatMetric>('roi');
  const [attempted, setAttempted] = useState(false);
  const [account, setAccount] = useState<string | null>(null);
  const xs = parseValueList(xField, xText);
  const ys = parseValueList(yField, yText);
  const same = xField === yField ? 'Choose two different settings.' : null;
  const xError = attempted ? ('error' in xs ? xs.error : null) : null;
  const yError = attempted ? ('error' in ys ? ys.error : same) : null;
  const running = sweep?.status === 'running';
  // The fixed settings come from the form: a sweep of broken settings would only be refused.
  const formSettings = useBacktest((s) => s.settings);
  const formIssues = useMemo(() => Object.keys(settingsIssues(formSettings)).length, [formSettings]);

  const submit = (e: FormEvent<HTMLFormElement>): void => {
    e.preventDefault();
    setAttempted(true);
    if ('error' in xs || 'error' in ys || same || formIssues > 0) return;
    const axes: [SweepAxis, SweepAxis] = [
      { field: xField, values: xs.values },
      { field: yField, values: ys.values },
    ];
    void startSweep(axes, rankBy);
  };

  const answer = sweep?.answer ?? null;
  const accounts = useMemo(() => [...new Set(answer?.sweep.data.map((d) => d.account) ?? [])], [answer]);
  const shown = account && accounts.includes(account) ? account : (accounts[0] ?? '');

  return (
    <div className="bt-sweep" data-testid="bt-sweep">
      <form className="panel bt-sweep-form" onSubmit={submit} noValidate>
        <header className="panel-header">
          <h3>Sweep two settings</h3>
          <span className="panel-count">every other setting as in the form above</span>
        </header>
        <div className="panel-body bt-sweep-grid">
          <AxisInput
            which="x"
            field={xField}
            text={xText}
            error={xError}
            onField={setXField}
            onText={setXText}
          />
          <AxisInput
            which="y"
            field={yField}
            text={yText}
            error={yError}
            onField={setYField}
            onText={setYText}
          />
          <label className="field">
            <span className="field-label">Rank by</span>
            <select
              className="input select"
              value={rankBy}
              onChange={(e) => setRankBy(e.target.value as SweepRank)}
              data-testid="bt-rank-by"
            >
              {RANKS.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>
          </label>
          {attempted && formIssues > 0 ? (
            <p className="field-error bt-sweep-issue" data-testid="bt-sweep-issue">
              Fix the settings above first: {formIssues === 1 ? '1 field needs' : `${formIssues} fields need`}{' '}
              fixing (Run backtest shows which).
            </p>
          ) : null}
          <div className="bt-sweep-actions">
            {running ? (
              <button
                type="button"
                className="button"
                onClick={() => void cancelSweep()}
                data-testid="bt-sweep-cancel"
              >
                Cancel
              </button>
            ) : null}
            <button
              type="submit"
              className="button button-primary"
              disabled={running}
              data-testid="bt-sweep-run"
            >
              {running ? 'Sweeping…' : 'Run sweep'}
            </button>
          </div>
        </div>
        {sweep && (running || sweep.status === 'cancelled') ? (
          <div className="panel-body">
            <ProgressBar
              value={sweep.total > 0 ? sweep.done / sweep.total : null}
              label="Sweep progress"
              detail={
                sweep.status === 'cancelled'
                  ? `Cancelled after ${formatInteger(sweep.done)} of ${formatInteger(sweep.total)} combinations: the map shows those`
                  : `${formatInteger(sweep.done)} of ${formatInteger(sweep.total)} combinations`
              }
              testId="bt-sweep-progress"
            />
          </div>
        ) : null}
      </form>
      {answer && answer.sweep.data.length > 0 && sweep ? (
        <>
          <section className="panel" aria-labelledby="bt-heat-title">
            <header className="panel-header">
              <h3 id="bt-heat-title">Heat map</h3>
              <span className="panel-count">click a cell for that configuration’s full result</span>
              <div className="panel-actions">
                {accounts.length > 1 ? (
                  <select
                    className="input select"
                    aria-label="Trader"
                    value={shown}
                    onChange={(e) => setAccount(e.target.value)}
                  >
                    {accounts.map((a) => (
                      <option key={a} value={a}>
                        {shortAddress(a)}
                      </option>
                    ))}
                  </select>
                ) : null}
                <select
                  className="input select"
                  aria-label="Metric"
                  value={metric}
                  onChange={(e) => setMetric(e.target.value as HeatMetric)}
                  data-testid="bt-heat-metric"
                >
                  {HEAT_METRICS.map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.label}
                    </option>
                  ))}
                </select>
              </div>
            </header>
            <div className="panel-body">
              <HeatMap
                items={answer.sweep.data}
                x={sweep.axes[0].field}
                y={sweep.axes[1].field}
                metric={metric}
                account={shown}
                onOpen={(item) => void openSweepItem(item)}
              />
              {opening ? <p className="muted">Opening the configuration…</p> : null}
            </div>
          </section>
          <section className="panel" aria-labelledby="bt-ranked-title">
            <header className="panel-header">
              <h3 id="bt-ranked-title">Ranked</h3>
              <span className="panel-count num">
                {formatInteger(answer.sweep.data.length)} combinations by{' '}
                {RANKS.find((r) => r.value === answer.sweep.rankBy)?.label}
              </span>
              <div className="panel-actions">
                <ExportCsvButton
                  columns={sweepColumns}
                  rows={answer.sweep.data}
                  name="backtest-sweep"
                  noun="combinations"
                  testId="bt-sweep-csv"
                />
              </div>
            </header>
            <DataTable
              rows={answer.sweep.data}
              columns={sweepColumns}
              rowKey={(r) => `${r.rank}`}
              onRowOpen={(r) => void openSweepItem(r)}
              ariaLabel="Sweep combinations, best first"
              testId="bt-sweep-table"
              height={360}
            />
          </section>
        </>
      ) : answer && !running ? (
        <p className="muted">No combination ran.</p>
      ) : null}
    </div>
  );
}
