import type Database from 'better-sqlite3';
import { RANKING_KEYS } from '../../src/shared/api/statistics';
import type { SeededRandom } from '../../src/service/fixture/random';
import type { ServiceDb } from '../../src/service/store/database';
import { STATISTIC_NUMERIC_COLUMNS, statisticInsertSql } from '../../src/service/statistics/store/writer';
import { storeGenerationJson } from '../../src/service/statistics/store/stored-json';

/**
 * What the synthetic statistic worlds of the benchmarks share (core-world for bench:core,
 * service-world for bench:service): the insert into `statistics`, plausible random values and
 * rankings, and the generation mark. The benchmarks measure moving, serving and filtering
 * records, not computing them.
 */

/**
 * The statement inserting one record: id, account, protocol, type, gen_from, the numeric fields,
 * the rankings, then `extraColumns`, then last_trade_at_ms, statistic_at_ms, created_at_ms and
 * updated_at_ms; run it with the values in that order.
 */
export function prepareStatisticInsert(
  db: ServiceDb,
  extraColumns: readonly string[] = [],
): Database.Statement {
  return db.prepare(statisticInsertSql(extraColumns));
}

/** One record's numeric fields, in the insert's order; with `nulls`, a tenth of the nullable ones are null. */
export function plausibleValues(random: SeededRandom, nulls: boolean): (number | null)[] {
  return STATISTIC_NUMERIC_COLUMNS.map((f) => plausibleValue(random, f, nulls));
}

/** One record's rankings, in the insert's order: random percentiles with two decimals. */
export function plausibleRanks(random: SeededRandom): number[] {
  return RANKING_KEYS.map(() => Math.round(random.between(0, 100) * 100) / 100);
}

/**
 * Marks the records written as statistics generation 1 (their gen_from), and stores their JSON
 * as `writeGeneration` would: search-after reads it.
 */
export function markGenerationOne(db: ServiceDb): void {
  db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('statistics_generation', '1')").run();
  storeGenerationJson(db, 1);
}

function plausibleValue(random: SeededRandom, field: string, nulls: boolean): number | null {
  if (nulls && /^(min|max)(Duration|Leverage)$|Drawdown/.test(field) && random.chance(0.1)) return null;
  if (/Rate$/.test(field)) return Math.round(random.between(0, 100) * 100) / 100;
  if (field.startsWith('total') && !/Gain|Loss|Volume|Fee|Amount/.test(field)) return random.int(1, 500);
  if (/Duration/.test(field)) return random.int(60, 86_400 * 7);
  if (/Streak$/.test(field)) return random.int(0, 30);
  if (/Leverage/.test(field)) return random.between(1, 50);
  return Math.round(random.between(-50_000, 100_000) * 100) / 100;
}
