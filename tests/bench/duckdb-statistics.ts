// A DuckDB reference implementation of the trader statistics (docs/semantics.md, Windows,
// Statistic record, Ranking), for the benchmark that compares our TypeScript engine with SQL.
//
// It makes the same choices as src/service/statistics/formulas/{windows,statistics,rankings}.ts:
// - D7..D60 hold the closed positions with close time in [T0 − n days, T0), T0 = 00:00 UTC of now;
//   FULL holds every closed position, including those closed today.
// - A record exists only when its window has a closed position; min/max of nothing are null and
//   empty-denominator ratios are 0 (safe_div below is the engine's safeDiv).
// - G / L split realisedPnl and pnl by the sign of realisedPnl; a liquidation counts only when the
//   position is not a win.
// - runTimeDays, lastTradeAt(Ts), isOpenPosition and unrealisedPnl look at every position of the
//   trader on the protocol; an open position whose token has no mark price adds 0.
// - indexTokens and pairs are sorted and distinct.
// - ranking = 100 × #(strictly worse) / (N − 1) rounded to 2 decimals, 100 when N = 1, a null
//   (or non-finite) value is the worst.
//
// How it works:
// - Load: an appender takes one data chunk per 2,048 rows; each typed-array slice is copied
//   straight into the chunk's vectors (@duckdb/node-bindings, which @duckdb/node-api is built
//   on), closeTimeMs NaN becoming SQL NULL. Tokens (address, pair, mark price) go to a small table.
// - Values (table rec): each closed position gets the smallest window holding it (4 D7, 3 D15,
//   2 D30, 1 D60, 0 FULL only) and is repeated once per window level w ≤ that (0 FULL, 1 D60,
//   2 D30, 3 D15, 4 D7) with unnest, which keeps table order; one GROUP BY (protocol, account, w)
//   gives sums, counts, extremes and the token set (bitstring_agg). Trader-wide facts and the
//   unrealised PnL of open positions are two more GROUP BYs, joined in.
// - Token sets: the distinct sets, each with its sorted addresses and pairs (a few thousand rows).
// - Rankings: rank() window functions per key over (protocol, window) on the narrow key columns.
//
// DuckDB's sum of DOUBLE adds a group's rows in the order they come, here table order, which is
// also the engine's order: the sums are bit-identical to the engine's, so values that tie in the
// engine tie here too (a group that two threads happen to split would agree only to rounding).
// Summing per smallest-window bucket and then adding the buckets up instead would be faster, but
// it changes the rounding of mathematically equal sums (cents), and with it the rankings of
// ~0.01 % of the records (1,000,000 generated positions).
//
// It covers the record of the spec and the spec's 13 ranking keys. The statistics added for real
// clients (long/short split, streaks, Sharpe and Sortino, and their rankings) are not in it: the
// comparison checks the fields the reference computes, and unit tests check the others
// (tests/unit/service/statistics/formulas/added-statistics.test.ts).
import duckdb from '@duckdb/node-bindings';
import { BOOLEAN, DOUBLE, DuckDBDataChunk, DuckDBInstance, UINTEGER, USMALLINT } from '@duckdb/node-api';
import type { DuckDBConnection, DuckDBType } from '@duckdb/node-api';
import { computeTraderStatistics } from '../../src/service/statistics/formulas/statistics';
import type { StatisticValues } from '../../src/service/statistics/formulas/statistics';
import { RANKING_DIRECTION, rankPopulation } from '../../src/service/statistics/formulas/rankings';
import type { MarkPriceOf, PositionFacts } from '../../src/service/statistics/formulas/position-facts';
import { DAY_MS, WINDOW_DAYS, dayStartMs } from '../../src/service/statistics/formulas/windows';
import type { Window } from '../../src/service/statistics/formulas/windows';
import { SPEC_RANKING_KEYS } from '../../src/shared/api/statistics';
import type { Ranking } from '../../src/shared/api/statistics';
import type { PositionColumns } from './position-columns';

/** One computed record: its values and its ranking within (protocol, window). */
export interface StatisticRecord {
  values: ReferenceValues;
  ranking: Ranking;
}

type AddedField = Extract<
  keyof StatisticValues,
  | 'longPnl'
  | 'realisedLongPnl'
  | 'shortPnl'
  | 'realisedShortPnl'
  | 'totalLongVolume'
  | 'totalShortVolume'
  | 'winStreak'
  | 'loseStreak'
  | 'maxWinStreak'
  | 'maxLoseStreak'
  | 'sharpeRatio'
  | 'realisedSharpeRatio'
  | 'sortinoRatio'
  | 'realisedSortinoRatio'
>;
/** The fields of a record the reference computes: the spec's (ours has more; see the top). */
export type ReferenceValues = Omit<StatisticValues, AddedField>;
type RankingKey = (typeof SPEC_RANKING_KEYS)[number];

/** Records keyed `${protocol}|${account}|${window}`. */
export type StatisticRecords = Map<string, StatisticRecord>;

