import type { IndexGeneration, Population } from '../../../shared/statistics-index';
import type { StatisticsIndex } from './statistics-index';

/**
 * The fields a leaderboard sorts and filters by, warmed first: the terminal's leaderboard's
 * default columns (each a sort one click away; `pnl` descending is its default sort) and the
 * filters of its presets. Kept in step with `DEFAULT_COLUMNS` in the renderer's leaderboard store
 * and its filter presets (docs/statistics.md, "Warming up").
 */
export const LEADERBOARD_FIELDS: readonly string[] = [
  'pnl',
  'winRate',
  'totalTrade',
  'realisedAvgRoi',
  'realisedMaxDrawdown',
  'totalVolume',
  'ranking.pnl',
  'realisedProfitLossRatio',
  'avgLeverage',
  'avgDuration',
];

/**
 * Share of the column budget the warm-up may fill: the rest is left to what queries name, so
 * that warming never makes the budget release a part a query made.
 */
export const WARM_BUDGET_SHARE = 0.75;

/** What a warm-up did so far. */
export interface WarmUpReport {
  /** Columns and permutations made (one field of one population each). */
  made: number;
  /** Milliseconds of CPU its steps took (not the requests served between them). */
  cpuMs: number;
  /** Whether the leaderboard's fields are warm in every population (or the budget's share full). */
  leaderboardWarm: boolean;
  /**
   * Why it ended: `budget` (its share of the column budget filled), `stopped`, or `failed` (a step
   * threw: the warm-up is an optimisation, so it ends and the service goes on); null while running.
   */
  end: 'budget' | 'stopped' | 'failed' | null;
  /** The error a failed step threw. */
  error?: string;
}

/** A warm-up running in the background. */
export interface WarmUp {
  /** Resolves once the leaderboard's fields are warm (or it ended before). */
  readonly leaderboardWarm: Promise<WarmUpReport>;
  /** Resolves when it ends: stopped, or its share of the budget filled. */
  readonly ended: Promise<WarmUpReport>;
  readonly report: WarmUpReport;
  /** Stops at the next step (the service closes). */
  stop(): void;
}

export interface WarmUpOptions {
  /** Fields warmed first, in order (default LEADERBOARD_FIELDS). */
  fields?: readonly string[];
  /** Share of the column budget it may fill (default WARM_BUDGET_SHARE). */
  budgetShare?: number;
  /** Milliseconds between two looks at what queries named, once all is warm (default 1,000). */
  idleMs?: number;
}

/**
 * Makes, in the background, what a query's first use of a field would otherwise make inside a
 * request (docs/statistics.md, "Warming up"): the field's column, read from the population's
 * column file, and its sorted permutation, one field of one population a step (1–3 ms at 50,000
 * records), yielding to the event loop between steps so that requests are served meanwhile.
 * First the leaderboard's fields, field by field across every population; then, as long as it
 * runs, any field a query has made some population read from its column file, in every
 * population that does not hold it (clients that filter on a field in one window or protocol
 * filter on it in the others). It ends when the column budget is filled to its share (it never
 * makes the budget release what queries made) or when stopped, and always works on the current
 * generation: a population a change replaced is not warmed, its successor is.
 */
export function warmIndex(index: StatisticsIndex, options: WarmUpOptions = {}): WarmUp {
  const { fields = LEADERBOARD_FIELDS, budgetShare = WARM_BUDGET_SHARE, idleMs = 1000 } = options;
  const report: WarmUpReport = { made: 0, cpuMs: 0, leaderboardWarm: false, end: null };
  // What this warm-up made, by population: a part the budget released later is not made again
  // by it (the budget and the warm-up would otherwise take turns).
  const warmed = new WeakMap<Population, Set<string>>();
  const isWarm = (population: Population, field: string): boolean =>
    warmed.get(population)?.has(field) === true ||
    // A column a query had read from the file (held from the start: only what the warm-up made).
    (population.source?.fields.has(field) === true && population.heldNumbers.has(field));
  const full = () => index.budget.heldBytes >= index.budget.limitBytes * budgetShare;

  /** One step: `field` warmed in the first current population lacking it; false when none. */
  const step = (field: string): boolean => {
    const population = index
      .current()
      .all()
      .find((p) => p.kindOf(field) === 'number' && !isWarm(p, field));
    if (!population) return false;
    const cpu = process.cpuUsage();
    population.prepare([field]);
    population.ascending(field);
    const used = process.cpuUsage(cpu);
    report.cpuMs += (used.user + used.system) / 1000;
    report.made += 1;
    let set = warmed.get(population);
    if (!set) warmed.set(population, (set = new Set()));
    set.add(field);
    return true;
  };

  let stopped = false;
  let wake: (() => void) | null = null;
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = ms === 0 ? setImmediate(resolve) : setTimeout(resolve, ms).unref();
      wake = () => {
        if (ms === 0) clearImmediate(timer as NodeJS.Immediate);
        else clearTimeout(timer as NodeJS.Timeout);
        resolve();
      };
    });
  /** Warms `field` everywhere; false when the warm-up must end. */
  const warmEverywhere = async (field: string): Promise<boolean> => {
    for (;;) {
      if (stopped) return end('stopped');
      if (full()) return end('budget');
      if (!step(field)) return true;
      await wait(0);
    }
  };
  const end = (why: 'budget' | 'stopped'): false => {
    report.end = why;
    return false;
  };

  let leaderboardDone: (r: WarmUpReport) => void = () => undefined;
  const leaderboardWarm = new Promise<WarmUpReport>((resolve) => (leaderboardDone = resolve));
  const run = async (): Promise<WarmUpReport> => {
    await wait(0);
    try {
      for (const field of fields) if (!(await warmEverywhere(field))) return report;
      report.leaderboardWarm = true;
      leaderboardDone(report);
      for (;;) {
        for (const field of namedFields(index.current())) {
          if (!(await warmEverywhere(field))) return report;
        }
        await wait(idleMs);
        if (stopped) return end('stopped') || report;
      }
    } catch (error) {
      // Never a rejection nobody awaits (it would stop the process): the queries make what a
      // failed warm-up did not.
      report.end = 'failed';
      report.error = error instanceof Error ? error.message : String(error);
      return report;
    } finally {
      leaderboardDone(report);
    }
  };
  return {
    leaderboardWarm,
    ended: run(),
    report,
    stop: () => {
      stopped = true;
      wake?.();
    },
  };
}

/** Fields some population has read from its column file: a query named them there. */
function namedFields(generation: IndexGeneration): string[] {
  const named = new Set<string>();
  for (const p of generation.all()) {
    for (const field of p.heldNumbers.keys()) if (p.source?.fields.has(field)) named.add(field);
  }
  return [...named];
}
