// npm run bench:cold-bounds -- <store.db> — the costliest searches a caller may send, in-process
// (docs/statistics.md, "Fields named cold"): searches bounding 90 fields, rotated each time so
// that a search names fields no query sorted, over every population, as bench:search-attack's
// hostile caller sends them through GraphQL. Prints each search's wall time and CPU (the CPU
// includes V8's helper threads: collecting the columns read back from the column file).
//
//   BENCH_COLD_MODE=all     every bound keeps every record (`gte: -1e12`), as the attack bench
//   BENCH_COLD_MODE=nearmin each bound sits at its field's smallest value (every other search a
//                           hair above it): bounds that keep nearly every record but are not
//                           settled by a count alone
//   BENCH_COLD_SEARCHES=<n> searches (default 6; the first also reads the columns it needs)
import { openServiceDatabase } from '../../src/service/store/database';
import { searchPopulations, type Population } from '../../src/shared/statistics-index';
import { indexConditions, indexSort } from '../../src/service/statistics/index/index-conditions';
import { statisticsIndexOf } from '../../src/service/statistics/index/statistics-index';
import { RANKING_FIELDS, STATISTIC_NUMERIC_FIELDS } from '../../src/shared/api/statistics';
import type { Condition } from '../../src/service/store/conditions';

const FIELDS = [...STATISTIC_NUMERIC_FIELDS, ...RANKING_FIELDS];
const MODE = process.env.BENCH_COLD_MODE ?? 'all';
const SEARCHES = Number(process.env.BENCH_COLD_SEARCHES ?? 6);

/** Each field's smallest value over every population. */
function smallest(populations: readonly Population[]): Map<string, number> {
  const mins = new Map<string, number>();
  for (const field of FIELDS) {
    let min = Infinity;
    for (const p of populations) {
      if (p.kindOf(field) !== 'number') continue;
      const column = p.number(field);
      for (let row = 0; row < p.size; row += 1) min = Math.min(min, column.at(row));
    }
    mins.set(field, min);
  }
  return mins;
}

function main(): void {
  const path = process.argv[2];
  if (!path) throw new Error('usage: npm run bench:cold-bounds -- <store.db>');
  if (MODE !== 'all' && MODE !== 'nearmin') throw new Error('BENCH_COLD_MODE must be all or nearmin');
  const db = openServiceDatabase(path);
  let started = performance.now();
  const all = statisticsIndexOf(db).current().all();
  console.log(
    `index read in ${(performance.now() - started).toFixed(0)} ms: ${all.length} populations, ` +
      `${all.reduce((sum, p) => sum + p.size, 0)} records; mode ${MODE}`,
  );
  const mins = MODE === 'nearmin' ? smallest(all) : null;
  for (let rotation = 0; rotation < SEARCHES; rotation += 1) {
    const and: Condition[] = Array.from({ length: 90 }, (_, i) => {
      const field = FIELDS[(i + rotation) % FIELDS.length] as string;
      const gte = mins ? (mins.get(field) as number) + (rotation % 2 === 0 ? 1e-9 : 0) : -1e12 - rotation - i;
      return { field, gte };
    });
    started = performance.now();
    const cpu = process.cpuUsage();
    const page = searchPopulations(all, {
      conditions: indexConditions(and, 'body.filter.and'),
      sort: indexSort([], 'body.sorts'),
      offset: 0,
      limit: 20,
    });
    const used = process.cpuUsage(cpu);
    console.log(
      `search ${rotation + 1}: ${(performance.now() - started).toFixed(0)} ms, ` +
        `${((used.user + used.system) / 1000).toFixed(0)} ms of CPU, ${page.total} records matched`,
    );
  }
  db.close();
}

main();
