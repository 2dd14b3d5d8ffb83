import type { ReactElement } from 'react';
import { useEffect, useMemo } from 'react';
import { EmptyState } from '@renderer/components/EmptyState';
import { ExportCsvButton } from '@renderer/components/ExportCsvButton';
import { Tabs } from '@renderer/components/Tabs';
import { DataTable } from '@renderer/components/table/DataTable';
import { compareColumns, type CompareRow } from './backtest-columns';
import { useBacktestPrefill } from './backtest-prefill';
import { settingsFromCopyForm } from './backtest-settings';
import { useBacktest } from './backtest-store';
import { RunView } from './RunView';
import { SettingsPanel } from './SettingsPanel';
import { SweepPanel } from './SweepPanel';
import './backtest.css';

/** Every run's result per trader, side by side. */
function Compare(): ReactElement {
  const runs = useBacktest((s) => s.runs);
  const setTab = useBacktest((s) => s.setTab);
  const rows = useMemo<CompareRow[]>(
    () =>
      runs.flatMap((run) =>
        run.results.map((r) => ({
          ...r,
          runId: run.id,
          runLabel: run.label,
          settingsText: run.settingsText,
        })),
      ),
    [runs],
  );
  if (runs.length === 0)
    return (
      <div className="panel">
        <EmptyState title="No backtest yet">
          <p>
            Choose a protocol and a trader (or open one from its page and press Backtest), then Run backtest.
            Each run opens in a tab and is listed here, so settings can be compared side by side.
          </p>
        </EmptyState>
      </div>
    );
  return (
    <section className="panel" aria-labelledby="bt-compare-title">
      <header className="panel-header">
        <h3 id="bt-compare-title">Runs side by side</h3>
        <span className="panel-count">click a row to open its run</span>
        <div className="panel-actions">
          <ExportCsvButton
            columns={compareColumns}
            rows={rows}
            name="backtest-runs"
            noun="runs"
            testId="bt-compare-csv"
          />
        </div>
      </header>
      <DataTable
        rows={rows}
        columns={compareColumns}
        rowKey={(r) => `${r.runId}-${r.account}`}
        onRowOpen={(r) => setTab(r.runId)}
        ariaLabel="Runs compared"
        testId="bt-compare"
        height={320}
      />
    </section>
  );
}

/** Backtest: what copy settings would have done over traders' stored orders, and a sweep of them. */
export function BacktestPage(): ReactElement {
  const runs = useBacktest((s) => s.runs);
  const tab = useBacktest((s) => s.tab);
  const setTab = useBacktest((s) => s.setTab);
  const closeRun = useBacktest((s) => s.closeRun);
  const sweep = useBacktest((s) => s.sweep);
  const formRevision = useBacktest((s) => s.formRevision);
  const current = runs.find((r) => r.id === tab) ?? null;

  // A hand-over from the trader page or the copy-trade form fills the form once.
  useEffect(() => {
    const prefill = useBacktestPrefill.getState().take();
    const store = useBacktest.getState();
    if (prefill?.kind === 'trader') store.prefillTrader(prefill.protocol, prefill.account);
    else if (prefill?.kind === 'copyForm') {
      // The copy-trade form has no window, balance or costs: those stay as they were here.
      const { fromDate, toDate, balance, delaySeconds, slippageBps, feePercent, funding } = store.settings;
      store.prefillSettings({
        ...settingsFromCopyForm(prefill.values, Date.now()),
        ...{ fromDate, toDate, balance, delaySeconds, slippageBps, feePercent, funding },
      });
    }
  }, []);

  const shown = current ? current.id : tab === 'sweep' ? 'sweep' : 'compare';
  const tabs = [
    { value: 'compare', label: 'Compare', count: runs.length },
    ...runs.map((r) => ({ value: r.id, label: r.label })),
    { value: 'sweep', label: sweep?.status === 'running' ? 'Sweep (running)' : 'Sweep' },
  ];
  return (
    <section className="page page-wide" aria-labelledby="page-title" data-testid="backtest-page">
      <header className="page-header">
        <h1 id="page-title">Backtest</h1>
        <p className="page-lede">
          Replays the traders’ stored orders with your copy settings, paying what a real copy pays: delay,
          slippage, fees and funding.
        </p>
      </header>
      <SettingsPanel key={formRevision} />
      <div className="bt-tabs-row">
        <Tabs
          value={shown}
          tabs={tabs}
          onChange={setTab}
          label="Backtest results"
          idPrefix="bt"
          testId="bt-tabs"
        />
        {current ? (
          <button
            type="button"
            className="button button-small"
            onClick={() => closeRun(current.id)}
            data-testid="bt-close-run"
          >
            Close {current.label}
          </button>
        ) : null}
      </div>
      <div role="tabpanel" id={`bt-panel-${shown}`} aria-labelledby={`bt-tab-${shown}`} className="bt-panel">
        {current ? (
          <RunView key={current.id} run={current} />
        ) : shown === 'sweep' ? (
          <SweepPanel />
        ) : (
          <Compare />
        )}
      </div>
    </section>
  );
}
