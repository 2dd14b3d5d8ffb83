import { RANKING_KEYS } from '../../src/shared/api/statistics';
import type { Window } from '../../src/shared/api/common';
import { rankPopulation, type RankingInput } from '../../src/service/statistics/formulas/rankings';
import { SeededRandom } from '../../src/service/fixture/random';
import type { ServiceDb } from '../../src/service/store/database';
import { currentGeneration } from '../../src/service/statistics/store/statistic-rows';
import {
  STATISTIC_NUMERIC_COLUMNS,
  statisticId,
  statisticInsertSql,
} from '../../src/service/statistics/store/writer';
import { storeGenerationJson } from '../../src/service/statistics/store/stored-json';
import { NULLABLE_STATISTICS } from '../../src/service/graphql/schema';

/** Fields that are counts (integers ≥ 0). */
const COUNTS = new Set([
  'totalTrade',
  'totalWin',
  'totalLose',
  'totalLiquidation',
  'winStreak',
  'loseStreak',
  'maxWinStreak',
  'maxLoseStreak',
]);

/**
 * Replaces one population (protocol and window) of the service's current statistics with `count`
 * synthetic records where nulls and ties are common (the fixture world has neither), ranked by the
 * service's own ranking code so that they are what a recompute would publish.
 */
export function replacePopulation(
  db: ServiceDb,
  protocol: string,
  window: Window,
  count: number,
  seed = 3,
): void {
  const random = new SeededRandom(seed);
  const numeric = STATISTIC_NUMERIC_COLUMNS;
  const records = Array.from({ length: count }, () => {
    const values: Record<string, number | null> = {};
    for (const f of numeric) {
      values[f] =
        NULLABLE_STATISTICS.has(f) && random.chance(0.25)
          ? null
          : COUNTS.has(f)
            ? random.int(0, 4)
            : random.pick([-20, -2.5, 0, 1, 3.25, 7, 50, 1234.5]);
    }
    return { account: `0x${random.hex(20)}`, values };
  });
  const rankings = rankPopulation(records.map((r) => r.values as unknown as RankingInput));
  const gen = currentGeneration(db);
  const insert = db.prepare(statisticInsertSql());
  db.transaction(() => {
    db.prepare('DELETE FROM statistics WHERE protocol = ? AND type = ?').run(protocol, window);
    db.prepare('DELETE FROM statistic_json WHERE protocol = ? AND type = ?').run(protocol, window);
    records.forEach((r, i) => {
      const at = 1_700_000_000_000 + random.int(0, 3) * 86_400_000;
      insert.run(
        statisticId(r.account, protocol, window),
        r.account,
        protocol,
        window,
        gen,
        ...numeric.map((f) => r.values[f] ?? null),
        ...RANKING_KEYS.map((k) => (rankings[i] as Record<string, number>)[k]),
        '["0x82af49447d8a07e3bd95bd0d56f35241523fbab1"]',
        random.chance(0.5) ? '["ETH-USDT"]' : '[]',
        random.int(0, 1),
        at,
        at,
        at,
        at,
      );
    });
    // As writeGeneration does: search-after reads each row's stored JSON.
    storeGenerationJson(db, gen);
  })();
}