/** Mark price of each token, by token index; NaN (or a missing entry) means no mark price. */
export type MarkPrices = ArrayLike<number>;

export interface DuckdbStatisticsResult {
  /** SQL computation plus reading the results back (not the load). */
  seconds: number;
  /** Loading the columns into DuckDB. */
  loadSeconds: number;
  records: StatisticRecords;
}

/** The key of a record in StatisticRecords. */
export const recordKey = (protocol: string, account: string, window: Window): string =>
  `${protocol}|${account}|${window}`;

/** Window of each level w of the SQL. */
const LEVEL_WINDOWS = ['FULL', 'D60', 'D30', 'D15', 'D7'] as const satisfies readonly Window[];

const markOf = (markPrice: MarkPrices | undefined, token: number): number | undefined => {
  const mark = markPrice?.[token];
  return mark === undefined || Number.isNaN(mark) ? undefined : mark;
};

// ---------------------------------------------------------------------------------------------
// Loading

interface LoadedColumn {
  name: string;
  sql: string;
  type: DuckDBType;
  data: (c: PositionColumns) => Uint8Array | Uint16Array | Uint32Array | Float64Array;
  kind: 'copy' | 'bool' | 'nanIsNull';
}

const LOADED: readonly LoadedColumn[] = [
  { name: 'protocol', sql: 'USMALLINT', type: USMALLINT, data: (c) => c.protocol, kind: 'copy' },
  { name: 'account', sql: 'UINTEGER', type: UINTEGER, data: (c) => c.account, kind: 'copy' },
  { name: 'token', sql: 'USMALLINT', type: USMALLINT, data: (c) => c.token, kind: 'copy' },
  { name: 'is_long', sql: 'BOOLEAN', type: BOOLEAN, data: (c) => c.isLong, kind: 'bool' },
  { name: 'is_liquidate', sql: 'BOOLEAN', type: BOOLEAN, data: (c) => c.isLiquidate, kind: 'bool' },
  { name: 'size', sql: 'DOUBLE', type: DOUBLE, data: (c) => c.size, kind: 'copy' },
  { name: 'collateral', sql: 'DOUBLE', type: DOUBLE, data: (c) => c.collateral, kind: 'copy' },
  { name: 'average_price', sql: 'DOUBLE', type: DOUBLE, data: (c) => c.averagePrice, kind: 'copy' },
  { name: 'realised_pnl', sql: 'DOUBLE', type: DOUBLE, data: (c) => c.realisedPnl, kind: 'copy' },
  { name: 'fee', sql: 'DOUBLE', type: DOUBLE, data: (c) => c.fee, kind: 'copy' },
  { name: 'funding', sql: 'DOUBLE', type: DOUBLE, data: (c) => c.funding, kind: 'copy' },
  { name: 'open_ms', sql: 'DOUBLE', type: DOUBLE, data: (c) => c.openTimeMs, kind: 'copy' },
  // NaN (open) becomes SQL NULL.
  { name: 'close_ms', sql: 'DOUBLE', type: DOUBLE, data: (c) => c.closeTimeMs, kind: 'nanIsNull' },
  { name: 'order_count', sql: 'USMALLINT', type: USMALLINT, data: (c) => c.orderCount, kind: 'copy' },
];

/**
 * Appends the columns to table `positions` with an appender, one data chunk per vector-size
 * batch, copying each typed-array slice straight into the chunk's vectors.
 */
async function loadPositions(connection: DuckDBConnection, c: PositionColumns): Promise<void> {
  await connection.run(
    `CREATE TABLE positions (${LOADED.map((col) => `${col.name} ${col.sql}`).join(', ')})`,
  );
  const appender = await connection.createAppender('positions');
  const batch = duckdb.vector_size();
  const chunk = DuckDBDataChunk.create(LOADED.map((col) => col.type));
  const bools = new Uint8Array(batch);
  // Validity bits, row i at bit i % 8 of byte i / 8 (DuckDB's uint64 words, little-endian).
  const validity = new Uint8Array(Math.ceil(batch / 64) * 8);
  const arrays = LOADED.map((col) => col.data(c));
  for (let start = 0; start < c.count; start += batch) {
    const n = Math.min(batch, c.count - start);
    duckdb.data_chunk_reset(chunk.chunk);
    chunk.rowCount = n;
    LOADED.forEach((col, j) => {
      const vector = duckdb.data_chunk_get_vector(chunk.chunk, j);
      const array = arrays[j] as (typeof arrays)[number];
      if (col.kind === 'bool') {
        for (let i = 0; i < n; i += 1) bools[i] = array[start + i] ? 1 : 0;
        duckdb.copy_data_to_vector(vector, 0, bools.buffer, 0, n);
        return;
      }
      const bytes = array.BYTES_PER_ELEMENT;
      duckdb.copy_data_to_vector(
        vector,
        0,
        array.buffer as ArrayBuffer,
        array.byteOffset + start * bytes,
        n * bytes,
      );
      if (col.kind === 'nanIsNull') {
        validity.fill(0);
        for (let i = 0; i < n; i += 1) {
          if (!Number.isNaN(array[start + i]))
            validity[i >>> 3] = (validity[i >>> 3] as number) | (1 << (i & 7));
        }
        duckdb.vector_ensure_validity_writable(vector);
        duckdb.copy_data_to_vector_validity(vector, 0, validity.buffer, 0, validity.byteLength);
      }
    });
    appender.appendDataChunk(chunk);
  }
  appender.closeSync();
}

