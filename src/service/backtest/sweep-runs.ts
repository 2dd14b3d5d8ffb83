// The configurations of a sweep and the runs over them, the same on the main thread and in the
// sweep's worker thread (docs/backtest.md, `POST /{protocol}/back-testing/sweep`).
import {
  SWEEP_FIELDS,
  type BacktestRequest,
  type SweepItem,
  type SweepRank,
  type SweepRequest,
} from '../../shared/api/backtest';
import type { FilterSubject } from '../copy-engine/filters';
import { PriceSeries, type PriceSeriesData } from './price-series';
import { delayedMarks, type DelayedMarks, type PricePaths } from './delayed-marks';
import { simulate } from './simulate';
import { runSettingsOf, sweptOf, type SweptValues } from './settings';
import { summaryOf } from './summary';
import { TraderOrders, type OrderColumns, type TokenMeta } from './trader-orders';
import type { SweepPool } from './sweep-pool';

/** One account ready to run: its orders, its price paths, the OPENs its filters skip. */
export interface PreparedTrader {
  trader: TraderOrders;
  paths: PricePaths;
  mask: Uint8Array;
}

/** A prepared trader as plain data, for a worker thread. */
export interface PreparedData {
  account: string;
  protocol: string;
  columns: OrderColumns;
  tokens: readonly TokenMeta[];
  kind: PricePaths['kind'];
  series: PriceSeriesData[];
  mask: Uint8Array;
}

/** What a worker thread needs to run a share of a sweep. */
export interface SweepTask {
  body: SweepRequest;
  filters: FilterSubject;
  window: { fromTime: number; toTime: number };
  traders: PreparedData[];
  configs: SweptValues[];
  rankBy: SweepRank;
  /** The jobs to run: job j is config j % configs of trader ⌊j / configs⌋. */
  jobs: number[];
}

export const dataOf = (p: PreparedTrader): PreparedData => ({
  account: p.trader.account,
  protocol: p.trader.protocol,
  columns: p.trader.columns(),
  tokens: p.trader.tokens,
  kind: p.paths.kind,
  series: p.paths.series.map((s) => s.data()),
  mask: p.mask,
});

export function preparedOf(d: PreparedData): PreparedTrader {
  const trader = new TraderOrders(d.account, d.protocol, d.columns, d.tokens);
  return { trader, paths: { kind: d.kind, series: d.series.map((s) => PriceSeries.of(s)) }, mask: d.mask };
}

/** Every combination of the swept lists, in SWEEP_FIELDS order (the last field varies fastest). */
export function configurationsOf(body: SweepRequest): SweptValues[] {
  const base = sweptOf({ ...body, ...firstOf(body) } as BacktestRequest);
  let configs: SweptValues[] = [base];
  for (const field of SWEEP_FIELDS) {
    const values = body[field] as unknown[] | undefined;
    if (!values) continue;
    configs = configs.flatMap((c) => values.map((v) => ({ ...c, [field]: v })));
  }
  return configs;
}

function firstOf(body: SweepRequest): Record<string, unknown> {
  const first: Record<string, unknown> = {};
  for (const field of SWEEP_FIELDS) first[field] = (body[field] as unknown[] | undefined)?.[0];
  return first;
}

/** The ranked metric: ROI, or ROI per percent of max drawdown (a drawdown under 1 % counts as 1 %). */
export function scoreOf(rankBy: SweepRank, roi: number, maxDrawDown: number): number {
  return rankBy === 'roi' ? roi : roi / Math.max(1, Math.abs(maxDrawDown));
}

/**
 * Runs `jobs` of a sweep, answering in their order; items come back unranked (rank 0). They are
 * run grouped by trader and delay, so that one delay's marks are computed once and only one
 * group's are held at a time, however many delays the sweep lists.
 */
