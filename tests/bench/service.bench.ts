// npm run bench:service — serving speed of the local service on 200,000 statistic records.
// Prints what it measured; its last line is one JSON object (issue #3). Not part of npm test.
// Issue #19 adds: new random queries every request (REST and GraphQL) at 200,000 records, the
// same REST load and the statistics index's memory at 2,000,000, and a mixed load on the moving
// demo world. BENCH_MIXED_S shortens the mixed load (default 120 s, the issue's 2 minutes);
// BENCH_RECORDS_2M changes the large store's size; BENCH_ONLY=mixed runs the mixed load alone.
// Every load prints the service's CPU per request.
import autocannon from 'autocannon';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createApiKey } from '../../src/service/auth/api-keys';
import { openServiceDatabase } from '../../src/service/store/database';
import { filterStatistics } from '../../src/service/statistics/queries/statistic-filters';
import { statisticsIndexOf } from '../../src/service/statistics/index/statistics-index';
import { warmIndex } from '../../src/service/statistics/index/warm-up';
import { statisticFields } from '../../src/service/store/fields';
import { RANKING_KEYS } from '../../src/shared/api/statistics';
import { seedDemoWorld } from '../../src/service/market/simulator';
import { knownProtocols } from '../../src/service/market/catalogue';
import { SeededRandom } from '../../src/service/fixture/random';
import { startService, untilSettled, type BenchService } from './bench-process';
import { printProfileSummary, type ProfileWindow } from './cpu-profile-summary';
import { writeSyntheticStatistics } from './service-world';
import {
  mixedRequests,
  quantilesOf,
  randomGraphqlBody,
  randomRestBody,
  type Quantiles,
} from './random-statistic-queries';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';

const RECORDS = 200_000;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const MIXED_DURATION_S = Number(process.env.BENCH_MIXED_S ?? 120);
const RECORDS_2M = Number(process.env.BENCH_RECORDS_2M ?? 2_000_000);
// The 2M part's in-process queries: BENCH_ALL_FIELDS=1 sorts and bounds by every numeric field of
// every population in turn (the workload the column budget bounds); BENCH_COLUMN_BUDGET_MB sets
// the budget of that index (default COLUMN_BUDGET_BYTES; scale it to the records tried).
const ALL_FIELDS = process.env.BENCH_ALL_FIELDS === '1';
const COLUMN_BUDGET_MB = process.env.BENCH_COLUMN_BUDGET_MB;
// The 2M part's store and service (issue #19, REST misses at 2,000,000 records):
// BENCH_2M_DB=<file> keeps the store there and reuses it when present (writing it takes ~15 min),
// read once end to end first so that the OS cache holds it as after writing it;
// BENCH_2M_PROFILE=<dir> runs the service under `node --cpu-prof` and prints its top functions per
// load; BENCH_2M_LOADS=<n> runs the measured load n times in a row on the same service;
// BENCH_2M_MEMORY=0 skips the in-process index and its memory (indexMB2M then not measured).
const KEPT_2M_DB = process.env.BENCH_2M_DB;
const PROFILE_2M = process.env.BENCH_2M_PROFILE;
const LOADS_2M = Number(process.env.BENCH_2M_LOADS ?? 1);
const MEMORY_2M = process.env.BENCH_2M_MEMORY !== '0';
/** Seconds in a slice of the 2M load: its CPU per request is printed slice by slice. */
const SLICE_S = 2;
const CONNECTIONS = 10;
const MIXED_CONNECTIONS = 16;
const PROTOCOL = 'NOVA_ARB';
const RANGES = [
  { fieldName: 'winRate', gte: 40 },
  { fieldName: 'totalTrade', gte: 20 },
  { fieldName: 'ranking.pnl', gte: 30 },
];
const FILTER = {
  queries: [{ fieldName: 'type', value: 'FULL' }],
  ranges: RANGES,
  sortBy: 'pnl',
  sortType: 'desc',
  pagination: { limit: 20, offset: 0 },
};
const GRAPHQL = {
  operationName: 'Search',
  query: `query Search($index: String!, $body: SearchPayload!) {
    searchPositionStatistic(index: $index, body: $body) { data { id account pnl winRate totalTrade } meta { total limit offset totalPages } }
  }`,
  variables: {
    index: 'local.position_statistics',
    body: {
      filter: {
        and: [
          { field: 'protocol', match: PROTOCOL },
          { field: 'type', match: 'FULL' },
          { field: 'winRate', gte: 40 },
          { field: 'totalTrade', gte: 20 },
          { field: 'ranking.pnl', gte: 30 },
        ],
      },
      sorts: [{ field: 'pnl', direction: 'desc' }],
      paging: { size: 20, from: 0 },
    },
  },
};