/** The token dictionary: address, pair and mark price (NULL when none) by token index. */
async function loadTokens(
  connection: DuckDBConnection,
  c: PositionColumns,
  markPrice: MarkPrices | undefined,
): Promise<void> {
  await connection.run('CREATE TABLE tokens (token USMALLINT, address VARCHAR, pair VARCHAR, mark DOUBLE)');
  const appender = await connection.createAppender('tokens');
  const tokenCount = Math.max(c.tokens.length, c.pairs.length);
  for (let t = 0; t < tokenCount; t += 1) {
    appender.appendUSmallInt(t);
    appender.appendVarchar(c.tokens[t] ?? '');
    appender.appendVarchar(c.pairs[t] ?? '');
    const mark = markOf(markPrice, t);
    if (mark === undefined) appender.appendNull();
    else appender.appendDouble(mark);
    appender.endRow();
  }
  appender.closeSync();
}

// ---------------------------------------------------------------------------------------------
// The SQL

/** A number as a DOUBLE literal (exact: JS prints the shortest round-tripping decimal). */
const dbl = (x: number): string => `(${String(x)})::DOUBLE`;

const MACROS = `
CREATE MACRO safe_div(a, b) AS coalesce(CASE WHEN isfinite(a / b) THEN a / b END, 0::DOUBLE);
CREATE MACRO finite_or_null(x) AS CASE WHEN isfinite(x) THEN x END;
CREATE MACRO drawdown(x) AS CASE WHEN isfinite(x) THEN least(0::DOUBLE, x) END;
CREATE MACRO iso_ms(ms) AS strftime(epoch_ms(trunc(ms)::BIGINT), '%Y-%m-%dT%H:%M:%S.%gZ');
`;

/**
 * Table `rec`: the values of every record (protocol, account, level w) and its token set.
 *
 * Each closed position is repeated once per window level it belongs to (unnest keeps the rows in
 * table order) and aggregated per (protocol, account, w). DuckDB's sum of DOUBLE adds in row order
 * within a group, which is the engine's order, so the sums are bit-identical to the engine's
 * (except for a group whose rows two threads happen to split; then they agree to rounding). Ties
 * in the rankings therefore come out as the engine's.
 */
