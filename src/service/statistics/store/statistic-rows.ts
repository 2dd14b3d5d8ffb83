import {
  RANKING_KEYS,
  STATISTIC_NUMERIC_FIELDS,
  type PositionStatistic,
  type Ranking,
} from '../../../shared/api/statistics';
import type { ServiceDb } from '../../store/database';
import { metaValue } from '../../store/meta';

/** A `statistics` row: wire-named numeric columns, `rk_<key>` rankings, and bookkeeping. */
export type StatisticRow = Record<string, unknown> & {
  id: string;
  account: string;
  protocol: string;
  type: PositionStatistic['type'];
  gen_from: number;
  gen_to: number | null;
  index_tokens: string;
  pairs: string;
  is_open_position: number;
  last_trade_at_ms: number;
  statistic_at_ms: number;
  created_at_ms: number;
  updated_at_ms: number;
};

const iso = (ms: number) => new Date(ms).toISOString();

/** The statistic record of a row, as the API writes it (GraphQL extras included). */
export function statisticToWire(row: StatisticRow): PositionStatistic {
  const numbers = Object.fromEntries(STATISTIC_NUMERIC_FIELDS.map((f) => [f, row[f] as number | null]));
  return {
    ...(numbers as Pick<PositionStatistic, (typeof STATISTIC_NUMERIC_FIELDS)[number]>),
    id: row.id,
    account: row.account,
    type: row.type,
    protocol: row.protocol,
    lastTradeAt: iso(row.last_trade_at_ms),
    statisticAt: iso(row.statistic_at_ms),
    createdAt: iso(row.created_at_ms),
    updatedAt: iso(row.updated_at_ms),
    indexTokens: JSON.parse(row.index_tokens) as string[],
    pairs: JSON.parse(row.pairs) as string[],
    isOpenPosition: row.is_open_position === 1,
    unrealisedPnl: row.unrealisedPnl as number | null,
  };
}

/** The percentile ranking stored with a row. */
export function rankingOf(row: StatisticRow): Ranking {
  return Object.fromEntries(RANKING_KEYS.map((k) => [k, (row[`rk_${k}`] as number | null) ?? 0])) as Ranking;
}

/** The generation new readers see; a recompute moves it forward by one. */
export function currentGeneration(db: ServiceDb): number {
  return Number(metaValue(db, 'statistics_generation', () => '1'));
}

/** SQL that keeps the rows visible at generation `?` (bind the generation twice). */
export const VISIBLE_AT_GENERATION = 'gen_from <= ? AND (gen_to IS NULL OR gen_to > ?)';
/** SQL that keeps the current rows. */
export const CURRENT_ROWS = 'gen_to IS NULL';
