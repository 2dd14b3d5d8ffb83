import type { ReactElement } from 'react';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import type { BacktestResult } from '@shared/api/backtest';
import { EmptyState } from '@renderer/components/EmptyState';
import { ExportCsvButton } from '@renderer/components/ExportCsvButton';
import { DataTable } from '@renderer/components/table/DataTable';
import { shortAddress } from '@renderer/format/address';
import { formatInteger, formatNumber, formatPercent, formatUsd, signClass } from '@renderer/format/number';
import { parseAmount } from '@renderer/copy-trades/copy-trade-form';
import { positionColumns, traderColumns } from './backtest-columns';
import { type BacktestRun, useBacktest } from './backtest-store';
import type { CandlesResponse } from '@shared/api/candles';
import { CANDLE_INTERVAL_MS } from '@shared/api/candles';
import { invoke } from '@renderer/ipc/call';
import { candleRange, equityPoints, tokenPaths, type TokenPath } from './chart-series';

// The chart library comes with the first result, not with the terminal's first paint.
const EquityChart = lazy(() => import('./BacktestCharts').then((m) => ({ default: m.EquityChart })));
const TokenChart = lazy(() => import('./BacktestCharts').then((m) => ({ default: m.TokenChart })));
const chartFallback = (height: number) => (
  <div className="chart-skeleton skeleton" style={{ height }} aria-hidden="true" />
);

/** The headline figures, in the order a copier reads them. */
function figures(
  r: BacktestResult,
): { label: string; value: string; tone?: string; title?: string; id: string }[] {
  return [
    {
      id: 'profit',
      label: 'Profit',
      value: formatUsd(r.profit, { signed: true }),
      tone: signClass(r.profit),
      title: 'Net of fees and funding',
    },
    {
      id: 'roi',
      label: 'ROI',
      value: formatPercent(r.roi, { signed: true }),
      tone: signClass(r.roi),
      title: 'Profit / starting balance',
    },
    {
      id: 'maxDrawDown',
      label: 'Max drawdown',
      value: formatPercent(r.maxDrawDown, { signed: true }),
      tone: signClass(r.maxDrawDown),
      title: `Largest fall from a peak (${formatUsd(r.maxDrawDownPnl, { signed: true })})`,
    },
    {
      id: 'winRate',
      label: 'Win rate',
      value: formatPercent(r.winRate),
      title: `${r.totalWin} won, ${r.totalLose} lost`,
    },
    { id: 'totalTrade', label: 'Trades', value: formatInteger(r.totalTrade) },
    {
      id: 'avgRoi',
      label: 'Avg ROI / trade',
      value: formatPercent(r.avgRoi, { signed: true }),
      tone: signClass(r.avgRoi),
    },
    {
      id: 'gainLossRatio',
      label: 'Gain / loss',
      value: formatNumber(r.gainLossRatio),
      title: 'Total gain / total loss',
    },
    { id: 'fees', label: 'Fees', value: formatUsd(-r.fees), tone: signClass(-r.fees) },
    {
      id: 'funding',
      label: 'Funding',
      value: formatUsd(r.funding, { signed: true }),
      tone: signClass(r.funding),
    },
    { id: 'maxVolMultiplier', label: 'Max vol. multiplier', value: `${formatNumber(r.maxVolMultiplier)}×` },
    {
      id: 'exits',
      label: 'SL / TP / Liq.',
      value: `${r.totalStopLoss} / ${r.totalTakeProfit} / ${r.totalLiquidate}`,
    },
    {
      id: 'totalSkipped',
      label: 'Skipped',
      value: formatInteger(r.totalSkipped),
      title: 'Copies not made for want of balance',
    },
  ];
}

const CANDLE_SOURCE_TEXT: Record<CandlesResponse['source'], string> = {
  market: 'candles of the market’s prices',
  venue: 'candles from the venue',
  fills: 'candles of the stored fills',
  none: 'no stored prices',
};

/**
 * One token's chart: the service's candles over the span of its trades (`prices:candles`), or,
 * when it has none or cannot answer, the line through the simulated fills.
 */
function TokenFigure({ protocol, path }: { protocol: string; path: TokenPath }): ReactElement {
  const range = useMemo(() => candleRange(path), [path]);
  const [answer, setAnswer] = useState<CandlesResponse | 'failed' | null>(null);
  useEffect(() => {
    let live = true;
    void invoke('prices:candles', { protocol, indexToken: path.indexToken, query: range }).then((result) => {
      if (live) setAnswer(result.ok ? result.value : 'failed');
    });
    return () => {
      live = false;
    };
  }, [protocol, path.indexToken, range]);
  const candles = answer && answer !== 'failed' && answer.candles.length > 0 ? answer.candles : null;
  const source =
    candles && answer && answer !== 'failed'
      ? `${range.interval} ${CANDLE_SOURCE_TEXT[answer.source]}`
      : 'line through the simulated fills';
  return (
    <figure className="bt-token" data-testid="bt-token" data-source={candles ? 'candles' : 'fills'}>
      <figcaption className="bt-token-title">
        <span className="symbol">{path.pair}</span>{' '}
        <span className="muted">
          {path.trades} {path.trades === 1 ? 'trade' : 'trades'}
          {answer === null ? '' : ` · ${source}`}
        </span>
      </figcaption>
      {answer === null ? (
        chartFallback(200)
      ) : (
        <Suspense fallback={chartFallback(200)}>
          <TokenChart path={path} candles={candles} intervalMs={CANDLE_INTERVAL_MS[range.interval]} />
        </Suspense>
      )}
    </figure>
  );
}