function recordsSql(nowMs: number, tokenCount: number): string {
  const t0 = dayStartMs(nowMs);
  const from = (w: keyof typeof WINDOW_DAYS) => dbl(t0 - WINDOW_DAYS[w] * DAY_MS);
  const now = dbl(nowMs);
  // The engine adds realisedPnl (or pnl) to G when a win and to L otherwise; adding 0 instead
  // leaves a double sum unchanged, so CASE sums give the same numbers without FILTER.
  return `
CREATE TEMP TABLE rec AS
WITH p AS (
  SELECT protocol, account, token, is_long, is_liquidate, size, realised_pnl, fee, order_count,
    realised_pnl - fee + funding AS pnl,
    safe_div(realised_pnl - fee + funding, collateral) * 100 AS roi,
    safe_div(realised_pnl, collateral) * 100 AS rroi,
    safe_div(size, collateral) AS lev,
    (close_ms - open_ms) / 1000 AS dur,
    realised_pnl > 0 AS win,
    -- The smallest window holding the position: 4 D7, 3 D15, 2 D30, 1 D60, 0 FULL only.
    CASE
      WHEN close_ms >= ${dbl(t0)} OR close_ms < ${from('D60')} THEN 0
      WHEN close_ms >= ${from('D7')} THEN 4
      WHEN close_ms >= ${from('D15')} THEN 3
      WHEN close_ms >= ${from('D30')} THEN 2
      ELSE 1
    END AS bucket
  FROM positions
  WHERE close_ms IS NOT NULL
),
-- One row per (closed position, window level w ≤ bucket), in table order.
pl AS (SELECT *, unnest(range(0, bucket + 1)) AS w FROM p),
r AS (
  SELECT protocol, account, w,
    count(*)::DOUBLE AS n,
    count_if(win)::DOUBLE AS wins,
    count_if(is_long)::DOUBLE AS longs,
    sum(order_count)::DOUBLE AS orders,
    sum(realised_pnl) AS realised,
    sum(pnl) AS pnl,
    sum(fee) AS fee,
    sum(size) AS volume,
    sum(CASE WHEN win THEN realised_pnl ELSE 0::DOUBLE END) AS gain_r,
    sum(CASE WHEN win THEN 0::DOUBLE ELSE realised_pnl END) AS loss_r,
    sum(CASE WHEN win THEN pnl ELSE 0::DOUBLE END) AS gain,
    sum(CASE WHEN win THEN 0::DOUBLE ELSE pnl END) AS loss,
    sum(rroi) AS sum_rroi,
    sum(roi) AS sum_roi,
    sum(dur) AS sum_dur,
    sum(lev) AS sum_lev,
    count_if(is_liquidate AND NOT win)::DOUBLE AS liq,
    sum(CASE WHEN is_liquidate AND NOT win THEN realised_pnl ELSE 0::DOUBLE END) AS liq_amount,
    max(rroi) AS max_rroi, max(roi) AS max_roi, max(realised_pnl) AS max_rpnl, max(pnl) AS max_pnl,
    min(rroi) AS min_rroi, min(roi) AS min_roi, min(realised_pnl) AS min_rpnl, min(pnl) AS min_pnl,
    min(dur) AS min_dur, max(dur) AS max_dur, min(lev) AS min_lev, max(lev) AS max_lev,
    bitstring_agg(token, 0, ${Math.max(1, tokenCount) - 1}) AS token_set
  FROM pl
  GROUP BY protocol, account, w
),
-- Trader-wide facts, over every position whatever the window.
tw AS (
  SELECT protocol, account, min(open_ms) AS first_open, max(close_ms) AS last_close,
    bool_or(close_ms IS NULL) AS has_open
  FROM positions
  GROUP BY protocol, account
),
o AS (
  SELECT q.protocol, q.account,
    sum((CASE WHEN q.is_long THEN 1 ELSE -1 END)
      * (safe_div(t.mark - q.average_price, q.average_price) * q.size) + 0) AS unrealised
  FROM positions q JOIN tokens t ON t.token = q.token
  WHERE q.close_ms IS NULL AND t.mark IS NOT NULL
  GROUP BY q.protocol, q.account
)
SELECT r.protocol, r.account, r.w, r.token_set,
  r.n AS "totalTrade",
  r.wins AS "totalWin",
  r.n - r.wins AS "totalLose",
  r.gain_r AS "realisedTotalGain",
  r.loss_r AS "realisedTotalLoss",
  r.gain AS "totalGain",
  r.loss AS "totalLoss",
  r.realised AS "realisedPnl",
  r.pnl AS "pnl",
  r.fee AS "totalFee",
  r.volume AS "totalVolume",
  r.liq AS "totalLiquidation",
  r.liq_amount AS "totalLiquidationAmount",
  safe_div(r.volume, r.n) AS "avgVolume",
  safe_div(r.sum_rroi, r.n) AS "realisedAvgRoi",
  safe_div(r.sum_roi, r.n) AS "avgRoi",
  safe_div(r.wins, r.n) * 100 AS "winRate",
  safe_div(r.longs, r.n) * 100 AS "longRate",
  safe_div(r.orders, r.n) AS "orderPositionRatio",
  safe_div(r.sum_dur, r.n) AS "avgDuration",
  safe_div(r.sum_lev, r.n) AS "avgLeverage",
  safe_div(r.gain_r, r.gain_r + abs(r.loss_r)) * 100 AS "realisedProfitRate",
  safe_div(r.gain, r.gain + abs(r.loss)) * 100 AS "profitRate",
  CASE WHEN r.wins = 0 OR r.n - r.wins = 0 OR r.loss_r = 0 THEN 0::DOUBLE
    ELSE safe_div(r.gain_r / r.wins, abs(r.loss_r) / (r.n - r.wins)) END AS "realisedProfitLossRatio",
  CASE WHEN r.wins = 0 OR r.n - r.wins = 0 OR r.loss = 0 THEN 0::DOUBLE
    ELSE safe_div(r.gain / r.wins, abs(r.loss) / (r.n - r.wins)) END AS "profitLossRatio",
  CASE WHEN r.loss_r = 0 THEN r.gain_r ELSE safe_div(r.gain_r, abs(r.loss_r)) END
    AS "realisedGainLossRatio",
  CASE WHEN r.loss = 0 THEN r.gain ELSE safe_div(r.gain, abs(r.loss)) END AS "gainLossRatio",
  coalesce(finite_or_null(r.max_rroi), 0::DOUBLE) AS "realisedMaxRoi",
  coalesce(finite_or_null(r.max_roi), 0::DOUBLE) AS "maxRoi",
  coalesce(finite_or_null(r.max_rpnl), 0::DOUBLE) AS "realisedMaxPnl",
  coalesce(finite_or_null(r.max_pnl), 0::DOUBLE) AS "maxPnl",
  drawdown(r.min_rroi) AS "realisedMaxDrawdown",
  drawdown(r.min_roi) AS "maxDrawdown",
  drawdown(r.min_rpnl) AS "realisedMaxDrawdownPnl",
  drawdown(r.min_pnl) AS "maxDrawdownPnl",
  finite_or_null(r.min_dur) AS "minDuration",
  finite_or_null(r.max_dur) AS "maxDuration",
  finite_or_null(r.min_lev) AS "minLeverage",
  finite_or_null(r.max_lev) AS "maxLeverage",
  greatest(0::DOUBLE, floor((${now} - tw.first_open) / ${DAY_MS})) AS "runTimeDays",
  coalesce(finite_or_null(tw.last_close), ${now}) AS "lastTradeAtTs",
  iso_ms(coalesce(finite_or_null(tw.last_close), ${now})) AS "lastTradeAt",
  tw.has_open AS "isOpenPosition",
  coalesce(o.unrealised, 0::DOUBLE) AS "unrealisedPnl"
FROM r
JOIN tw ON tw.protocol = r.protocol AND tw.account = r.account
LEFT JOIN o ON o.protocol = r.protocol AND o.account = r.account
`;
}

