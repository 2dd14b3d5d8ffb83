// npm run bench:service — serving speed of the local service on 200,000 statistic records.
// Prints what it measured; its last line is one JSON object (issue #3). Not part of npm test.
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiKey } from '../../src/service/auth/api-keys';
import { openServiceDatabase } from '../../src/service/store/database';
import { filterStatistics } from '../../src/service/statistics/queries';
import { startService } from './bench-process';
import { writeSyntheticStatistics } from './service-world';

const RECORDS = 200_000;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = 10;
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
  const dir = mkdtempSync(join(tmpdir(), 'copydesk-bench-'));
  const dbPath = join(dir, 'service.db');
  console.log(`writing ${RECORDS} statistic records…`);
  const db = openServiceDatabase(dbPath);
  writeSyntheticStatistics(db, RECORDS, Date.now());
  const apiKey = createApiKey(db, new Date());
  const sqlOnlyRps = sqlLoop(db);
  db.close();
  const { url, stop } = await startService(dbPath);
  try {
    const headers = { 'content-type': 'application/json', 'x-api-key': apiKey };
    const filter = await load('public statistic filter, 3 ranges + sort', {
      url: `${url}/public/${PROTOCOL}/position/statistic/filter`,
      method: 'POST',
      headers,
      body: JSON.stringify(FILTER),
    });
    const filterMiss = await loadMisses(url, headers);
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
    const ceiling = await load('constant route (GET /health)', {
      url: `${url}/health`,
      method: 'GET',
      headers: {},
    });
    const result = {
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
    };
    const ratio = result.ceilingRps / result.filterRps;
    console.log(`goal ceilingRps / filterRps ≤ 3: ${ratio.toFixed(2)} ${ratio <= 3 ? 'met' : 'NOT met'}`);
    console.log(
      `goal filterP99Ms < 20: ${result.filterP99Ms} ${result.filterP99Ms < 20 ? 'met' : 'NOT met'}`,
    );
    // The two goals are met on one body sent over and over, answered from the service's cache:
    // say so next to them, with the figures of the same filter when every request is a new query.
    console.log(
      `the goals above are on cached answers; every request a new query: ${result.filterMissRps} req/s, ` +
        `p99 ${result.filterMissP99Ms} ms`,
    );
    console.log(JSON.stringify(result));
  } finally {
    await stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The same query the filter endpoint runs, straight through better-sqlite3: the floor of the work. */
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
  console.log(`sql only (filterStatistics in a loop): ${rps} queries/s`);
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
  { warmUp = true } = {},
) {
  if (warmUp) await autocannon({ ...target, connections: CONNECTIONS, duration: 2 });
  const r = await autocannon({ ...target, connections: CONNECTIONS, duration: DURATION_S });
  const failures = r.non2xx + r.errors + r.timeouts;
  const out = { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99 };
  console.log(
    `${label}: ${out.rps} req/s, p50 ${out.p50} ms, p99 ${out.p99} ms, ${failures} failed of ${r.requests.total}`,
  );
  if (failures > 0) throw new Error(`${label}: ${failures} requests failed; the figures would be wrong`);
  return out;
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
