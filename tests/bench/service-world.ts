import { getAddress } from 'viem';
import { knownProtocols } from '../../src/service/market/catalogue';
import { SeededRandom } from '../../src/service/fixture/random';
import type { ServiceDb } from '../../src/service/store/database';
import { statisticId } from '../../src/service/statistics/store/writer';
import { markGenerationOne, plausibleRanks, plausibleValues, prepareStatisticInsert } from './bench-world';

const WINDOWS = ['FULL', 'D60', 'D30', 'D15', 'D7'] as const;

/**
 * Writes `count` statistic records straight into the store (8 protocols × 5 windows × accounts)
 * with plausible random values, none null: the benchmark measures serving, not computing.
 */
export function writeSyntheticStatistics(db: ServiceDb, count: number, nowMs: number): void {
  const random = new SeededRandom(42);
  const protocols = knownProtocols();
  const perPopulation = Math.ceil(count / (protocols.length * WINDOWS.length));
  const insert = prepareStatisticInsert(db);
  let written = 0;
  db.transaction(() => {
    for (const protocol of protocols) {
      for (let a = 0; a < perPopulation && written < count; a += 1) {
        const account = getAddress(`0x${random.hex(20)}`);
        for (const type of WINDOWS) {
          if (written >= count) break;
          const values = plausibleValues(random, false);
          const ranks = plausibleRanks(random);
          insert.run(
            statisticId(account, protocol, type),
            account,
            protocol,
            type,
            1,
            ...values,
            ...ranks,
            nowMs,
            nowMs,
            nowMs,
            nowMs,
          );
          written += 1;
        }
      }
    }
  })();
  markGenerationOne(db);
}