/** Table `token_sets`: the sorted distinct addresses and pairs of every token set in `rec`. */
const TOKEN_SETS_SQL = `
CREATE TEMP TABLE token_sets AS
SELECT (row_number() OVER () - 1)::DOUBLE AS set_id, token_set, "indexTokens", pairs
FROM (
  SELECT s.token_set,
    list_sort(list_distinct(list(t.address))) AS "indexTokens",
    list_sort(list_distinct(list(t.pair))) AS pairs
  FROM (SELECT DISTINCT token_set FROM rec) s
  JOIN tokens t ON get_bit(s.token_set, t.token) = 1
  GROUP BY s.token_set
)
`;

/** Ranking column of one key: 100 × (rank − 1) / (N − 1) with the worst first in the order. */
function rankingSql(key: RankingKey): string {
  const worstFirst = RANKING_DIRECTION[key] === 'lowerIsBetter' ? 'DESC' : 'ASC';
  const order = `ORDER BY finite_or_null("${key}") ${worstFirst} NULLS FIRST`;
  // rank() − 1 = the number of rows before the first of its ties = the strictly worse ones.
  const worse = `(rank() OVER (PARTITION BY protocol, w ${order}) - 1)`;
  return `CASE WHEN count(*) OVER pw = 1 THEN 100::DOUBLE
      ELSE round((100 * ${worse})::DOUBLE / (count(*) OVER pw - 1)::DOUBLE * 100) / 100
    END AS "rk_${key}"`;
}

/** Every record with its rankings (window functions over the narrow key columns) and token set id. */
const RESULT_SQL = `
WITH ranked AS (
  SELECT protocol, account, w,
    ${SPEC_RANKING_KEYS.map(rankingSql).join(',\n    ')}
  FROM rec
  WINDOW pw AS (PARTITION BY protocol, w)
)
SELECT rec.protocol::DOUBLE AS protocol, rec.account::DOUBLE AS account, rec.w::DOUBLE AS w,
  rec.* EXCLUDE (protocol, account, w, token_set),
  ranked.* EXCLUDE (protocol, account, w),
  token_sets.set_id
FROM rec
JOIN ranked ON ranked.protocol = rec.protocol AND ranked.account = rec.account AND ranked.w = rec.w
JOIN token_sets ON token_sets.token_set = rec.token_set
`;

// ---------------------------------------------------------------------------------------------
// Reading back

/** Numeric value fields, read from DOUBLE columns of the same name. */
const NUMERIC_FIELDS = [
  'totalTrade',
  'totalWin',
  'totalLose',
  'realisedTotalGain',
  'realisedTotalLoss',
  'totalGain',
  'totalLoss',
  'realisedPnl',
  'pnl',
  'totalFee',
  'totalVolume',
  'totalLiquidation',
  'totalLiquidationAmount',
  'avgVolume',
  'realisedAvgRoi',
  'avgRoi',
  'winRate',
  'longRate',
  'orderPositionRatio',
  'avgDuration',
  'avgLeverage',
  'realisedProfitRate',
  'profitRate',
  'realisedProfitLossRatio',
  'profitLossRatio',
  'realisedGainLossRatio',
  'gainLossRatio',
  'realisedMaxRoi',
  'maxRoi',
  'realisedMaxPnl',
  'maxPnl',
  'realisedMaxDrawdown',
  'maxDrawdown',
  'realisedMaxDrawdownPnl',
  'maxDrawdownPnl',
  'minDuration',
  'maxDuration',
  'minLeverage',
  'maxLeverage',
  'runTimeDays',
  'lastTradeAtTs',
  'unrealisedPnl',
] as const satisfies readonly (keyof ReferenceValues)[];

type NumericField = (typeof NUMERIC_FIELDS)[number];

/** Reads one row of a column. */
type Accessor = (row: number) => number | null;