function Detail({ run, result }: { run: BacktestRun; result: BacktestResult }): ReactElement {
  const start = parseAmount(run.settings.balance) ?? 0;
  const equity = useMemo(() => equityPoints(result.equity), [result.equity]);
  const positions = useMemo(() => result.simulatorPositions ?? [], [result.simulatorPositions]);
  const paths = useMemo(() => tokenPaths(positions), [positions]);
  const last = equity.at(-1)?.value ?? start;
  const name = `backtest-${run.label.toLowerCase().replace(/\s+/g, '-')}-${shortAddress(result.account).replace('…', '')}`;
  return (
    <>
      <dl className="key-figures bt-figures" data-testid="bt-figures">
        {figures(result).map((f) => (
          <div key={f.id} className="key-figure" title={f.title} data-testid={`bt-figure-${f.id}`}>
            <dt>{f.label}</dt>
            <dd className={`num ${f.tone ?? ''}`}>{f.value}</dd>
          </div>
        ))}
      </dl>
      <section className="panel" aria-labelledby={`${run.id}-equity`}>
        <header className="panel-header">
          <h3 id={`${run.id}-equity`}>Equity</h3>
          <span className="panel-count">
            balance after each close ·{' '}
            {result.pricePath === 'marks'
              ? 'stops and liquidations checked on the stored mark prices'
              : 'no mark history: stops and liquidations checked on the trader’s fill prices'}
          </span>
        </header>
        <div className="panel-body">
          {equity.length > 1 ? (
            <figure className="chart-figure">
              <Suspense fallback={chartFallback(260)}>
                <EquityChart points={equity} start={start} />
              </Suspense>
              <figcaption className="chart-caption">
                <span className={`num ${signClass(last - start)}`} data-testid="bt-equity-end">
                  {formatUsd(last)}
                </span>{' '}
                <span className="muted">
                  from {formatUsd(start)} over {formatInteger(result.totalTrade)} trades
                </span>
              </figcaption>
            </figure>
          ) : (
            <EmptyState title="No position was copied in this window">
              <p>
                The trader closed nothing the settings would have copied. Try a longer window or other
                filters.
              </p>
            </EmptyState>
          )}
        </div>
      </section>
      {paths.length > 0 ? (
        <section className="panel" aria-labelledby={`${run.id}-prices`}>
          <header className="panel-header">
            <h3 id={`${run.id}-prices`}>Entries and exits by token</h3>
            <span className="panel-count">
              ▲ long entry, ▼ short entry, ● exit (green a gain, red a loss)
            </span>
          </header>
          <div className="panel-body bt-token-charts">
            {paths.slice(0, 6).map((p) => (
              <TokenFigure key={p.pair} protocol={run.settings.protocol} path={p} />
            ))}
          </div>
        </section>
      ) : null}
      <section className="panel" aria-labelledby={`${run.id}-positions`}>
        <header className="panel-header">
          <h3 id={`${run.id}-positions`}>Simulated positions</h3>
          <span className="panel-count num">{formatInteger(positions.length)}</span>
          <div className="panel-actions">
            <ExportCsvButton
              columns={positionColumns}
              rows={positions}
              name={`${name}-positions`}
              noun="positions"
              testId="bt-positions-csv"
            />
          </div>
        </header>
        <DataTable
          rows={positions}
          columns={positionColumns}
          rowKey={(p) =>
            `${p.position.pair}-${p.position.openTime}-${p.position.closeTime}-${p.position.isLong}`
          }
          ariaLabel="Simulated positions"
          testId="bt-positions"
          height={360}
          empty={<p className="muted">No simulated position.</p>}
        />
      </section>
    </>
  );
}

/** One configuration's result: the traders (when several), then the chosen trader's detail. */
export function RunView({ run }: { run: BacktestRun }): ReactElement {
  const selectAccount = useBacktest((s) => s.selectAccount);
  const copyWith = useBacktest((s) => s.copyWith);
  const result = run.results.find((r) => r.account === run.account) ?? run.results[0];
  return (
    <div className="bt-run" data-testid="bt-run-view">
      <div className="bt-summary">
        <p data-testid="bt-settings-summary">
          <span className="muted">{run.settings.protocol} ·</span> {run.settingsText}
        </p>
        <button
          type="button"
          className="button button-small"
          onClick={() => copyWith(run.settings)}
          title="Opens the copy-trade form with this run’s settings"
          data-testid="bt-run-copy-with"
        >
          Copy with these settings
        </button>
      </div>
      {run.results.length > 1 ? (
        <section className="panel" aria-labelledby={`${run.id}-traders`}>
          <header className="panel-header">
            <h3 id={`${run.id}-traders`}>Traders</h3>
            <span className="panel-count">
              one configuration, {run.results.length} traders · click one for its detail
            </span>
            <div className="panel-actions">
              <ExportCsvButton
                columns={traderColumns}
                rows={run.results}
                name={`backtest-${run.id}-traders`}
                noun="traders"
                testId="bt-traders-csv"
              />
            </div>
          </header>
          <DataTable
            rows={run.results}
            columns={traderColumns}
            rowKey={(r) => r.account}
            sort={{ column: 'roi', direction: 'desc' }}
            onRowOpen={(r) => selectAccount(run.id, r.account)}
            ariaLabel="Traders under this configuration"
            testId="bt-traders"
            height={280}
          />
        </section>
      ) : null}
      {result ? (
        <>
          {run.results.length > 1 ? (
            <h3 className="bt-detail-title">
              Detail · <span className="address">{shortAddress(result.account)}</span>
            </h3>
          ) : null}
          <Detail key={result.account} run={run} result={result} />
        </>
      ) : null}
    </div>
  );
}
