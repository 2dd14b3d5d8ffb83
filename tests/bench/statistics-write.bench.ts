// npm run bench:statistics-write — the demo world's statistics recompute (5,000 traders) written
// both ways (docs/service.md, Listening while preparing):
//   one:     one transaction (every recompute but a first start's);
//   chunked: short transactions of ~100 ms (a first start's preparation, while logins are answered).
// The same positions each time (copied from one seeded file), the two ways alternating, 3 rounds.
// Prints wall and CPU seconds per recompute, the commits, and (chunked) the longest time between two
// commits after the first: how long a login waits at most for the lock. Goal: chunked costs at most 5 % more CPU than one. Last line: one JSON object.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedDemoWorld } from '../../src/service/market/simulator';
import { recomputeAll } from '../../src/service/statistics/compute/recompute';
import { openServiceDatabase } from '../../src/service/store/database';

const ROUNDS = 3;
const NOW_MS = Date.UTC(2026, 10, 21, 12);
const dir = mkdtempSync(join(tmpdir(), 'copydesk-statistics-write-'));
const base = join(dir, 'base.db');

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** One recompute on a fresh copy of the seeded file: wall ms, CPU ms, commits, longest hold. */
function recompute(way: 'one' | 'chunked', round: number) {
  const path = join(dir, `${way}-${round}.db`);
  copyFileSync(base, path);
  const db = openServiceDatabase(path);
  let commits = 1;
  let longestMs = 0;
  let since = -1;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const chunks =
    way === 'chunked'
      ? {
          chunkMs: 100,
          onCommit: () => {
            commits += 1;
            // The first transaction's start is not seen from here (the computing comes before it).
            if (since >= 0) longestMs = Math.max(longestMs, performance.now() - since);
            since = performance.now();
          },
        }
      : undefined;
  const { records } = recomputeAll(db, NOW_MS, chunks);
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  db.close();
  rmSync(path, { force: true });
  // The last transaction ends with the recompute.
  if (since >= 0) longestMs = Math.max(longestMs, performance.now() - since);
  return { records, ms, cpuMs: (used.user + used.system) / 1000, commits, longestMs };
}

try {
  const seedDb = openServiceDatabase(base);
  seedDemoWorld(seedDb, { seed: 42, nowMs: NOW_MS, skipStatistics: true });
  seedDb.close();
  const runs = { one: [] as ReturnType<typeof recompute>[], chunked: [] as ReturnType<typeof recompute>[] };
  for (let round = 0; round < ROUNDS; round += 1)
    for (const way of ['one', 'chunked'] as const) runs[way].push(recompute(way, round));
  const summary = (list: ReturnType<typeof recompute>[]) => ({
    records: list[0]!.records,
    wallS: median(list.map((r) => r.ms)) / 1000,
    cpuS: median(list.map((r) => r.cpuMs)) / 1000,
    commits: median(list.map((r) => r.commits)),
    longestGapMs: Math.max(...list.map((r) => r.longestMs)),
  });
  const one = summary(runs.one);
  const chunked = summary(runs.chunked);
  const cpuRatio = chunked.cpuS / one.cpuS;
  for (const [way, s] of [
    ['one transaction', one],
    ['chunked', chunked],
  ] as const)
    console.log(
      `${way}: ${s.records} records, median wall ${s.wallS.toFixed(2)} s, CPU ${s.cpuS.toFixed(2)} s (${((s.cpuS * 1e6) / s.records).toFixed(1)} µs per record), ${s.commits} commits${s.commits > 1 ? `, longest between commits ${s.longestGapMs.toFixed(0)} ms` : ''}`,
    );
  const goal = cpuRatio <= 1.05;
  console.log(`goal chunkedCpuRatio <= 1.05: ${cpuRatio.toFixed(3)} ${goal ? 'met' : 'NOT met'}`);
  console.log(JSON.stringify({ one, chunked, cpuRatio: Math.round(cpuRatio * 1000) / 1000, goal }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
