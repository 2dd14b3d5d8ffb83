// How much the service's memory grew over a soak. Every life is killed after a few seconds, so
// one process never grows for long; what can grow is what each start loads and keeps (caches,
// the books rebuilt from a database that fills up). So the RSS is read at the same uptime in every
// life, and the median of the lives in the last window is compared with the median of the lives
// in the window just after the first minute.

export interface RssSample {
  /** Milliseconds since the load began. */
  atMs: number;
  mib: number;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Growth in percent from the window after the warm-up to the last window, each a minute long (a
 * third of the run, for runs under three minutes); null with no sample in either window.
 */
export function rssGrowthPct(
  samples: readonly RssSample[],
  runMs: number,
): { pct: number | null; detail: string } {
  const window = Math.min(60_000, runMs / 3);
  const warmUp = Math.min(60_000, runMs / 3);
  const inRange = (from: number, to: number) =>
    samples.filter((s) => s.atMs >= from && s.atMs < to).map((s) => s.mib);
  const first = median(inRange(warmUp, warmUp + window));
  const last = median(inRange(runMs - window, runMs + 1));
  const range = `${(warmUp / 1000).toFixed(0)}–${((warmUp + window) / 1000).toFixed(0)} s vs the last ${(window / 1000).toFixed(0)} s`;
  if (first === null || last === null) return { pct: null, detail: `not enough lives to compare (${range})` };
  const pct = Math.round(((last - first) / first) * 1000) / 10;
  return { pct, detail: `median ${first.toFixed(1)} MiB (${range}) → ${last.toFixed(1)} MiB: ${pct} %` };
}
