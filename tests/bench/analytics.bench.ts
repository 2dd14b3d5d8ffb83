// npm run bench:analytics — the statistics engine against DuckDB, at 1M and 10M positions, and
// the incremental update. Prints what it measured; the last line is one JSON object (issue #4).
import { execFileSync } from 'node:child_process';
import type { MarkPriceOf } from '../../src/service/statistics/formulas/position-facts';
import { computeAllFromColumns, positionsOfRun, runEnd } from '../../src/service/statistics/compute/engine';
import { IncrementalStatistics } from '../../src/service/statistics/compute/incremental';
import type { PositionColumns } from '../../src/service/statistics/compute/position-columns';
import type { RecordToStore } from '../../src/service/statistics/store/writer';
import { compareRecords, duckdbStatistics, recordKey, type StatisticRecords } from './duckdb-statistics';
import { generatePositions } from './position-columns';
import { SeededRandom } from '../../src/service/fixture/random';

const NOW = Date.UTC(2026, 10, 21, 15, 30);
const SEED = 7;
const seconds = (from: number) => (performance.now() - from) / 1000;
const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Mark prices by token index, and the same as the engine's lookup by address. */
function marks(c: PositionColumns): { byIndex: number[]; of: MarkPriceOf } {
  const byIndex = c.tokens.map((_, t) => (10 + t * 100) * 1.01);
  const byAddress = new Map(c.tokens.map((address, t) => [address, byIndex[t] as number]));
  return { byIndex, of: (token) => byAddress.get(token) };
}

/** Our full recompute: every record and ranking. */
function runEngine(c: PositionColumns, mark: MarkPriceOf): { seconds: number; records: RecordToStore[] } {
  const records: RecordToStore[] = [];
  const start = performance.now();
  computeAllFromColumns(c, NOW, mark, (_p, ranked) => {
    for (const r of ranked) records.push(r);
  });
  return { seconds: seconds(start), records };
}

/** The 10M run, in a process of its own so that its peak memory is its own. */
function tenMillion(): { engineSeconds: number; peakRssMB: number; records: number } {
  const c = generatePositions(10_000_000, { seed: SEED, nowMs: NOW });
  let records = 0;
  const start = performance.now();
  // The records go to a sink that keeps nothing: a service would write them out per protocol.
  computeAllFromColumns(c, NOW, marks(c).of, (_p, ranked) => (records += ranked.length));
  const engineSeconds = seconds(start);
  return { engineSeconds, peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024), records };
}

/** Closes one position of `samples` random traders and times each incremental update. */
function incremental(
  c: PositionColumns,
  records: RecordToStore[],
  mark: MarkPriceOf,
  samples: number,
): number[] {
  const engine = new IncrementalStatistics();
  engine.load(records);
  const runs: [number, number][] = [];
  for (let a = 0; a < c.count;) {
    const end = runEnd(c.account, a, runEnd(c.protocol, a, c.count));
    runs.push([a, end]);
    a = end;
  }
  const random = new SeededRandom(99);
  const times: number[] = [];
  for (let s = 0; s < samples; s += 1) {
    const [start, end] = runs[random.int(0, runs.length - 1)] as [number, number];
    const row = start + random.int(0, end - start - 1);
    // The position closes now with a result; only this trader's records change.
    c.closeTimeMs[row] = NOW - 1_000;
    c.realisedPnl[row] = Math.round(random.between(-500, 500));
    const protocol = c.protocols[c.protocol[row] as number] as string;
    const account = c.accounts[c.account[row] as number] as string;
    const t = performance.now();
    engine.updateTrader(protocol, account, positionsOfRun(c, start, end), NOW, mark);
    times.push(performance.now() - t);
  }
  return times;
}

/** The 10M run in a child process, optionally with V8's old space capped (MB). */
function runTenMillion(heapMB: number | null): ReturnType<typeof tenMillion> {
  console.log(
    `10,000,000 positions, engine alone, in its own process${heapMB ? ` with --max-old-space-size=${heapMB}` : ''}…`,
  );
  const args = [
    ...(heapMB ? [`--max-old-space-size=${heapMB}`] : []),
    '--import',
    'tsx',
    'tests/bench/analytics.bench.ts',
    '--ten-million',
  ];
  const out = execFileSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out.trim().split('\n').at(-1) as string) as ReturnType<typeof tenMillion>;
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[
    Math.min(values.length - 1, Math.floor((p / 100) * values.length))
  ] as number;