/** A DOUBLE column of a result chunk, read in place: null for SQL NULL. */
function doubleColumn(chunk: DuckDBDataChunk, column: number, rows: number): Accessor {
  const vector = duckdb.data_chunk_get_vector(chunk.chunk, column);
  const bytes = duckdb.vector_get_data(vector, rows * 8);
  const data =
    bytes.byteOffset % 8 === 0
      ? new Float64Array(bytes.buffer, bytes.byteOffset, rows)
      : new Float64Array(bytes.slice().buffer, 0, rows);
  const validity = duckdb.vector_get_validity(vector, Math.ceil(rows / 64) * 8) as Uint8Array | null;
  if (!validity || validity.length === 0) return (row) => data[row] as number;
  return (row) => (((validity[row >>> 3] as number) >>> (row & 7)) & 1 ? (data[row] as number) : null);
}

/** The sorted address and pair lists of each token set, by set id. */
async function readTokenSets(connection: DuckDBConnection): Promise<{ tokens: string[]; pairs: string[] }[]> {
  const reader = await connection.runAndReadAll('SELECT set_id, "indexTokens", pairs FROM token_sets');
  const sets: { tokens: string[]; pairs: string[] }[] = [];
  for (const [id, tokens, pairs] of reader.getRowsJS()) {
    sets[Number(id)] = { tokens: (tokens as string[]) ?? [], pairs: (pairs as string[]) ?? [] };
  }
  return sets;
}

async function readRecords(
  connection: DuckDBConnection,
  c: PositionColumns,
  statisticAt: string,
): Promise<StatisticRecords> {
  const sets = await readTokenSets(connection);
  // Streamed: DuckDB produces chunks as they are read rather than materializing all rows first.
  const result = await connection.stream(RESULT_SQL);
  const names = result.columnNames();
  const column = (name: string): number => {
    const i = names.indexOf(name);
    if (i < 0) throw new Error(`DuckDB result has no column ${name}`);
    return i;
  };
  const records: StatisticRecords = new Map();
  for (
    let chunk = await result.fetchChunk();
    chunk && chunk.rowCount > 0;
    chunk = await result.fetchChunk()
  ) {
    const rows = chunk.rowCount;
    const num = (name: string) => doubleColumn(chunk, column(name), rows);
    const protocol = num('protocol');
    const account = num('account');
    const level = num('w');
    const setId = num('set_id');
    const v = Object.fromEntries(NUMERIC_FIELDS.map((f) => [f, num(f)])) as Record<NumericField, Accessor>;
    const k = Object.fromEntries(SPEC_RANKING_KEYS.map((key) => [key, num(`rk_${key}`)])) as Record<
      RankingKey,
      Accessor
    >;
    const lastTradeAt = chunk.getColumnVector(column('lastTradeAt'));
    const isOpen = chunk.getColumnVector(column('isOpenPosition'));
    for (let row = 0; row < rows; row += 1) {
      const set = sets[setId(row) as number];
      // Object literals, so that every record has the same shape (one hidden class).
      const values: ReferenceValues = {
        totalTrade: v.totalTrade(row) as number,
        totalWin: v.totalWin(row) as number,
        totalLose: v.totalLose(row) as number,
        realisedTotalGain: v.realisedTotalGain(row) as number,
        realisedTotalLoss: v.realisedTotalLoss(row) as number,
        totalGain: v.totalGain(row) as number,
        totalLoss: v.totalLoss(row) as number,
        realisedPnl: v.realisedPnl(row) as number,
        pnl: v.pnl(row) as number,
        totalFee: v.totalFee(row) as number,
        totalVolume: v.totalVolume(row) as number,
        totalLiquidation: v.totalLiquidation(row) as number,
        totalLiquidationAmount: v.totalLiquidationAmount(row) as number,
        avgVolume: v.avgVolume(row) as number,
        realisedAvgRoi: v.realisedAvgRoi(row) as number,
        avgRoi: v.avgRoi(row) as number,
        winRate: v.winRate(row) as number,
        longRate: v.longRate(row) as number,
        orderPositionRatio: v.orderPositionRatio(row) as number,
        avgDuration: v.avgDuration(row) as number,
        avgLeverage: v.avgLeverage(row) as number,
        realisedProfitRate: v.realisedProfitRate(row) as number,
        profitRate: v.profitRate(row) as number,
        realisedProfitLossRatio: v.realisedProfitLossRatio(row) as number,
        profitLossRatio: v.profitLossRatio(row) as number,
        realisedGainLossRatio: v.realisedGainLossRatio(row) as number,
        gainLossRatio: v.gainLossRatio(row) as number,
        realisedMaxRoi: v.realisedMaxRoi(row) as number,
        maxRoi: v.maxRoi(row) as number,
        realisedMaxPnl: v.realisedMaxPnl(row) as number,
        maxPnl: v.maxPnl(row) as number,
        realisedMaxDrawdown: v.realisedMaxDrawdown(row),
        maxDrawdown: v.maxDrawdown(row),
        realisedMaxDrawdownPnl: v.realisedMaxDrawdownPnl(row),
        maxDrawdownPnl: v.maxDrawdownPnl(row),
        minDuration: v.minDuration(row),
        maxDuration: v.maxDuration(row),
        minLeverage: v.minLeverage(row),
        maxLeverage: v.maxLeverage(row),
        runTimeDays: v.runTimeDays(row) as number,
        lastTradeAtTs: v.lastTradeAtTs(row) as number,
        lastTradeAt: String(lastTradeAt.getItem(row)),
        unrealisedPnl: v.unrealisedPnl(row) as number,
        isOpenPosition: isOpen.getItem(row) === true,
        statisticAt,
        indexTokens: set?.tokens ?? [],
        pairs: set?.pairs ?? [],
      };
      const ranking: Ranking = {
        avgDuration: k.avgDuration(row) as number,
        avgLeverage: k.avgLeverage(row) as number,
        avgVolume: k.avgVolume(row) as number,
        orderPositionRatio: k.orderPositionRatio(row) as number,
        pnl: k.pnl(row) as number,
        realisedAvgRoi: k.realisedAvgRoi(row) as number,
        realisedMaxDrawdown: k.realisedMaxDrawdown(row) as number,
        realisedMaxRoi: k.realisedMaxRoi(row) as number,
        realisedPnl: k.realisedPnl(row) as number,
        realisedProfitLossRatio: k.realisedProfitLossRatio(row) as number,
        realisedProfitRate: k.realisedProfitRate(row) as number,
        totalTrade: k.totalTrade(row) as number,
        winRate: k.winRate(row) as number,
      };
      const key = recordKey(
        c.protocols[protocol(row) as number] as string,
        c.accounts[account(row) as number] as string,
        LEVEL_WINDOWS[level(row) as number] as Window,
      );
      records.set(key, { values, ranking });
    }
  }
  return records;
}

