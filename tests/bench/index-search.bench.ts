// npm run bench:index-search -- <store.db> — the statistics index's search alone,
// in-process (issue #19): CPU per query over random GraphQL-shaped searches (every population,
// a protocol, a window or two, ranges, sometimes an `or`, one or two sorts) and random REST-shaped
// filters (one protocol's populations), as bench:service-miss sends them, on a store that
// bench:service-miss wrote (BENCH_MISS_DB). For iterating on the search: the figure that counts is
// the service's CPU per request over HTTP (bench:service-miss).
//
//   BENCH_SEARCH_QUERIES=<n>  queries a round (default 2,000); BENCH_SEARCH_ROUNDS=<n> (default 5)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { openServiceDatabase } from '../../src/service/store/database';
import { knownProtocols } from '../../src/service/market/catalogue';
import { SeededRandom } from '../../src/service/fixture/random';
import { searchPopulations, type IndexPage } from '../../src/shared/statistics-index';
import { indexConditions, indexSort } from '../../src/service/statistics/index/index-conditions';
import { statisticsIndexOf } from '../../src/service/statistics/index/statistics-index';
import type { Condition } from '../../src/service/store/conditions';
import { quantilesOf, randomGraphqlBody, randomRestBody, type Quantiles } from './random-statistic-queries';

const QUERIES = Number(process.env.BENCH_SEARCH_QUERIES ?? 2000);
const ROUNDS = Number(process.env.BENCH_SEARCH_ROUNDS ?? 5);

interface GraphqlBody {
  filter: { and: Condition[] };
  sorts: { field: string; direction: 'asc' | 'desc' }[];
  paging: { size: number; from: number };
}
interface RestBody {
  queries: { fieldName: string; value: string }[];
  ranges: ({ fieldName: string } & Record<string, number>)[];
  sortBy: string;
  sortType: 'asc' | 'desc';
  pagination: { limit: number; offset: number };
}

/** A running digest of pages (totals, populations and rows), to see two checkouts answer alike. */
function digest(seed: number, page: IndexPage): number {
  let h = (seed ^ page.total) >>> 0;
  for (const ref of page.refs) {
    for (let i = 0; i < ref.population.key.length; i += 1)
      h = Math.imul(h ^ ref.population.key.charCodeAt(i), 16777619) >>> 0;
    h = Math.imul(h ^ ref.row, 16777619) >>> 0;
  }
  return h;
}

function main(): void {
  const path = process.argv[2];
  if (!path) throw new Error('usage: npm run bench:index-search -- <store.db>');
  const db = openServiceDatabase(path);
  // The quantiles read every value of 17 fields (a minute when the store is not cached): kept.
  const kept = `${path}.quantiles.json`;
  const q = existsSync(kept) ? (JSON.parse(readFileSync(kept, 'utf8')) as Quantiles) : quantilesOf(db);
  writeFileSync(kept, JSON.stringify(q));
  const protocols = knownProtocols();
  const index = statisticsIndexOf(db);
  const all = index.current().all();
  const graphql = (seed: number) => {
    const random = new SeededRandom(seed);
    return Array.from({ length: QUERIES }, () => {
      const parsed = JSON.parse(randomGraphqlBody(random, q, protocols)) as {
        variables: { body: GraphqlBody };
      };
      return parsed.variables.body;
    });
  };
  const rest = (seed: number) => {
    const random = new SeededRandom(seed);
    return Array.from({ length: QUERIES }, () => ({
      protocol: random.pick(protocols),
      body: JSON.parse(randomRestBody(random, q)) as RestBody,
    }));
  };
  const runGraphql = (bodies: GraphqlBody[]) => {
    let total = 0;
    for (const body of bodies) {
      const page = searchPopulations(all, {
        conditions: indexConditions(body.filter.and, 'body.filter.and'),
        sort: indexSort(body.sorts, 'body.sorts'),
        offset: body.paging.from,
        limit: body.paging.size,
      });
      total = digest(total, page);
    }
    return total;
  };
  const runRest = (queries: ReturnType<typeof rest>) => {
    let total = 0;
    for (const { protocol, body } of queries) {
      const conditions: Condition[] = [
        ...body.queries.map((c) => ({ field: c.fieldName, match: c.value })),
        ...body.ranges.map(({ fieldName, ...b }) => ({ field: fieldName, ...b })),
      ];
      const page = searchPopulations(
        all.filter((p) => p.key.startsWith(`${protocol}|`)),
        {
          conditions: indexConditions(conditions, 'ranges'),
          sort: indexSort([{ field: body.sortBy, direction: body.sortType }], 'sortBy'),
          offset: body.pagination.offset,
          limit: body.pagination.limit,
        },
      );
      total = digest(total, page);
    }
    return total;
  };
  // First uses (columns read, permutations sorted) outside what is measured.
  runGraphql(graphql(1));
  runRest(rest(2));
  const cpuMs = (run: () => number) => {
    const before = process.cpuUsage();
    const check = run();
    const used = process.cpuUsage(before);
    return { ms: (used.user + used.system) / 1000 / QUERIES, check };
  };
  for (let round = 1; round <= ROUNDS; round += 1) {
    const g = graphql(100 + round);
    const r = rest(200 + round);
    const a = cpuMs(() => runGraphql(g));
    const b = cpuMs(() => runRest(r));
    console.log(
      `round ${round}: GraphQL-shaped ${a.ms.toFixed(4)} ms CPU a query (check ${a.check}), ` +
        `REST-shaped ${b.ms.toFixed(4)} ms (check ${b.check}); ` +
        `load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
    );
  }
  db.close();
}

main();
