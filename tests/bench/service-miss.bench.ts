// npm run bench:service-miss — the service's CPU per statistics miss over real HTTP (issue #19).
// A 200,000-record store (bench:service's world), the service as its own process, and four
// loads: bench:service's cached filter (one body over and over, answered from the answer cache:
// issue #3's `ceilingRps / filterRps`), the public REST filter with a new random body every
// request, GraphQL searchPositionStatistic with new random variables every request, and the
// constant route. It prints the service's CPU per request read from /proc (the figure that
// carries over on a shared machine), next to req/s and p99, and the cached filter's CPU over the
// constant route's. It also prints the client's CPU per request (autocannon runs in this
// process) and the machine's idle CPU per request: client and service share the cores, so the
// client's own cost bounds req/s, and bench:service's ratios, as much as the service's.
//
//   BENCH_MISS_DB=<file>      keep the store there and reuse it (built when missing)
//   BENCH_MISS_ROOTS=<a,b>    checkouts to alternate (A/B: each round runs every root in turn)
//   BENCH_MISS_ROUNDS=<n>     rounds (default 1); BENCH_MISS_S=<s> seconds per load (default 8)
//   BENCH_MISS_PROFILE=<dir>  run the service under `node --cpu-prof` writing into <dir>, then
//                             print its top functions (tests/bench/cpu-profile-summary.ts)
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
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
import { knownProtocols } from '../../src/service/market/catalogue';
import { SeededRandom } from '../../src/service/fixture/random';
import { OFFLINE_VENUE_ENV } from '../support/offline-venue';
import { writeSyntheticStatistics } from './service-world';
import { quantilesOf, randomGraphqlBody, randomRestBody, type Quantiles } from './random-statistic-queries';
import { printProfileSummary, type ProfileWindow } from './cpu-profile-summary';

const RECORDS = 200_000;
const SECONDS = Number(process.env.BENCH_MISS_S ?? 8);
const ROUNDS = Number(process.env.BENCH_MISS_ROUNDS ?? 1);
const CONNECTIONS = 10;

interface Store {
  dbPath: string;
  apiKey: string;
  quantiles: Quantiles;
}

/** The 200,000-record store: reused from BENCH_MISS_DB when it exists, else written. */
function store(): { store: Store; cleanUp: () => void } {
  const kept = process.env.BENCH_MISS_DB;
  const dir = kept ? null : mkdtempSync(join(tmpdir(), 'copydesk-bench-miss-'));
  const dbPath = kept ? resolve(kept) : join(dir!, 'service.db');
  const fresh = !existsSync(dbPath);
  const db = openServiceDatabase(dbPath);
  if (fresh) {
    console.log(`writing ${RECORDS} statistic records into ${dbPath}…`);
    writeSyntheticStatistics(db, RECORDS, Date.now());
  }
  const keyFile = `${dbPath}.api-key`;
  const apiKey = !fresh && existsSync(keyFile) ? readFileSync(keyFile, 'utf8') : createApiKey(db, new Date());
  if (kept) writeFileSync(keyFile, apiKey, { mode: 0o600 });
  const quantiles = quantilesOf(db);
  db.close();
  return {
    store: { dbPath, apiKey, quantiles },
    cleanUp: () => dir && rmSync(dir, { recursive: true, force: true }),
  };
}

interface Running {
  url: string;
  pid: number;
  /** Seconds since the process was spawned (its CPU profile's clock, near enough). */
  sinceStartS: () => number;
  cpuMs: () => number;
  /** User and system CPU (ms) and minor page faults so far: where the CPU goes, the kernel or the process. */
  cpuSplit: () => { userMs: number; systemMs: number; minorFaults: number };
  stop: () => Promise<void>;
}

