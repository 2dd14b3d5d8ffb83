import type { Window } from '../../src/shared/api/common';
import { SeededRandom } from '../../src/service/fixture/random';
import type { ServiceDb } from '../../src/service/store/database';
import { statisticId } from '../../src/service/statistics/store/writer';
import { markGenerationOne, plausibleRanks, plausibleValues, prepareStatisticInsert } from './bench-world';

/**
 * Writes `count` statistic records of ONE population (one protocol, one window) straight into the
 * service's store, so that one dataset download moves them all (bench:core). Values are plausible
 * and random, a tenth of the nullable fields are null; rankings are random too: the benchmark
 * measures moving and filtering records, not computing them.
 */
export function writeOnePopulation(
  db: ServiceDb,
  protocol: string,
  window: Window,
  count: number,
  nowMs: number,
): void {
  const random = new SeededRandom(7);
  const insert = prepareStatisticInsert(db, ['index_tokens', 'pairs']);
  db.transaction(() => {
    for (let i = 0; i < count; i += 1) {
      // Lower-case hex: a valid address, and 10 s faster to make than 200,000 checksums.
      const account = `0x${random.hex(20)}`;
      const values = plausibleValues(random, true);
      const ranks = plausibleRanks(random);
      insert.run(
        statisticId(account, protocol, window),
        account,
        protocol,
        window,
        1,
        ...values,
        ...ranks,
        '["0x82af49447d8a07e3bd95bd0d56f35241523fbab1"]',
        '["ETH-USDT"]',
        nowMs - random.int(0, 86_400_000),
        nowMs,
        nowMs,
        nowMs,
      );
    }
  })();
  markGenerationOne(db);
}
