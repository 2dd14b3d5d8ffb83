// npm run bench:percentiles — the one percentile function (src/shared/ranking/percentiles.ts) on
// populations of the sizes the service and the terminal's datasets rank: CPU per key and per
// population of 19 keys (the service's rankPopulation). Populations have ties and ~10 % missing
// values. Prints what it measured; the last line is one JSON object.
import { RANKING_KEYS } from '../../src/shared/api/statistics';
import { percentiles, RADIX_FROM } from '../../src/shared/ranking/percentiles';
import { RadixScratch } from '../../src/shared/statistics-index/radix-sort';
import { rankPopulation, type RankingInput } from '../../src/service/statistics/formulas/rankings';
import { SeededRandom } from '../../src/service/fixture/random';

const SIZES = [100, 1_000, RADIX_FROM - 1, RADIX_FROM, 10_000, 100_000, 300_000];
const random = new SeededRandom(11);

/** A value with ties (one decimal) or, one time in ten, missing. */
const value = (): number | null =>
  random.next() < 0.1 ? null : Math.round(random.between(-5000, 5000)) / 10;

/** CPU milliseconds (user + system) per call of `run`, over enough calls to last ~0.5 s of CPU. */
function cpuMsPerCall(run: () => void): number {
  run();
  let calls = 0;
  const start = process.cpuUsage();
  let spent = 0;
  while (spent < 500_000) {
    run();
    calls += 1;
    const used = process.cpuUsage(start);
    spent = used.user + used.system;
  }
  return spent / 1000 / calls;
}

const results = SIZES.map((n) => {
  const column = Float64Array.from({ length: n }, () => value() ?? NaN);
  const scratch = new RadixScratch(n);
  const work = new Float64Array(n);
  const perKeyMs = cpuMsPerCall(() => percentiles(column, false, scratch, work));
  const records = Array.from(
    { length: n },
    () => Object.fromEntries(RANKING_KEYS.map((k) => [k, value()])) as RankingInput,
  );
  const perPopulationMs = cpuMsPerCall(() => rankPopulation(records));
  const path = n < RADIX_FROM ? 'sort' : 'radix';
  console.log(
    `${n} members (${path}): ${perKeyMs.toFixed(3)} ms CPU a key, ` +
      `${perPopulationMs.toFixed(2)} ms CPU a population of ${RANKING_KEYS.length} keys ` +
      `(${((perPopulationMs * 1e6) / (n * RANKING_KEYS.length)).toFixed(1)} ns a member and key)`,
  );
  return { members: n, path, perKeyMs, perPopulationMs };
});
console.log(JSON.stringify({ bench: 'percentiles', radixFrom: RADIX_FROM, results }));
