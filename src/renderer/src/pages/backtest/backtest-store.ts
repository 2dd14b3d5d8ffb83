// The Backtest page's state: the form, the runs kept for comparison, and the sweep under way.
import { create } from 'zustand';
import type { BacktestResult, SweepField, SweepItem, SweepRank } from '@shared/api/backtest';
import type { BacktestSweep } from '@shared/ipc/schemas/backtest';
import { call, failureOf } from '@renderer/ipc/call';
import { subscribe } from '@renderer/ipc/events';
import { useCopyPrefill } from '@renderer/stores/copy-prefill';
import { useNavigation } from '@renderer/stores/navigation';
import {
  defaultSettings,
  describeSettings,
  settingsToBody,
  settingsToCopyForm,
  type BacktestSettings,
} from './backtest-settings';
import { settingsOfItem, sweepBody } from './sweep-grid';

/** One configuration run: its settings and one result per trader. */
export interface BacktestRun {
  id: string;
  label: string;
  settings: BacktestSettings;
  settingsText: string;
  results: BacktestResult[];
  /** The trader whose detail is shown. */
  account: string;
}

export interface SweepAxis {
  field: SweepField;
  values: (number | boolean)[];
}

export interface SweepRun {
  runId: string;
  status: 'running' | 'done' | 'cancelled' | 'failed';
  done: number;
  total: number;
  settings: BacktestSettings;
  axes: [SweepAxis, SweepAxis];
  rankBy: SweepRank;
  answer: BacktestSweep | null;
}

/** Runs kept as tabs; the oldest goes when one more is made. */
export const MAX_RUNS = 8;

/** The tab shown: a run's id, the comparison of runs, or the sweep. */
export type BacktestTab = string;

interface BacktestStore {
  settings: BacktestSettings;
  runs: BacktestRun[];
  tab: BacktestTab;
  running: boolean;
  sweep: SweepRun | null;
  runCount: number;
  /** Grows when the form is filled from elsewhere: the form remounts with the new values. */
  formRevision: number;
  setSettings(patch: Partial<BacktestSettings>): void;
  /** Opens the page on a trader (the trader page's "Backtest"). */
  prefillTrader(protocol: string, account: string): void;
  /** Opens the page with whole settings (the copy-trade form's "Backtest these settings"). */
  prefillSettings(settings: BacktestSettings): void;
  setTab(tab: BacktestTab): void;
  selectAccount(runId: string, account: string): void;
  run(settings?: BacktestSettings): Promise<void>;
  closeRun(id: string): void;
  startSweep(axes: [SweepAxis, SweepAxis], rankBy: SweepRank): Promise<void>;
  cancelSweep(): Promise<void>;
  openSweepItem(item: SweepItem): Promise<void>;
  /** "Copy with these settings": the copy-trade form, filled with them. */
  copyWith(settings: BacktestSettings): void;
}

export const useBacktest = create<BacktestStore>()((set, get) => ({
  settings: defaultSettings(Date.now()),
  runs: [],
  tab: 'compare',
  running: false,
  sweep: null,
  runCount: 0,
  formRevision: 0,
  setSettings: (patch) => set((s) => ({ settings: { ...s.settings, ...patch } })),
  prefillTrader(protocol, account) {
    set((s) => ({
      settings: { ...s.settings, protocol, accounts: [account] },
      formRevision: s.formRevision + 1,
    }));
  },
  prefillSettings(settings) {
    set((s) => ({ settings, formRevision: s.formRevision + 1 }));
  },
  setTab: (tab) => set({ tab }),
  selectAccount: (runId, account) =>
    set((s) => ({ runs: s.runs.map((r) => (r.id === runId ? { ...r, account } : r)) })),

  async run(settings = get().settings) {
    if (get().running) return;
    set({ running: true });
    try {
      const results = await call('backtest:run', {
        protocol: settings.protocol,
        body: settingsToBody(settings),
      });
      const n = get().runCount + 1;
      const run: BacktestRun = {
        id: `run-${n}`,
        label: `Run ${n}`,
        settings,
        settingsText: describeSettings(settings),
        results,
        account: results[0]?.account ?? '',
      };
      set((s) => ({ runs: [...s.runs, run].slice(-MAX_RUNS), runCount: n, tab: run.id }));
    } catch (error) {
      if (!failureOf(error)) throw error;
    } finally {
      set({ running: false });
    }
  },
  closeRun(id) {
    set((s) => {
      const runs = s.runs.filter((r) => r.id !== id);
      return { runs, tab: s.tab === id ? (runs.at(-1)?.id ?? 'compare') : s.tab };
    });
  },

  async startSweep(axes, rankBy) {
    if (get().sweep?.status === 'running') return;
    const settings = get().settings;
    const runId = `sweep-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    set({
      tab: 'sweep',
      sweep: { runId, status: 'running', done: 0, total: 0, settings, axes, rankBy, answer: null },
    });
    const stop = subscribe('backtest:progress', (p) => {
      const sweep = get().sweep;
      if (p.runId === sweep?.runId) set({ sweep: { ...sweep, done: p.done, total: p.total } });
    });
    try {
      const answer = await call('backtest:sweep', {
        protocol: settings.protocol,
        runId,
        body: sweepBody(settings, axes, rankBy),
      });
      const sweep = get().sweep;
      if (sweep?.runId === runId)
        set({ sweep: { ...sweep, answer, status: answer.cancelled ? 'cancelled' : 'done' } });
    } catch (error) {
      if (!failureOf(error)) throw error;
      const sweep = get().sweep;
      if (sweep?.runId === runId) set({ sweep: { ...sweep, status: 'failed' } });
    } finally {
      stop();
    }
  },
  async cancelSweep() {
    const sweep = get().sweep;
    if (sweep?.status !== 'running') return;
    await call('backtest:cancel', { runId: sweep.runId }).catch((error: unknown) => {
      if (!failureOf(error)) throw error;
    });
  },
  async openSweepItem(item) {
    const sweep = get().sweep;
    if (!sweep) return;
    await get().run(settingsOfItem(sweep.settings, item));
  },
  copyWith(settings) {
    const values = settingsToCopyForm(settings);
    useCopyPrefill.getState().set({ account: values.account, protocol: values.protocol, values });
    useNavigation.getState().go('copy');
  },
}));
