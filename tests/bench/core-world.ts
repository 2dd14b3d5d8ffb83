import { RANKING_KEYS, STATISTIC_NUMERIC_FIELDS } from '../../src/shared/api/statistics';
import type { Window } from '../../src/shared/api/common';
import { SeededRandom } from '../../src/service/fixture/random';
import type { ServiceDb } from '../../src/service/store/database';
import { statisticId } from '../../src/service/statistics/writer';

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
  const numeric = [...STATISTIC_NUMERIC_FIELDS, 'unrealisedPnl'];
  const columns = [
    'id',
    'account',
    'protocol',
    'type',
    'gen_from',
    ...numeric.map((f) => `"${f}"`),
    ...RANKING_KEYS.map((k) => `"rk_${k}"`),
    'index_tokens',
    'pairs',
    'last_trade_at_ms',
    'statistic_at_ms',
    'created_at_ms',
    'updated_at_ms',
  ];
  const insert = db.prepare(
    `INSERT INTO statistics (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
  );
  db.transaction(() => {
    for (let i = 0; i < count; i += 1) {
      // Lower-case hex: a valid address, and 10 s faster to make than 200,000 checksums.
      const account = `0x${random.hex(20)}`;
      const values = numeric.map((f) => value(random, f));
      const ranks = RANKING_KEYS.map(() => Math.round(random.between(0, 100) * 100) / 100);
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
  db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('statistics_generation', '1')").run();
}

function value(random: SeededRandom, field: string): number | null {
  if (/^(min|max)(Duration|Leverage)$|Drawdown/.test(field) && random.chance(0.1)) return null;
  if (/Rate$/.test(field)) return Math.round(random.between(0, 100) * 100) / 100;
  if (field.startsWith('total') && !/Gain|Loss|Volume|Fee|Amount/.test(field)) return random.int(1, 500);
  if (/Duration/.test(field)) return random.int(60, 86_400 * 7);
  if (/Leverage/.test(field)) return random.between(1, 50);
  return Math.round(random.between(-50_000, 100_000) * 100) / 100;
}