/** DuckDB on the same positions, and the two results checked equal on a sample; its compute seconds. */
async function againstDuckdb(
  c: PositionColumns,
  records: RecordToStore[],
  markByIndex: number[],
): Promise<number> {
  const duck = await duckdbStatistics(c, NOW, markByIndex);
  console.log(
    `duckdb: ${duck.records.size} records and rankings in ${round(duck.seconds)} s (loading the positions took ${round(duck.loadSeconds)} s more)`,
  );
  const ours: StatisticRecords = new Map(
    records.map((r) => [recordKey(r.protocol, r.account, r.type), { values: r.values, ranking: r.ranking }]),
  );
  const check = compareRecords(ours, duck.records, Infinity);
  console.log(
    `results checked equal, field by field, on ${check.checked} records: ${check.mismatches.length} mismatches`,
  );
  for (const m of check.mismatches.slice(0, 5))
    console.log(`  mismatch ${m.key} ${m.field}: ours ${String(m.ours)} duckdb ${String(m.theirs)}`);
  if (check.mismatches.length > 0) process.exitCode = 1;

  return duck.seconds;
}

async function main(): Promise<void> {
  if (process.argv.includes('--ten-million')) return void console.log(JSON.stringify(tenMillion()));
  console.log('generating 1,000,000 positions…');
  const c = generatePositions(1_000_000, { seed: SEED, nowMs: NOW });
  const mark = marks(c);
  runEngine(c, mark.of); // warm the JIT, as DuckDB's compiled code is warm
  const engine = runEngine(c, mark.of);
  console.log(`engine: ${engine.records.length} records and rankings in ${round(engine.seconds)} s`);
  const duckdbSeconds = await againstDuckdb(c, engine.records, mark.byIndex);

  // The comparison's results are garbage now; collect them so that no pause of theirs lands
  // inside a timed update (run with --expose-gc, as npm run bench:analytics does).
  (globalThis as { gc?: () => void }).gc?.();
  const times = incremental(c, engine.records, mark.of, 5_000);
  const incrementalP99Ms = round(percentile(times, 99), 4);
  console.log(
    `incremental update per closed position at 1M: p50 ${round(percentile(times, 50), 4)} ms, p99 ${incrementalP99Ms} ms over ${times.length}`,
  );

  // The engine keeps one protocol's records at a time, but V8 sizes its heap to the machine and
  // lets the garbage of finished protocols pile up; capped at 1 GB it collects it instead.
  const ten = runTenMillion(1024);
  console.log(
    `engine at 10M (V8 heap capped at 1024 MB): ${ten.records} records in ${round(ten.engineSeconds)} s, peak RSS ${ten.peakRssMB} MB`,
  );
  const uncapped = runTenMillion(null);
  console.log(
    `engine at 10M (V8 heap uncapped, for comparison): ${round(uncapped.engineSeconds)} s, peak RSS ${uncapped.peakRssMB} MB`,
  );

  const result = {
    positions: 1_000_000,
    engineSeconds: round(engine.seconds),
    duckdbSeconds: round(duckdbSeconds),
    ratio: round(engine.seconds / duckdbSeconds),
    engineSeconds10M: round(ten.engineSeconds),
    peakRssMB10M: ten.peakRssMB,
    incrementalP99Ms,
    peakRssMB10MUncappedHeap: uncapped.peakRssMB,
  };
  console.log(`goal ratio ≤ 1.0: ${result.ratio} ${result.ratio <= 1 ? 'met' : 'NOT met'}`);
  console.log(
    `goal peakRssMB10M < 2048: ${result.peakRssMB10M} ${result.peakRssMB10M < 2048 ? 'met' : 'NOT met'}`,
  );
  console.log(
    `goal incrementalP99Ms < 1: ${result.incrementalP99Ms} ${result.incrementalP99Ms < 1 ? 'met' : 'NOT met'}`,
  );
  console.log(JSON.stringify(result));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
