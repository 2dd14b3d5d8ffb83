// npm run bench:search-attack — what one hostile client's searches do to everyone else, with the
// search budget (docs/security.md, "Search time") and without it. A 200,000-record store
// (bench:service-miss's world; BENCH_ATTACK_RECORDS=<n> for another size), the service as its own
// process with its default rate limit, and two clients for BENCH_ATTACK_S seconds (default 20): a
// hostile one sending GraphQL searches that bound 90 fields (rotated every time, so nothing is
// cached) back to back, each under the next of its BENCH_ATTACK_IDENTITIES API keys (default 10:
// wallets and keys cost it nothing), and a trader's terminal on another machine (127.0.0.2, as
// the service sees it) asking one cheap statistics filter every 20 ms. It prints the trader's
// latency, how many hostile searches were answered and refused, and the service's CPU.
//
//   BENCH_ATTACK_DB=<file>  keep the store there and reuse it (built when missing)
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createApiKey } from '../../src/service/auth/api-keys';
import { openServiceDatabase } from '../../src/service/store/database';
import { RANKING_FIELDS, STATISTIC_NUMERIC_FIELDS } from '../../src/shared/api/statistics';
import { spawnServiceProcess } from '../support/service-process';
import { postJsonFrom } from '../support/service';
import { writeSyntheticStatistics } from './service-world';

const RECORDS = Number(process.env.BENCH_ATTACK_RECORDS ?? 200_000);
const SECONDS = Number(process.env.BENCH_ATTACK_S ?? 20);
const IDENTITIES = Number(process.env.BENCH_ATTACK_IDENTITIES ?? 10);
/** The trader's machine, as the service sees it (Linux routes all of 127.0.0.0/8 to loopback). */
const TRADER_ADDRESS = '127.0.0.2';
const FIELDS = [...STATISTIC_NUMERIC_FIELDS, ...RANKING_FIELDS];
const QUERY =
  'query ($index: String!, $body: SearchPayload!) { searchPositionStatistic(index: $index, body: $body) { data { id } meta { total } } }';
const CHEAP = {
  queries: [{ fieldName: 'type', value: 'FULL' }],
  ranges: [{ fieldName: 'winRate', gte: 40 }],
  sortBy: 'pnl',
  sortType: 'desc',
  pagination: { limit: 20, offset: 0 },
};

/** The store, and API keys: the trader's first, then the attacker's IDENTITIES (kept with a kept store). */
function store(): { dbPath: string; keys: string[]; cleanUp: () => void } {
  const kept = process.env.BENCH_ATTACK_DB;
  const dir = kept ? null : mkdtempSync(join(tmpdir(), 'copydesk-bench-attack-'));
  const dbPath = kept ? resolve(kept) : join(dir!, 'service.db');
  const keyFile = `${dbPath}.attack-keys`;
  const db = openServiceDatabase(dbPath);
  if (db.prepare('SELECT count(*) FROM statistics').pluck().get() === 0) {
    console.log(`writing ${RECORDS} statistic records into ${dbPath}…`);
    writeSyntheticStatistics(db, RECORDS, Date.now());
  }
  const keys = existsSync(keyFile) ? (JSON.parse(readFileSync(keyFile, 'utf8')) as string[]) : [];
  while (keys.length < 1 + IDENTITIES) keys.push(createApiKey(db, new Date()));
  writeFileSync(keyFile, JSON.stringify(keys), { mode: 0o600 });
  db.close();
  return { dbPath, keys, cleanUp: () => dir && rmSync(dir, { recursive: true, force: true }) };
}

/** A search bounding 90 fields from `rotation` on, each bound keeping every record. */
function hostileBody(rotation: number): string {
  const and = Array.from({ length: 90 }, (_, i) => ({
    field: FIELDS[(i + rotation) % FIELDS.length],
    gte: -1e12 - rotation - i,
  }));
  const body = { filter: { and }, paging: { size: 20, from: 0 } };
  return JSON.stringify({ query: QUERY, variables: { index: 'local.position_statistics', body } });
}

const post = (url: string, key: string, body: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': key }, body });

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;

async function run(dbPath: string, keys: string[], budget: string | null) {
  const { child, url: listening } = spawnServiceProcess(
    dbPath,
    budget === null ? [] : ['--search-budget', budget],
  );
  const url = await listening;
  const cpuMs = () => {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  try {
    const [trader, ...hostile] = keys as [string, ...string[]];
    const cheap = JSON.stringify(CHEAP);
    const filter = `${url}/public/NOVA_ARB/position/statistic/filter`;
    const traderAgent = new Agent({ keepAlive: true });
    const traderAsks = async () =>
      (await postJsonFrom(TRADER_ADDRESS, filter, cheap, { 'x-api-key': trader }, traderAgent)).status;
    for (let i = 0; i < 3; i += 1) await traderAsks();
    const startedCpu = cpuMs();
    const until = performance.now() + SECONDS * 1000;
    const hostileCounts = { answered: 0, refused: 0, answeredMs: 0 };
    const attack = (async () => {
      for (let rotation = 0; performance.now() < until; rotation += 1) {
        const started = performance.now();
        const key = hostile[rotation % hostile.length] as string;
        const answer = await post(`${url}/graphql`, key, hostileBody(rotation));
        await answer.text();
        if (answer.status === 200) {
          hostileCounts.answered += 1;
          hostileCounts.answeredMs += performance.now() - started;
        } else hostileCounts.refused += 1;
      }
    })();
    const latencies: number[] = [];
    const refusedTrader = { count: 0 };
    while (performance.now() < until) {
      const started = performance.now();
      if ((await traderAsks()) !== 200) refusedTrader.count += 1;
      latencies.push(performance.now() - started);
      await new Promise((done) => setTimeout(done, 20));
    }
    await attack;
    traderAgent.destroy();
    const cpu = cpuMs() - startedCpu;
    latencies.sort((a, b) => a - b);
    const label =
      budget === null
        ? 'default search budget (250 ms a second, 2,500 in hand)'
        : `--search-budget ${budget}`;
    console.log(
      `${label}: trader's filter p50 ${percentile(latencies, 0.5).toFixed(1)} ms, p99 ` +
        `${percentile(latencies, 0.99).toFixed(1)} ms, max ${latencies.at(-1)?.toFixed(1)} ms over ` +
        `${latencies.length} requests (${refusedTrader.count} not 200); hostile searches answered ` +
        `${hostileCounts.answered} (${(hostileCounts.answeredMs / Math.max(1, hostileCounts.answered)).toFixed(0)} ms each as the ` +
        `attacker waited), refused ${hostileCounts.refused}; service CPU ${(cpu / 1000).toFixed(1)} s in ${SECONDS} s`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
  }
}

async function main(): Promise<void> {
  const { dbPath, keys, cleanUp } = store();
  try {
    console.log(
      `${IDENTITIES} hostile identities; load average ${readFileSync('/proc/loadavg', 'utf8').trim()}`,
    );
    await run(dbPath, keys, '10000000');
    await run(dbPath, keys, null);
  } finally {
    cleanUp();
  }
}

await main();