async function main(): Promise<void> {
  // BENCH_ONLY=mixed runs the mixed load alone (its full 2 minutes without the rest's half hour).
  if (process.env.BENCH_ONLY === 'mixed') {
    console.log(JSON.stringify(await mixedLoad()));
    return;
  }
  // BENCH_ONLY=2m runs the large store alone: its load and the index's memory (BENCH_ONLY=200k
  // runs the loads at 200,000 records alone).
  if (process.env.BENCH_ONLY === '2m') {
    console.log(JSON.stringify(await largeStore()));
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'copydesk-bench-'));
  const dbPath = join(dir, 'service.db');
  console.log(`writing ${RECORDS} statistic records…`);
  const db = openServiceDatabase(dbPath);
  writeSyntheticStatistics(db, RECORDS, Date.now());
  const apiKey = createApiKey(db, new Date());
  const sqlOnlyRps = sqlLoop(db);
  const quantiles = quantilesOf(db);
  db.close();
  const service = await startService(dbPath);
  const { url, stop } = service;
  let result: Record<string, number>;
  try {
    const headers = { 'content-type': 'application/json', 'x-api-key': apiKey };
    const filter = await load('public statistic filter, 3 ranges + sort', {
      url: `${url}/public/${PROTOCOL}/position/statistic/filter`,
      method: 'POST',
      headers,
      body: JSON.stringify(FILTER),
    });
    const filterMiss = await loadMisses(url, headers);
    const miss = await load(
      'public statistic filter, a new random body every request (window, ranges, sort, offset)',
      restMisses(url, headers, quantiles, 1),
      { service },
    );
    await expectAnswer(
      `${url}/graphql`,
      headers,
      GRAPHQL,
      (body) => (body.data?.searchPositionStatistic?.data?.length ?? 0) > 0,
    );
    await expectAnswer(
      `${url}/public/${PROTOCOL}/position/statistic/filter`,
      headers,
      FILTER,
      (body) => (body.data?.length ?? 0) > 0,
    );
    const graphql = await load('GraphQL searchPositionStatistic, same filter', {
      url: `${url}/graphql`,
      method: 'POST',
      headers,
      body: JSON.stringify(GRAPHQL),
    });
    const graphqlMiss = await load(
      'GraphQL searchPositionStatistic, new random variables every request',
      graphqlMisses(url, headers, quantiles, 2),
      { service },
    );
    const ceiling = await load('constant route (GET /health)', {
      url: `${url}/health`,
      method: 'GET',
      headers: {},
    });
    const measured = {
      records: RECORDS,
      filterRps: filter.rps,
      filterP50Ms: filter.p50,
      filterP99Ms: filter.p99,
      graphqlRps: graphql.rps,
      graphqlP99Ms: graphql.p99,
      ceilingRps: ceiling.rps,
      sqlOnlyRps,
      // Not asked for, printed for honesty: the same filter when every request is a new query.
      filterMissRps: filterMiss.rps,
      filterMissP99Ms: filterMiss.p99,
      missRps: miss.rps,
      missP99Ms: miss.p99,
      missCpuMsPerRequest: miss.cpuMsPerRequest,
      graphqlMissRps: graphqlMiss.rps,
      graphqlMissP99Ms: graphqlMiss.p99,
      graphqlMissCpuMsPerRequest: graphqlMiss.cpuMsPerRequest,
    };
    result = measured;
    const ratio = measured.ceilingRps / measured.filterRps;
    console.log(`goal ceilingRps / filterRps ≤ 3: ${ratio.toFixed(2)} ${ratio <= 3 ? 'met' : 'NOT met'}`);
    console.log(
      `goal filterP99Ms < 20: ${measured.filterP99Ms} ${measured.filterP99Ms < 20 ? 'met' : 'NOT met'}`,
    );
    // The two goals are met on one body sent over and over, answered from the service's cache:
    // say so next to them, with the figures of the same filter when every request is a new query.
    console.log(
      `the goals above are on cached answers; every request a new query: ${measured.filterMissRps} req/s, ` +
        `p99 ${measured.filterMissP99Ms} ms`,
    );
  } finally {
    await stop();
    rmSync(dir, { recursive: true, force: true });
  }
  // BENCH_ONLY=200k stops here: the loads at 200,000 records alone.
  if (process.env.BENCH_ONLY !== '200k') Object.assign(result, await largeStore(), await mixedLoad());
  reportGoals(result);
  console.log(JSON.stringify(result));
}

