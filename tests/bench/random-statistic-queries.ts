// Random statistic queries for bench:service (issue #19): a new REST filter body or GraphQL
// search on every request, with bounds drawn from the store's own distribution so that most
// queries match something, as a trader tuning ranges sends them.
import type autocannon from 'autocannon';
import { SeededRandom } from '../../src/service/fixture/random';
import type { ServiceDb } from '../../src/service/store/database';
import { statisticFields } from '../../src/service/store/fields';

/** Fields a trader ranges on: metrics, and percentiles. */
const RANGE_FIELDS = [
  'winRate',
  'totalTrade',
  'pnl',
  'realisedPnl',
  'avgRoi',
  'avgLeverage',
  'maxDrawdown',
  'profitRate',
  'avgDuration',
  'totalVolume',
  'sharpeRatio',
  'maxWinStreak',
  'ranking.pnl',
  'ranking.winRate',
  'ranking.totalTrade',
  'ranking.realisedAvgRoi',
  'ranking.avgLeverage',
];
const SORT_FIELDS = [
  'pnl',
  'winRate',
  'totalTrade',
  'realisedPnl',
  'avgRoi',
  'totalVolume',
  'ranking.pnl',
  'lastTradeAtTs',
];
const WINDOWS = ['FULL', 'D60', 'D30', 'D15', 'D7'];

/** Twenty-one quantiles of each range field over the current records (from a sample). */
export type Quantiles = Record<string, number[]>;

export function quantilesOf(db: ServiceDb): Quantiles {
  // Every value read and sorted here: SQLite's ORDER BY random() took half a minute at 200,000.
  // One pass over the rows for all the fields: a pass per field read the wide rows 17 times (~10 s).
  const sqls = RANGE_FIELDS.map((field) => statisticFields[field]!.sql);
  const rows = db
    .prepare(`SELECT ${sqls.join(', ')} FROM statistics WHERE gen_to IS NULL`)
    .raw()
    .all() as (number | null)[][];
  const out: Quantiles = {};
  RANGE_FIELDS.forEach((field, f) => {
    const values: number[] = [];
    for (const row of rows) if (row[f] !== null) values.push(row[f] as number);
    const sorted = Float64Array.from(values).sort();
    out[field] = Array.from(
      { length: 21 },
      (_, i) => sorted[Math.min(sorted.length - 1, Math.floor((i / 20) * (sorted.length - 1)))] ?? 0,
    );
  });
  return out;
}

/** One to three ranges: a lower bound, sometimes an upper one, at random quantiles. */
function randomRanges(random: SeededRandom, q: Quantiles): { field: string; gte?: number; lte?: number }[] {
  const count = random.int(1, 3);
  const fields = new Set<string>();
  while (fields.size < count) fields.add(random.pick(RANGE_FIELDS));
  return [...fields].map((field) => {
    const at = random.int(0, 14);
    const range: { field: string; gte?: number; lte?: number } = { field, gte: q[field]![at]! };
    if (random.chance(0.3)) range.lte = q[field]![random.int(at + 1, 20)]!;
    return range;
  });
}

/** A public filter body: a random window, ranges, sort and offset. */
export function randomRestBody(random: SeededRandom, q: Quantiles): string {
  return JSON.stringify({
    queries: [{ fieldName: 'type', value: random.pick(WINDOWS) }],
    ranges: randomRanges(random, q).map(({ field, ...b }) => ({ fieldName: field, ...b })),
    sortBy: random.pick(SORT_FIELDS),
    sortType: random.chance(0.5) ? 'desc' : 'asc',
    pagination: { limit: 20, offset: random.int(0, 10) * 20 },
  });
}

export const GRAPHQL_QUERY = `query Search($index: String!, $body: SearchPayload!) {
  searchPositionStatistic(index: $index, body: $body) { data { id account protocol type pnl winRate totalTrade } meta { total limit offset totalPages } }
}`;

/** A GraphQL searchPositionStatistic body: random conditions (ranges, a window set, an `or`), sorts and paging. */
export function randomGraphqlBody(random: SeededRandom, q: Quantiles, protocols: readonly string[]): string {
  const and: unknown[] = [{ field: 'protocol', match: random.pick(protocols) }];
  if (random.chance(0.5)) and.push({ field: 'type', match: random.pick(WINDOWS) });
  else and.push({ field: 'type', in: [random.pick(WINDOWS), random.pick(WINDOWS)] });
  and.push(...randomRanges(random, q));
  if (random.chance(0.3)) and.push({ or: randomRanges(random, q) });
  const sorts = [{ field: random.pick(SORT_FIELDS), direction: random.chance(0.5) ? 'desc' : 'asc' }];
  if (random.chance(0.2)) sorts.push({ field: random.pick(SORT_FIELDS), direction: 'desc' });
  return JSON.stringify({
    operationName: 'Search',
    query: GRAPHQL_QUERY,
    variables: {
      index: 'local.position_statistics',
      body: { filter: { and }, sorts, paging: { size: 20, from: random.int(0, 10) * 20 } },
    },
  });
}

/**
 * Autocannon's request list for a mix: each request is REST with probability `restShare`
 * (a random protocol's public filter), else GraphQL, each a new random body.
 */
export function mixedRequests(
  q: Quantiles,
  protocols: readonly string[],
  restShare: number,
  seed: number,
): autocannon.Request[] {
  const random = new SeededRandom(seed);
  return [
    {
      setupRequest: (req: autocannon.Request) =>
        random.chance(restShare)
          ? {
              ...req,
              method: 'POST',
              path: `/public/${random.pick(protocols)}/position/statistic/filter`,
              body: randomRestBody(random, q),
            }
          : { ...req, method: 'POST', path: '/graphql', body: randomGraphqlBody(random, q, protocols) },
    },
  ];
}
