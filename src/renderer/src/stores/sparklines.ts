import { create } from 'zustand';
import type { Window } from '@shared/api/common';
import { PNL_STATISTICS_ACCOUNTS_MAX } from '@shared/api/statistics';
import { invoke } from '@renderer/ipc/call';
import { cumulativePnl, sparklineShape, type SparklineShape } from '@renderer/statistics/pnl-series';

/** A sparkline's box in pixels. */
export const SPARK_WIDTH = 76;
export const SPARK_HEIGHT = 20;
// Rows flying past during a fast scroll are mounted for a frame or two: wait for the scroll to
// settle before asking, and ask only for the rows still on screen.
const FLUSH_DELAY_MS = 120;
// The cache of shapes is bounded: a long session scrolling 10,000 rows keeps the latest ones.
const MAX_ENTRIES = 4000;

/** A sparkline's key: one trader of one protocol over one window. */
export const sparkKey = (protocol: string, account: string, window: Window): string =>
  `${window}|${protocol}|${account}`;

interface SparklinesStore {
  /** Shapes by key; null = the service has no series for it. */
  shapes: Record<string, SparklineShape | null>;
}

/** Daily-PnL sparklines of the leaderboard rows in view, fetched in batches. */
export const useSparklines = create<SparklinesStore>()(() => ({ shapes: {} }));

const mounted = new Map<string, number>();
const pending = new Set<string>();
const inflight = new Set<string>();
let timer: number | undefined;

function flush(): void {
  timer = undefined;
  // `statistics:pnl` sums an account's series over the protocols of one call, so each call
  // asks for one protocol (and one window) only.
  const groups = new Map<string, { window: Window; protocol: string; accounts: string[] }>();
  for (const key of pending) {
    if ((mounted.get(key) ?? 0) === 0) continue;
    const [window, protocol, account] = key.split('|') as [Window, string, string];
    const group = groups.get(`${window}|${protocol}`) ?? { window, protocol, accounts: [] };
    group.accounts.push(account);
    groups.set(`${window}|${protocol}`, group);
  }
  pending.clear();
  for (const { window, protocol, accounts } of groups.values()) {
    for (let i = 0; i < accounts.length; i += PNL_STATISTICS_ACCOUNTS_MAX) {
      void fetchBatch(window, protocol, accounts.slice(i, i + PNL_STATISTICS_ACCOUNTS_MAX));
    }
  }
}

async function fetchBatch(window: Window, protocol: string, accounts: string[]): Promise<void> {
  const keys = accounts.map((a) => sparkKey(protocol, a, window));
  for (const k of keys) inflight.add(k);
  // Quiet: a sparkline that cannot load stays blank; the table itself reports the failures.
  const result = await invoke('statistics:pnl', {
    accounts: accounts.map((account) => ({ account, protocol })),
    window,
  });
  for (const k of keys) inflight.delete(k);
  if (!result.ok) return;
  const series = result.value.data;
  const added: Record<string, SparklineShape | null> = {};
  accounts.forEach((account, i) => {
    added[keys[i]!] = sparklineShape(cumulativePnl(series[account]), SPARK_WIDTH, SPARK_HEIGHT);
  });
  const current = useSparklines.getState().shapes;
  const entries = Object.entries(current);
  const kept = entries.length > MAX_ENTRIES ? Object.fromEntries(entries.slice(-MAX_ENTRIES / 2)) : current;
  useSparklines.setState({ shapes: { ...kept, ...added } });
}

/** A sparkline cell came into view: fetch its series unless it is known or on its way. */
export function wantSparkline(key: string): void {
  mounted.set(key, (mounted.get(key) ?? 0) + 1);
  if (key in useSparklines.getState().shapes || inflight.has(key)) return;
  pending.add(key);
  window.clearTimeout(timer);
  timer = window.setTimeout(flush, FLUSH_DELAY_MS);
}

/** The cell left the view. */
export function releaseSparkline(key: string): void {
  const n = (mounted.get(key) ?? 1) - 1;
  if (n <= 0) mounted.delete(key);
  else mounted.set(key, n);
}