export function runJobs(
  traders: readonly PreparedTrader[],
  body: SweepRequest,
  filters: FilterSubject,
  window: { fromTime: number; toTime: number },
  configs: readonly SweptValues[],
  rankBy: SweepRank,
  jobs: readonly number[],
): SweepItem[] {
  const items = new Array<SweepItem>(jobs.length);
  const order = allJobs(jobs.length).sort((a, b) => compareJobs(jobs[a]!, jobs[b]!, configs));
  let group: { trader: number; delayMs: number; marks: DelayedMarks } | null = null;
  for (const n of order) {
    const j = jobs[n]!;
    const trader = Math.floor(j / configs.length);
    const p = traders[trader]!;
    const settings = configs[j % configs.length]!;
    const s = runSettingsOf(body, settings, filters, window);
    if (!group || group.trader !== trader || group.delayMs !== s.delayMs)
      group = {
        trader,
        delayMs: s.delayMs,
        marks: delayedMarks(p.trader, p.paths, s.delayMs, s.fromTime, s.toTime),
      };
    const run = simulate(p.trader, p.paths, s, p.mask, 'none', undefined, group.marks);
    const summary = summaryOf(p.trader.account, p.trader.protocol, s.balance, run.totals, p.paths.kind);
    items[n] = { ...summary, rank: 0, settings, score: scoreOf(rankBy, summary.roi, summary.maxDrawDown) };
  }
  return items;
}

/** Jobs 0 … count − 1 in order. */
export const allJobs = (count: number): number[] => Array.from({ length: count }, (_, j) => j);

/** Job order by trader, then delay, then job number. */
function compareJobs(a: number, b: number, configs: readonly SweptValues[]): number {
  const trader = Math.floor(a / configs.length) - Math.floor(b / configs.length);
  if (trader !== 0) return trader;
  const delay = configs[a % configs.length]!.delaySeconds - configs[b % configs.length]!.delaySeconds;
  return delay !== 0 ? delay : a - b;
}

/**
 * The jobs grouped by trader and then delay, so that a share of them meets as few delays as it
 * can: each delay's marks are computed once per thread that meets it.
 */
const byTraderAndDelay = (jobs: number, configs: readonly SweptValues[]): number[] =>
  allJobs(jobs).sort((a, b) => compareJobs(a, b, configs));

/** Orders × configurations from which a sweep runs in the worker threads. */
export const PARALLEL_WORK = 2_000_000;

/** What every job of a sweep shares. */
export interface SweepPlan {
  body: SweepRequest;
  filters: FilterSubject;
  window: { fromTime: number; toTime: number };
  configs: SweptValues[];
  rankBy: SweepRank;
}

/**
 * Every job of a sweep (each configuration for each trader), ranked best first; equal scores keep
 * the enumeration order. A large sweep is split between the worker threads (one per core), so that
 * it uses both cores and the service's thread stays free to answer other requests; a share whose
 * worker fails is run on this thread.
 */
export async function sweepJobs(
  pools: readonly SweepPool[],
  plan: SweepPlan,
  traders: PreparedTrader[],
): Promise<SweepItem[]> {
  const { body, filters, window, configs, rankBy } = plan;
  const jobs = traders.length * configs.length;
  const orders = traders.reduce((n, p) => n + p.trader.n, 0) / Math.max(1, traders.length);
  let items: SweepItem[];
  if (pools.length > 0 && jobs > 1 && jobs * orders >= PARALLEL_WORK) {
    const data = traders.map(dataOf);
    const grouped = byTraderAndDelay(jobs, configs);
    const shares = pools.map((pool, k) => {
      const share = grouped.slice(
        Math.floor((jobs * k) / pools.length),
        Math.floor((jobs * (k + 1)) / pools.length),
      );
      return pool
        .run({ ...plan, traders: data, jobs: share })
        .catch(() => runJobs(traders, body, filters, window, configs, rankBy, share))
        .then((answers) => ({ share, answers }));
    });
    // Back in job order, which breaks ties between equal scores.
    items = new Array<SweepItem>(jobs);
    for (const { share, answers } of await Promise.all(shares))
      share.forEach((j, n) => (items[j] = answers[n]!));
  } else items = runJobs(traders, body, filters, window, configs, rankBy, allJobs(jobs));
  const order = items
    .map((item, j) => ({ item, j }))
    .sort((a, b) => b.item.score - a.item.score || a.j - b.j);
  return order.map(({ item }, i) => ({ ...item, rank: i + 1 }));
}