/** The service of checkout `root` on the store, as its own process (optionally profiled). */
async function startAt(root: string, dbPath: string, profileDir: string | null): Promise<Running> {
  const node = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const spawnedMs = performance.now();
  const child = spawn(
    process.execPath,
    [
      ...node,
      '--import',
      'tsx',
      'src/service/cli.ts',
      '--db',
      dbPath,
      '--port',
      '0',
      '--empty',
      '--rate-limit',
      '10000000',
      '--search-budget',
      '10000000',
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: { ...OFFLINE_VENUE_ENV, ...process.env } },
  );
  const url = await new Promise<string>((done, fail) => {
    child.stdout.on('data', (chunk: Buffer) => {
      const match = /listening on (http:\/\/[\d.:]+)/.exec(chunk.toString());
      if (match?.[1]) done(match[1]);
    });
    child.once('exit', (code) => fail(new Error(`service exited ${code}`)));
  });
  return {
    url,
    pid: child.pid!,
    sinceStartS: () => (performance.now() - spawnedMs) / 1000,
    cpuMs: () => {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    },
    cpuSplit: () => {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return {
        userMs: Number(fields[11]) * 10,
        systemMs: Number(fields[12]) * 10,
        minorFaults: Number(fields[7]),
      };
    },
    stop: () =>
      new Promise((done) => {
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/** CPU time (ms) every core of the machine has spent idle since boot (/proc/stat's `cpu` line). */
function machineIdleMs(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  return ((Number(fields[4]) + Number(fields[5])) * 1000) / 100;
}

/** Reads a file through once (into the OS cache). */
function readWhole(path: string): void {
  const fd = openSync(path, 'r');
  const chunk = Buffer.allocUnsafe(4 << 20);
  try {
    while (readSync(fd, chunk, 0, chunk.length, null) > 0);
  } finally {
    closeSync(fd);
  }
}

type Target = Parameters<typeof autocannon>[0];

/** One load after a 2 s warm-up: req/s, p99 and the service's CPU per request. */
async function measure(label: string, service: Running, target: Target, windows: ProfileWindow[]) {
  await autocannon({ ...target, connections: CONNECTIONS, duration: 2 });
  const fromS = service.sinceStartS();
  const before = service.cpuMs();
  const splitBefore = service.cpuSplit();
  const clientBefore = process.cpuUsage();
  const idleBefore = machineIdleMs();
  const r = await autocannon({ ...target, connections: CONNECTIONS, duration: SECONDS });
  const cpuMs = service.cpuMs() - before;
  const splitAfter = service.cpuSplit();
  const client = process.cpuUsage(clientBefore);
  const idleMs = machineIdleMs() - idleBefore;
  windows.push({ label, fromS, toS: service.sinceStartS() });
  const failed = r.non2xx + r.errors + r.timeouts;
  const perRequest = cpuMs / Math.max(1, r.requests.total);
  console.log(
    `  ${label}: ${Math.round(r.requests.average)} req/s, p99 ${r.latency.p99} ms, ` +
      `service CPU ${perRequest.toFixed(3)} ms per request (${r.requests.total} requests, ${failed} failed)`,
  );
  const per = (n: number) => (n / Math.max(1, r.requests.total)).toFixed(3);
  console.log(
    `    of which user ${per(splitAfter.userMs - splitBefore.userMs)} ms, system ${per(splitAfter.systemMs - splitBefore.systemMs)} ms; ` +
      `${per(splitAfter.minorFaults - splitBefore.minorFaults)} minor page faults per request`,
  );
  // The client shares the machine's cores: what it spends bounds req/s as much as the service.
  console.log(
    `    the client (autocannon, this process) ${per((client.user + client.system) / 1000)} ms per request; ` +
      `the machine was idle ${per(idleMs)} ms of CPU per request`,
  );
  if (failed > 0) throw new Error(`${label}: ${failed} requests failed; the figures would be wrong`);
  return perRequest;
}

function restTarget(url: string, headers: Record<string, string>, q: Quantiles, seed: number): Target {
  const random = new SeededRandom(seed);
  const protocols = knownProtocols();
  return {
    url,
    method: 'POST',
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

/** bench:service's cached filter: the same body over and over, answered from the answer cache. */
function cachedTarget(url: string, headers: Record<string, string>): Target {
  return {
    url: `${url}/public/NOVA_ARB/position/statistic/filter`,
    method: 'POST',
    headers,
    body: JSON.stringify({
      queries: [{ fieldName: 'type', value: 'FULL' }],
      ranges: [
        { fieldName: 'winRate', gte: 40 },
        { fieldName: 'totalTrade', gte: 20 },
        { fieldName: 'ranking.pnl', gte: 30 },
      ],
      sortBy: 'pnl',
      sortType: 'desc',
      pagination: { limit: 20, offset: 0 },
    }),
  };
}

function graphqlTarget(url: string, headers: Record<string, string>, q: Quantiles, seed: number): Target {
  const random = new SeededRandom(seed);
  const protocols = knownProtocols();
  return {
    url: `${url}/graphql`,
    method: 'POST',
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

async function main(): Promise<void> {
  const roots = (process.env.BENCH_MISS_ROOTS ?? process.cwd()).split(',').map((r) => resolve(r));
  const profileDir = process.env.BENCH_MISS_PROFILE ? resolve(process.env.BENCH_MISS_PROFILE) : null;
  const { store: s, cleanUp } = store();
  const headers = { 'content-type': 'application/json', 'x-api-key': s.apiKey };
  const figures = new Map<string, { hit: number[]; rest: number[]; graphql: number[]; health: number[] }>();
  const profiles: { pid: number; windows: ProfileWindow[] }[] = [];
  try {
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const root of roots) {
        console.log(`round ${round}, ${root} (load average ${readFileSync('/proc/loadavg', 'utf8').trim()})`);
        // Other work on the machine pushes the store out of the OS cache; a service reading it
        // back from disk measures the disk, so every service starts with it read once.
        readWhole(s.dbPath);
        const service = await startAt(root, s.dbPath, profileDir);
        const f = figures.get(root) ?? { hit: [], rest: [], graphql: [], health: [] };
        figures.set(root, f);
        const windows: ProfileWindow[] = [];
        const { url } = service;
        try {
          f.hit.push(await measure('REST cached', service, cachedTarget(url, headers), windows));
          // Different seeds per round: every request of the run is a new body.
          const rest = restTarget(url, headers, s.quantiles, round);
          f.rest.push(await measure('REST miss', service, rest, windows));
          const graphql = graphqlTarget(url, headers, s.quantiles, 100 + round);
          f.graphql.push(await measure('GraphQL miss', service, graphql, windows));
          f.health.push(await measure('GET /health', service, { url: `${url}/health` }, windows));
        } finally {
          await service.stop();
        }
        if (profileDir) profiles.push({ pid: service.pid, windows });
      }
    }
  } finally {
    cleanUp();
  }
  const show = (xs: number[]) => xs.map((x) => x.toFixed(3)).join(' / ');
  for (const [root, f] of figures) {
    const ratio = f.hit.map((hit, i) => hit / (f.health[i] ?? Number.NaN));
    console.log(
      `${root}: CPU ms per request — REST cached ${show(f.hit)}, REST miss ${show(f.rest)}, ` +
        `GraphQL miss ${show(f.graphql)}, /health ${show(f.health)}; ` +
        `cached / health ${ratio.map((r) => r.toFixed(2)).join(' / ')}`,
    );
  }
  for (const { pid, windows } of profiles) {
    const file = readdirSync(profileDir!).find((n) => n.includes(`.${pid}.`) && n.endsWith('.cpuprofile'));
    if (file) printProfileSummary(join(profileDir!, file), 40, windows);
    else console.log(`no CPU profile of process ${pid} in ${profileDir}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