// ---------------------------------------------------------------------------------------------
// Entry points

const elapsedSeconds = (fromMs: number): number => (performance.now() - fromMs) / 1000;

/**
 * Every statistic record (account, protocol, window) of `columns` at `nowMs`, with its 13 rankings,
 * computed by DuckDB (in memory, 2 threads). `markPrice[token]` prices open positions (NaN: none).
 * Records of one token set share their indexTokens and pairs arrays.
 */
export async function duckdbStatistics(
  columns: PositionColumns,
  nowMs: number,
  markPrice?: MarkPrices,
): Promise<DuckdbStatisticsResult> {
  const instance = await DuckDBInstance.create(':memory:', { threads: '2' });
  const connection = await instance.connect();
  try {
    const loadStart = performance.now();
    await loadPositions(connection, columns);
    await loadTokens(connection, columns, markPrice);
    const loadSeconds = elapsedSeconds(loadStart);

    const start = performance.now();
    await connection.run(MACROS);
    const at = await connection.runAndReadAll(`SELECT iso_ms(${dbl(nowMs)})`);
    const statisticAt = String(at.getRows()[0]?.[0]);
    await connection.run(recordsSql(nowMs, columns.tokens.length));
    await connection.run(TOKEN_SETS_SQL);
    const records = await readRecords(connection, columns, statisticAt);
    return { seconds: elapsedSeconds(start), loadSeconds, records };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/**
 * The straightforward adapter from columns to OUR engine, the reference the SQL is checked
 * against: PositionFacts per (protocol, account) run, computeTraderStatistics on each, then
 * rankPopulation on each (protocol, window) population.
 */
export function engineStatisticsFromColumns(
  c: PositionColumns,
  nowMs: number,
  markPrice?: MarkPrices,
): StatisticRecords {
  const markByAddress = new Map<string, number>();
  c.tokens.forEach((address, t) => {
    const mark = markOf(markPrice, t);
    if (mark !== undefined) markByAddress.set(address, mark);
  });
  const mark: MarkPriceOf = (indexToken) => markByAddress.get(indexToken);
  const order = traderOrder(c);
  const populations = new Map<string, { keys: string[]; values: StatisticValues[] }>();
  for (let start = 0; start < order.length;) {
    const first = order[start] as number;
    let end = start + 1;
    while (
      end < order.length &&
      c.protocol[order[end] as number] === c.protocol[first] &&
      c.account[order[end] as number] === c.account[first]
    ) {
      end += 1;
    }
    const facts: PositionFacts[] = [];
    for (let k = start; k < end; k += 1) facts.push(factsOf(c, order[k] as number));
    const protocol = c.protocols[c.protocol[first] as number] as string;
    const account = c.accounts[c.account[first] as number] as string;
    const byWindow = computeTraderStatistics(facts, nowMs, mark);
    for (const [window, values] of Object.entries(byWindow) as [Window, StatisticValues][]) {
      const populationKey = `${protocol}|${window}`;
      let population = populations.get(populationKey);
      if (!population) {
        population = { keys: [], values: [] };
        populations.set(populationKey, population);
      }
      population.keys.push(recordKey(protocol, account, window));
      population.values.push(values);
    }
    start = end;
  }
  const records: StatisticRecords = new Map();
  for (const { keys, values } of populations.values()) {
    const rankings = rankPopulation(values);
    keys.forEach((key, i) => {
      records.set(key, { values: values[i] as StatisticValues, ranking: rankings[i] as Ranking });
    });
  }
  return records;
}

/** Row indices grouped by (protocol, account); the identity when the columns are already sorted. */
function traderOrder(c: PositionColumns): Uint32Array {
  const order = new Uint32Array(c.count);
  let sorted = true;
  for (let i = 0; i < c.count; i += 1) {
    order[i] = i;
    if (
      i > 0 &&
      ((c.protocol[i] as number) < (c.protocol[i - 1] as number) ||
        (c.protocol[i] === c.protocol[i - 1] && (c.account[i] as number) < (c.account[i - 1] as number)))
    ) {
      sorted = false;
    }
  }
  if (sorted) return order;
  // Stable: positions of one trader keep their order.
  return Uint32Array.from(
    [...order].sort(
      (a, b) =>
        (c.protocol[a] as number) - (c.protocol[b] as number) ||
        (c.account[a] as number) - (c.account[b] as number) ||
        a - b,
    ),
  );
}

function factsOf(c: PositionColumns, i: number): PositionFacts {
  const close = c.closeTimeMs[i] as number;
  const token = c.token[i] as number;
  return {
    id: String(i),
    account: c.accounts[c.account[i] as number] as string,
    protocol: c.protocols[c.protocol[i] as number] as string,
    indexToken: c.tokens[token] as string,
    pair: c.pairs[token] as string,
    isLong: c.isLong[i] !== 0,
    size: c.size[i] as number,
    collateral: c.collateral[i] as number,
    averagePrice: c.averagePrice[i] as number,
    realisedPnl: c.realisedPnl[i] as number,
    fee: c.fee[i] as number,
    funding: c.funding[i] as number,
    isLiquidate: c.isLiquidate[i] !== 0,
    orderCount: c.orderCount[i] as number,
    openTimeMs: c.openTimeMs[i] as number,
    closeTimeMs: Number.isNaN(close) ? null : close,
  };
}

// ---------------------------------------------------------------------------------------------
// Comparing

export interface RecordMismatch {
  key: string;
  field: string;
  ours: unknown;
  theirs: unknown;
}

export interface RecordComparison {
  /** Keys compared field by field. */
  checked: number;
  mismatches: RecordMismatch[];
}

const TOLERANCE = 1e-9;

/** Equal within 1e-9 relative, or 1e-9 absolute near 0; nulls, booleans, strings and lists exactly. */
function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') {
    if (Object.is(a, b) || a === b) return true;
    if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
    const diff = Math.abs(a - b);
    return diff <= TOLERANCE || diff <= TOLERANCE * Math.max(Math.abs(a), Math.abs(b));
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  }
  return a === b;
}

