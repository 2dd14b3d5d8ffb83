// npm run bench:page-render -- <store.db> — the REST page's own cost, in-process (issue #19):
// CPU per page of `currentPageBuffer` (the stored JSON of 20 records at random rows of one
// population, with and without their `ranking`) and of the rows' read alone, as text
// (`storedRowsText`, what the page reads) and as bytes (`storedRowsJson`, search-after's), on a
// store that bench:service-miss wrote (BENCH_MISS_DB). docs/statistics.md, "The page's own cost".
// The figure that counts is the service's CPU per request over HTTP (bench:service-miss).
//
//   BENCH_PAGE_PAGES=<n>  pages a round (default 3,000); BENCH_PAGE_ROUNDS=<n> (default 5)
import { openServiceDatabase } from '../../src/service/store/database';
import { statisticsIndexOf } from '../../src/service/statistics/index/statistics-index';
import {
  currentPageBuffer,
  storedRowsJson,
  storedRowsText,
} from '../../src/service/statistics/queries/render-rows';
import { SeededRandom } from '../../src/service/fixture/random';
import type { RecordRef } from '../../src/shared/statistics-index';

const PAGES = Number(process.env.BENCH_PAGE_PAGES ?? 3000);
const ROUNDS = Number(process.env.BENCH_PAGE_ROUNDS ?? 5);
const PAGE_SIZE = 20;

function main(): void {
  const path = process.argv[2];
  if (!path) throw new Error('usage: npm run bench:page-render -- <store.db>');
  const db = openServiceDatabase(path);
  const populations = statisticsIndexOf(db).current().all();
  const random = new SeededRandom(7);
  const pages: RecordRef[][] = Array.from({ length: PAGES }, () => {
    const population = populations[Math.floor(random.next() * populations.length)]!;
    return Array.from({ length: PAGE_SIZE }, () => ({
      population,
      row: Math.floor(random.next() * population.size),
    }));
  });
  const meta = { total: 12_345, limit: PAGE_SIZE, offset: 0, totalPages: 618 };
  const loads: [string, (refs: RecordRef[]) => unknown][] = [
    ['page with ranking', (refs) => currentPageBuffer(db, refs, true, meta)],
    ['page without ranking', (refs) => currentPageBuffer(db, refs, false, meta)],
    ['rows as text', (refs) => storedRowsText(db, refs)],
    ['rows as bytes', (refs) => storedRowsJson(db, refs)],
  ];
  let bytes = 0;
  for (const refs of pages) bytes += currentPageBuffer(db, refs, true, meta).length;
  console.log(
    `${populations.length} populations, ${PAGES} pages of ${PAGE_SIZE} records a round, ` +
      `${Math.round(bytes / PAGES)} bytes a page with ranking`,
  );
  for (let round = 1; round <= ROUNDS; round += 1) {
    const figures = loads.map(([name, load]) => {
      const start = process.cpuUsage();
      for (const refs of pages) load(refs);
      const used = process.cpuUsage(start);
      return `${name} ${((used.user + used.system) / 1000 / PAGES).toFixed(4)}`;
    });
    console.log(`round ${round}: CPU ms per page — ${figures.join(', ')}`);
  }
  db.close();
}

main();
