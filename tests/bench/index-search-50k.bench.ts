// npx tsx tests/bench/index-search-50k.bench.ts — the index search alone on populations of
// 50,000 records (the 2,000,000-record store's population size), in-process (issue #19):
// synthetic populations (two protocols of five windows, six columns of the bench's kinds with 3 %
// missing values) and random GraphQL-shaped searches as bench:service-miss sends them (a
// protocol, a window or two, one to three ranges at quantiles, sometimes an `or`, one or two
// sorts, an offset up to 200). Prints the CPU per search, first uses outside what is measured,
// and a digest of every page, to compare two checkouts' answers.
import { readFileSync } from 'node:fs';
import {
  Population,
  searchPopulations,
  type IndexCondition,
  type IndexQuery,
  type SortTerm,
} from '../../src/shared/statistics-index';

const RECORDS = 50_000;
const SEARCHES = 1_500;
const WINDOWS = ['FULL', 'D60', 'D30', 'D15', 'D7'];

let seed = 42;
/** A seeded uniform number in [0, 1): the same populations and searches in every checkout. */
function random(): number {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed / 4294967296;
}
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

const FIELDS: Record<string, () => number> = {
  pnl: () => Math.round((random() - 0.4) * 1e6) / 100,
  winRate: () => Math.round(random() * 10000) / 100,
  totalTrade: () => Math.floor(random() * 500),
  avgLeverage: () => 1 + random() * 20,
  'ranking.pnl': () => Math.round(random() * 10000) / 100,
  lastTradeAtTs: () => 1_700_000_000_000 + Math.floor(random() * 1e9),
};
const NAMES = Object.keys(FIELDS);

function populations(): Population[] {
  const out: Population[] = [];
  for (const protocol of ['A', 'B']) {
    for (const type of WINDOWS) {
      const ids = Array.from({ length: RECORDS }, (_, i) => i.toString(16).padStart(24, '0'));
      const numbers: Record<string, Float64Array> = {};
      for (const f of NAMES)
        numbers[f] = Float64Array.from({ length: RECORDS }, () => (random() < 0.03 ? NaN : FIELDS[f]!()));
      out.push(
        new Population(`${protocol}|${type}`, {
          constants: { protocol, type },
          texts: { id: ids, account: ids },
          numbers,
        }),
      );
    }
  }
  return out;
}

function searches(first: Population): IndexQuery[] {
  const quantiles: Record<string, number[]> = {};
  for (const f of NAMES) {
    const values = first
      .number(f)
      .toFloat64()
      .filter((x) => x === x)
      .sort();
    quantiles[f] = Array.from({ length: 21 }, (_, i) => values[Math.floor((i / 20) * (values.length - 1))]!);
  }
  const ranges = (): IndexCondition[] => {
    const fields = new Set<string>();
    const count = 1 + Math.floor(random() * 3);
    while (fields.size < count) fields.add(pick(NAMES));
    return [...fields].map((field) => {
      const at = Math.floor(random() * 15);
      const q = quantiles[field]!;
      return random() < 0.3
        ? { field, gte: q[at]!, lte: q[at + 1 + Math.floor(random() * (20 - at))]! }
        : { field, gte: q[at]! };
    });
  };
  return Array.from({ length: SEARCHES }, () => {
    const conditions: IndexCondition[] = [{ field: 'protocol', match: pick(['A', 'B']) }];
    conditions.push(
      random() < 0.5
        ? { field: 'type', match: pick(WINDOWS) }
        : { field: 'type', in: [pick(WINDOWS), pick(WINDOWS)] },
    );
    conditions.push(...ranges());
    if (random() < 0.3) conditions.push({ or: ranges() });
    const sort: SortTerm[] = [{ field: pick(NAMES), desc: random() < 0.5 }];
    if (random() < 0.2) sort.push({ field: pick(NAMES), desc: true });
    sort.push(
      { field: 'id', desc: false },
      { field: 'protocol', desc: false },
      { field: 'type', desc: false },
    );
    return { conditions, sort, offset: Math.floor(random() * 11) * 20, limit: 20 };
  });
}

function main(): void {
  const pops = populations();
  const queries = searches(pops[0]!);
  for (const q of queries) searchPopulations(pops, q);
  for (let round = 1; round <= 3; round += 1) {
    let digest = 0;
    const before = process.cpuUsage();
    for (const q of queries) {
      const page = searchPopulations(pops, q);
      digest = (Math.imul(digest, 31) + page.total) >>> 0;
      for (const ref of page.refs) digest = (Math.imul(digest, 7) + ref.row) >>> 0;
    }
    const used = process.cpuUsage(before);
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    console.log(
      `round ${round}: ${((used.user + used.system) / 1000 / queries.length).toFixed(3)} ms CPU a ` +
        `GraphQL-shaped search on ${RECORDS}-record populations (digest ${digest}); load average ${load}`,
    );
  }
}

main();