/** Prints each goal of issue #19 with its figure, met or not. */
function reportGoals(r: Record<string, number>): void {
  const goal = (name: string, value: number | undefined, ok: boolean) =>
    console.log(
      value === undefined || Number.isNaN(value)
        ? `goal ${name}: not measured in this run`
        : `goal ${name}: ${Math.round(value * 100) / 100} ${ok ? 'met' : 'NOT met'}`,
    );
  goal('ceilingRps / missRps ≤ 4', r.ceilingRps! / r.missRps!, r.ceilingRps! / r.missRps! <= 4);
  goal('missP99Ms < 10', r.missP99Ms!, r.missP99Ms! < 10);
  goal(
    'ceilingRps / graphqlMissRps ≤ 6',
    r.ceilingRps! / r.graphqlMissRps!,
    r.ceilingRps! / r.graphqlMissRps! <= 6,
  );
  goal('graphqlMissP99Ms < 20', r.graphqlMissP99Ms!, r.graphqlMissP99Ms! < 20);
  goal('missP99Ms2M < 50', r.missP99Ms2M!, r.missP99Ms2M! < 50);
  goal('indexMB2M < 400', r.indexMB2M!, r.indexMB2M! < 400);
  goal('mixedRps ≥ 1000', r.mixedRps!, r.mixedRps! >= 1000);
  goal('mixedP99Ms < 50', r.mixedP99Ms!, r.mixedP99Ms! < 50);
  goal('mixedErrors = 0', r.mixedErrors!, r.mixedErrors === 0);
}

