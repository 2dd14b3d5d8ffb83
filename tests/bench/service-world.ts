import { getAddress } from 'viem';
import { RANKING_KEYS, STATISTIC_NUMERIC_FIELDS } from '../../src/shared/api/statistics';
import { knownProtocols } from '../../src/service/market/catalogue';
import { SeededRandom } from '../../src/service/fixture/random';
import type { ServiceDb } from '../../src/service/store/database';
import { statisticId } from '../../src/service/statistics/writer';

const WINDOWS = ['FULL', 'D60', 'D30', 'D15', 'D7'] as const;

/**
 * Writes `count` statistic records straight into the store (8 protocols × 5 windows × accounts)
 * with plausible random values: the benchmark measures serving, not computing.
 */
export function writeSyntheticStatistics(db: ServiceDb, count: number, nowMs: number): void {
  const random = new SeededRandom(42);
  const protocols = knownProtocols();
  const perPopulation = Math.ceil(count / (protocols.length * WINDOWS.length));
  const numeric = [...STATISTIC_NUMERIC_FIELDS, 'unrealisedPnl'];
  const columns = [
    'id',
    'account',
    'protocol',
    'type',
    'gen_from',
    ...numeric.map((f) => `"${f}"`),
    ...RANKING_KEYS.map((k) => `"rk_${k}"`),
    'last_trade_at_ms',
    'statistic_at_ms',
    'created_at_ms',
    'updated_at_ms',
  ];
  const insert = db.prepare(
    `INSERT INTO statistics (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
  );
  let written = 0;
  db.transaction(() => {
    for (const protocol of protocols) {
      for (let a = 0; a < perPopulation && written < count; a += 1) {
        const account = getAddress(`0x${random.hex(20)}`);
        for (const type of WINDOWS) {
          if (written >= count) break;
          const values = numeric.map((f) => value(random, f));
          const ranks = RANKING_KEYS.map(() => Math.round(random.between(0, 100) * 100) / 100);
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
  db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('statistics_generation', '1')").run();
}

function value(random: SeededRandom, field: string): number {
  if (/Rate$/.test(field)) return Math.round(random.between(0, 100) * 100) / 100;
  if (field.startsWith('total') && !/Gain|Loss|Volume|Fee|Amount/.test(field)) return random.int(1, 500);
  if (/Duration/.test(field)) return random.int(60, 86_400 * 7);
  if (/Leverage/.test(field)) return random.between(1, 50);
  return Math.round(random.between(-50_000, 100_000) * 100) / 100;
}