/**
 * Compares a deterministic sample of `sampleSize` keys of `ours` (evenly spaced over the sorted
 * keys; all of them when sampleSize ≥ their count) with `theirs`: every value field (numbers within
 * 1e-9 relative or absolute) and every ranking exactly. Every key present on one side only (sampled
 * or not) is a mismatch with field 'record'.
 */
export function compareRecords(
  ours: StatisticRecords,
  theirs: StatisticRecords,
  sampleSize: number,
): RecordComparison {
  const mismatches: RecordMismatch[] = [];
  const keys = [...ours.keys()].sort();
  for (const key of keys) {
    if (!theirs.has(key)) mismatches.push({ key, field: 'record', ours: 'present', theirs: undefined });
  }
  for (const key of theirs.keys()) {
    if (!ours.has(key)) mismatches.push({ key, field: 'record', ours: undefined, theirs: 'present' });
  }
  const take = Math.max(0, Math.min(keys.length, Math.floor(sampleSize) || 0));
  for (let s = 0; s < take; s += 1) {
    const key = keys[Math.floor((s * keys.length) / take)] as string;
    const a = ours.get(key) as StatisticRecord;
    const b = theirs.get(key);
    if (!b) continue;
    const av = a.values as Record<string, unknown>;
    const bv = b.values as Record<string, unknown>;
    // The reference's fields only: the added statistics are not in it (see the top).
    for (const field of Object.keys(bv)) {
      if (!sameValue(av[field], bv[field])) {
        mismatches.push({ key, field, ours: av[field], theirs: bv[field] });
      }
    }
    for (const k of SPEC_RANKING_KEYS) {
      if (a.ranking[k] !== b.ranking[k]) {
        mismatches.push({ key, field: `ranking.${k}`, ours: a.ranking[k], theirs: b.ranking[k] });
      }
    }
  }
  return { checked: take, mismatches };
}