/** The 2M part's store: written into a temporary folder, or kept at BENCH_2M_DB and reused. */
function largeStoreFile(): { dbPath: string; apiKey: string; quantiles: Quantiles; cleanUp: () => void } {
  const dir = KEPT_2M_DB ? null : mkdtempSync(join(tmpdir(), 'copydesk-bench-2m-'));
  const dbPath = KEPT_2M_DB ? resolve(KEPT_2M_DB) : join(dir!, 'service.db');
  const keyFile = `${dbPath}.api-key`;
  const fresh = !existsSync(dbPath) || !existsSync(keyFile);
  if (fresh) rmSync(dbPath, { force: true });
  const db = openServiceDatabase(dbPath);
  if (fresh) {
    console.log(`writing ${RECORDS_2M} statistic records${KEPT_2M_DB ? ` into ${dbPath}` : ''}…`);
    writeSyntheticStatistics(db, RECORDS_2M, Date.now());
    writeFileSync(keyFile, createApiKey(db, new Date()), { mode: 0o600 });
  } else {
    const records = db.prepare('SELECT COUNT(*) FROM statistics WHERE gen_to IS NULL').pluck().get();
    console.log(`reusing the store at ${dbPath} (${String(records)} records)`);
    readIntoOsCache(dbPath);
  }
  // The quantiles read the whole store (17 scans): kept next to a kept store.
  const quantilesFile = `${dbPath}.quantiles.json`;
  const quantiles =
    KEPT_2M_DB && !fresh && existsSync(quantilesFile)
      ? (JSON.parse(readFileSync(quantilesFile, 'utf8')) as Quantiles)
      : quantilesOf(db);
  if (KEPT_2M_DB) writeFileSync(quantilesFile, JSON.stringify(quantiles));
  db.close();
  return {
    dbPath,
    apiKey: readFileSync(keyFile, 'utf8'),
    quantiles,
    cleanUp: () => dir && rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Reads a kept store once, end to end, so that the OS cache holds it as it holds a store the bench
 * has just written: a kept store that other work had half evicted measured p99 487 ms and 4.4 ms
 * of CPU a request against 38 ms and 1.5 ms read back first (docs/statistics.md, Figures), which
 * measures the disk, not the service. Printed, so that a run says what it did.
 */
function readIntoOsCache(path: string): void {
  const started = performance.now();
  const chunk = Buffer.allocUnsafe(8 * 1024 * 1024);
  const fd = openSync(path, 'r');
  let bytes = 0;
  try {
    for (let read = 1; read > 0; bytes += read) read = readSync(fd, chunk, 0, chunk.length, bytes);
  } finally {
    closeSync(fd);
  }
  const s = (performance.now() - started) / 1000;
  console.log(
    `read the kept store into the OS cache: ${(bytes / 1024 ** 3).toFixed(1)} GB in ${s.toFixed(1)} s`,
  );
}

/**
 * The REST load of new random bodies on RECORDS_2M records, and the index's memory there (in
 * this process, indexMemory). The load runs against the service as its own process, sliced
 * every SLICE_S seconds (CPU per request in each slice), LOADS_2M times in a row.
 */
async function largeStore(): Promise<Record<string, number>> {
  const { dbPath, apiKey, quantiles, cleanUp } = largeStoreFile();
  try {
    const indexMB = MEMORY_2M ? await indexMemory(dbPath, quantiles) : NaN;
    const profileDir = PROFILE_2M ? resolve(PROFILE_2M) : null;
    if (profileDir) mkdirSync(profileDir, { recursive: true });
    const service = await startService(
      dbPath,
      [],
      profileDir ? { nodeArgs: ['--cpu-prof', '--cpu-prof-dir', profileDir] } : {},
    );
    const windows: ProfileWindow[] = [];
    const loads: Awaited<ReturnType<typeof load>>[] = [];
    try {
      // What the service does after listening (its statistics index's warm-up, warm-up.ts) is
      // left to end before the load, as a deployment has done by the time traffic comes.
      const settled = await untilSettled(service);
      console.log(
        `the service settled ${(settled.waitedMs / 1000).toFixed(1)} s after listening, ` +
          `${Math.round(settled.cpuMs)} ms of CPU meanwhile (its statistics index's warm-up)`,
      );
      const headers = { 'content-type': 'application/json', 'x-api-key': apiKey };
      for (let run = 1; run <= LOADS_2M; run += 1) {
        const label = `public statistic filter at ${RECORDS_2M} records, a new random body every request`;
        const fromS = service.sinceStartS();
        loads.push(
          await load(
            LOADS_2M > 1 ? `${label} (load ${run} of ${LOADS_2M} on one service)` : label,
            restMisses(service.url, headers, quantiles, 4 + 10 * (run - 1)),
            { service, sliceS: SLICE_S },
          ),
        );
        windows.push({ label: `2M load ${run}`, fromS, toS: service.sinceStartS() });
      }
    } finally {
      await service.stop();
    }
    if (profileDir) {
      const file = readdirSync(profileDir).find((n) => n.includes(`.${service.pid}.`));
      if (file) printProfileSummary(join(profileDir, file), 40, windows);
      else console.log(`no CPU profile of process ${service.pid} in ${profileDir}`);
    }
    const miss = loads[0]!;
    return {
      missRps2M: miss.rps,
      missP99Ms2M: miss.p99,
      missCpuMsPerRequest2M: miss.cpuMsPerRequest,
      indexMB2M: Math.round(indexMB),
    };
  } finally {
    cleanUp();
  }
}

/**
 * The index's memory at RECORDS_2M records: built in this process from the store and measured as
 * the heap and typed-array bytes it added (after a garbage collection), once warmed as the
 * service warms it and once a run of random queries has made the columns and permutations they use.
 */
async function indexMemory(dbPath: string, quantiles: Quantiles): Promise<number> {
  const db = openServiceDatabase(dbPath);
  const before = heapBytes();
  const { budget } = statisticsIndexOf(db);
  if (COLUMN_BUDGET_MB !== undefined) budget.limitBytes = Number(COLUMN_BUDGET_MB) * 1024 * 1024;
  const built = performance.now();
  const index = statisticsIndexOf(db).reloadAll();
  const buildMs = performance.now() - built;
  // The warm-up the service runs after building its index (warm-up.ts), here to its end, so that
  // the memory measured is what a service holds once warmed and has served these queries.
  const warming = warmIndex(statisticsIndexOf(db));
  const warmed = await warming.leaderboardWarm;
  warming.stop();
  console.log(
    `the index's warm-up (leaderboard fields${warmed.end === 'budget' ? ', stopped at its share of the budget' : ''}): ` +
      `${warmed.made} columns and permutations made, ${Math.round(warmed.cpuMs)} ms of CPU, ` +
      `${Math.round(budget.heldBytes / 1024 / 1024)} MB held under the column budget`,
  );
  const random = new SeededRandom(3);
  const protocols = knownProtocols();
  const fields = [...allNumberFields(), ...RANKING_KEYS.map((k) => `ranking.${k}`)];
  const queries = ALL_FIELDS ? protocols.length * fields.length : 300;
  const cpu = process.cpuUsage();
  for (let i = 0; i < queries; i += 1) {
    const body = JSON.parse(randomRestBody(random, quantiles)) as {
      queries: { value: string }[];
      ranges: { fieldName: string; gte?: number; lte?: number }[];
      sortBy: string;
      sortType: 'asc' | 'desc';
      pagination: { limit: number; offset: number };
    };
    const ranges = body.ranges.map(({ fieldName, ...b }) => ({ field: fieldName, ...b }));
    // Every field of every window of one protocol, in turn: a sort by it (its column and order).
    const field = fields[Math.floor(i / protocols.length) % fields.length]!;
    filterStatistics(db, {
      protocol: ALL_FIELDS ? protocols[i % protocols.length]! : random.pick(protocols),
      conditions: ALL_FIELDS
        ? [{ from: 'ranges', list: ranges }]
        : [
            { from: 'queries', list: [{ field: 'type', match: body.queries[0]!.value }] },
            { from: 'ranges', list: ranges },
          ],
      sort: { field: ALL_FIELDS ? field : body.sortBy, direction: body.sortType },
      ...body.pagination,
      withRanking: true,
    });
  }
  const { user, system } = process.cpuUsage(cpu);
  console.log(
    `${queries} in-process queries${ALL_FIELDS ? ` naming all ${fields.length} numeric fields` : ''}: ` +
      `${((user + system) / 1000 / queries).toFixed(2)} ms of CPU a query (first uses included); ` +
      `column budget ${Math.round(budget.limitBytes / 1024 / 1024)} MB, ${Math.round(budget.heldBytes / 1024 / 1024)} MB held, ` +
      `${budget.released} parts released`,
  );
  const indexMB = (heapBytes() - before) / 1024 / 1024;
  console.log(
    `index at ${RECORDS_2M} records: built in ${Math.round(buildMs)} ms, ${Math.round(indexMB)} MB measured ` +
      `(its own count: ${Math.round(index.bytes() / 1024 / 1024)} MB)`,
  );
  const perRecord = Object.entries(index.bytesByKind())
    .map(([kind, bytes]) => `${kind} ${(bytes / index.size).toFixed(1)}`)
    .join(', ');
  console.log(
    `bytes a record by what holds them (its own count): ${perRecord}; measured ${((indexMB * 1024 * 1024) / index.size).toFixed(1)}`,
  );
  const fileBytes = statisticsIndexOf(db).columnFileBytes();
  console.log(
    `column files on disk (every column a population does not hold from the start): ${Math.round(fileBytes / 1024 / 1024)} MB ` +
      `(${(fileBytes / index.size).toFixed(1)} bytes a record)`,
  );
  db.close();
  return indexMB;
}

/**
 * The load a busy deployment sees: the demo world with its market moving, MIXED_CONNECTIONS
 * clients, 80 % REST filters and 20 % GraphQL searches, every one a new random query. Errors
 * are counted, not fatal: they are one of the figures.
 */
async function mixedLoad(): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'copydesk-bench-mixed-'));
  const dbPath = join(dir, 'service.db');
  try {
    console.log('seeding the demo world…');
    const db = openServiceDatabase(dbPath);
    seedDemoWorld(db, { seed: 42, nowMs: Date.now() });
    const apiKey = createApiKey(db, new Date());
    const quantiles = quantilesOf(db);
    const records = db
      .prepare('SELECT COUNT(*) FROM statistics WHERE gen_to IS NULL')
      .pluck()
      .get() as number;
    db.close();
    const service = await startService(dbPath, ['--live']);
    try {
      const headers = { 'content-type': 'application/json', 'x-api-key': apiKey };
      const target = {
        url: service.url,
        method: 'POST' as const,
        headers,
        requests: mixedRequests(quantiles, knownProtocols(), 0.8, 5),
      };
      const mixed = await load(
        `mixed: demo world (${records} records) moving, ${MIXED_CONNECTIONS} clients, 80 % REST / 20 % GraphQL, random`,
        target,
        { service, connections: MIXED_CONNECTIONS, duration: MIXED_DURATION_S, failOnErrors: false },
      );
      return {
        mixedRps: mixed.rps,
        mixedP50Ms: mixed.p50,
        mixedP99Ms: mixed.p99,
        mixedErrors: mixed.failures,
        mixedCpuMsPerRequest: mixed.cpuMsPerRequest,
      };
    } finally {
      await service.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Heap and typed-array bytes in use after a full garbage collection. */
function heapBytes(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** The public filter of a random protocol with a new random body on every request. */
function restMisses(url: string, headers: Record<string, string>, q: Quantiles, seed: number) {
  const random = new SeededRandom(seed);
  const protocols = knownProtocols();
  return {
    url,
    method: 'POST' as const,
    headers,
    requests: [
      {
        setupRequest: (req: autocannon.Request) => ({
          ...req,
          path: `/public/${random.pick(protocols)}/position/statistic/filter`,
          body: randomRestBody(random, q),
        }),
      },
    ],
  };
}

/** GraphQL searchPositionStatistic with new random variables on every request. */
function graphqlMisses(url: string, headers: Record<string, string>, q: Quantiles, seed: number) {
  const random = new SeededRandom(seed);
  const protocols = knownProtocols();
  return {
    url: `${url}/graphql`,
    method: 'POST' as const,
    headers,
    requests: [
      {
        setupRequest: (req: autocannon.Request) => ({
          ...req,
          body: randomGraphqlBody(random, q, protocols),
        }),
      },
    ],
  };
}

/**
 * The same query the filter endpoint runs, in this process with no HTTP: the floor of the work.
 * (The key keeps its name, sqlOnlyRps; since issue #19 the query runs through the statistics
 * index, then reads the page's stored JSON from SQLite.)
 */
function sqlLoop(db: ReturnType<typeof openServiceDatabase>): number {
  const run = () =>
    filterStatistics(db, {
      protocol: PROTOCOL,
      conditions: [
        { from: 'queries', list: [{ field: 'type', match: 'FULL' }] },
        { from: 'ranges', list: RANGES.map(({ fieldName, ...b }) => ({ field: fieldName, ...b })) },
      ],
      sort: { field: 'pnl', direction: 'desc' },
      limit: 20,
      offset: 0,
      withRanking: true,
    });
  for (let i = 0; i < 200; i += 1) run();
  const started = performance.now();
  let n = 0;
  while (performance.now() - started < DURATION_S * 1000) {
    run();
    n += 1;
  }
  const rps = Math.round(n / ((performance.now() - started) / 1000));
  console.log(`in-process (filterStatistics in a loop: index, then the page's JSON): ${rps} queries/s`);
  return rps;
}

/** One autocannon run (after a 2 s warm-up unless told not to); any failed request stops the bench. */
async function load(
  label: string,
  target: {
    url: string;
    method: 'GET' | 'POST';
    headers: Record<string, string>;
    body?: string;
    requests?: autocannon.Request[];
  },
  {
    warmUp = true,
    service,
    connections = CONNECTIONS,
    duration = DURATION_S,
    failOnErrors = true,
    sliceS,
  }: {
    warmUp?: boolean;
    service?: BenchService;
    connections?: number;
    duration?: number;
    failOnErrors?: boolean;
    /** Print the service's CPU per request every sliceS seconds (and the warm-up's). */
    sliceS?: number;
  } = {},
) {
  const warmUpCpu = service?.cpuMs() ?? 0;
  if (warmUp) {
    const w = await autocannon({ ...target, connections, duration: 2 });
    if (sliceS && service)
      console.log(
        `  warm-up (2 s): ${w.requests.total} requests, service CPU ` +
          `${((service.cpuMs() - warmUpCpu) / Math.max(1, w.requests.total)).toFixed(2)} ms per request`,
      );
  }
  const cpuBefore = service?.cpuMs() ?? 0;
  // Without a callback autocannon returns its tracker made thenable: both an emitter and a promise.
  const run = autocannon({ ...target, connections, duration }) as unknown as autocannon.Instance &
    Promise<autocannon.Result>;
  const stopSlices = sliceS && service ? printSlices(run, service, sliceS) : () => undefined;
  const r = await run;
  stopSlices();
  const cpuMs = (service?.cpuMs() ?? 0) - cpuBefore;
  const failures = r.non2xx + r.errors + r.timeouts;
  const cpuMsPerRequest = r.requests.total > 0 ? Math.round((cpuMs / r.requests.total) * 1000) / 1000 : 0;
  const out = {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    failures,
    cpuMsPerRequest,
  };
  console.log(
    `${label}: ${out.rps} req/s, p50 ${out.p50} ms, p99 ${out.p99} ms, ${failures} failed of ${r.requests.total}` +
      (service
        ? `, service CPU ${cpuMsPerRequest} ms per request (${Math.round(cpuMs)} ms in ${duration} s)`
        : ''),
  );
  if (failOnErrors && failures > 0)
    throw new Error(`${label}: ${failures} requests failed; the figures would be wrong`);
  return out;
}

/**
 * Prints, every `sliceS` seconds of a running load, its requests, their p99 and the service's CPU
 * per request in that slice: a cost that falls as the load goes on is the service warming up.
 */
function printSlices(run: autocannon.Instance, service: BenchService, sliceS: number): () => void {
  let latencies: number[] = [];
  let cpu = service.cpuMs();
  let slice = 0;
  run.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  const timer = setInterval(() => {
    const now = service.cpuMs();
    const sorted = latencies.sort((a, b) => a - b);
    const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? NaN;
    slice += 1;
    console.log(
      `  ${(slice - 1) * sliceS}–${slice * sliceS} s: ${sorted.length} requests, p99 ${Math.round(p99)} ms, ` +
        `service CPU ${((now - cpu) / Math.max(1, sorted.length)).toFixed(2)} ms per request`,
    );
    latencies = [];
    cpu = now;
  }, sliceS * 1000);
  return () => clearInterval(timer);
}

// The answers' shapes as far as the checks below look.
type Answer = { data?: { length?: number; searchPositionStatistic?: { data?: unknown[] } } };

/** One request checked by hand: a load test of answers that are errors would measure nothing. */
async function expectAnswer(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  ok: (body: Answer) => boolean,
) {
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const answer = (await res.json()) as Answer;
  if (res.status !== 200 || !ok(answer))
    throw new Error(`${url} answered ${res.status}: ${JSON.stringify(answer).slice(0, 300)}`);
}

/** The filter with a new body on every request (offset and one bound change), so no answer is cached. */
async function loadMisses(url: string, headers: Record<string, string>) {
  let n = 0;
  const target = {
    url: `${url}/public/${PROTOCOL}/position/statistic/filter`,
    method: 'POST' as const,
    headers,
    requests: [
      {
        setupRequest: (req: autocannon.Request) => {
          n += 1;
          const ranges = [{ ...RANGES[0], gte: 40 + Math.floor(n / 500) / 100 }, ...RANGES.slice(1)];
          return {
            ...req,
            body: JSON.stringify({ ...FILTER, ranges, pagination: { limit: 20, offset: n % 500 } }),
          };
        },
      },
    ],
  };
  // No warm-up of its own: it runs right after the cached filter's load, on the same route.
  return load('public statistic filter, every request a new query (no cache hits)', target, {
    warmUp: false,
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/** Every numeric, boolean and time field a filter may name (the index's on-demand columns). */
function allNumberFields(): string[] {
  return Object.entries(statisticFields)
    .filter(([, spec]) => spec.type === 'number' || spec.type === 'boolean' || spec.type === 'time')
    .map(([field]) => field);
}
