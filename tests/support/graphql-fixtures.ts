// Rows and queries for the GraphQL integration tests: positions and orders go in through the
// store's writers, statistics through a plain INSERT (as the brief of the GraphQL work asks).
import type { GraphqlQueryName } from '../../src/shared/api/graphql';
import { STATISTIC_NUMERIC_FIELDS } from '../../src/shared/api/statistics';
import type { ServiceDb } from '../../src/service/store/database';
import { positionWriters, type OrderRow, type PositionRow } from '../../src/service/store/positions';
import { storeAllStatisticJson } from '../../src/service/statistics/store/stored-json';

/** The tests' epoch: every time below is an offset from it. */
export const T0 = Date.parse('2026-03-01T00:00:00.000Z');
export const HOUR = 3_600_000;
export const iso = (ms: number) => new Date(ms).toISOString();

/** Three traders. */
export const ALICE = '0x1111111111111111111111111111111111111111';
export const BOB = '0x2222222222222222222222222222222222222222';
export const CAROL = '0x3333333333333333333333333333333333333333';

/** A position row; everything not given is a plain OPEN long on NOVA_ARB. */
export function positionRow(row: Partial<PositionRow> & Pick<PositionRow, 'id'>): PositionRow {
  return {
    account: ALICE,
    protocol: 'NOVA_ARB',
    key: `key-${row.id}`,
    log_id: 7,
    open_block_number: 1000,
    close_block_number: null,
    open_time_ms: T0,
    close_time_ms: null,
    index_token: '0x00000000000000000000000000000000000000b7',
    collateral_token: null,
    pair: 'BTC-USD',
    size: 1000,
    size_in_token: 0.02,
    collateral: 100,
    average_price: 50_000,
    fee: 1,
    funding: 0,
    realised_pnl: 0,
    pnl: -1,
    roi: 0,
    realised_roi: 0,
    leverage: 10,
    is_long: 1,
    is_win: null,
    is_liquidate: 0,
    order_count: 1,
    order_increase_count: 0,
    order_decrease_count: 0,
    duration_s: null,
    status: 'OPEN',
    tx_hashes: '[]',
    created_at_ms: T0,
    updated_at_ms: T0,
    ...row,
  };
}

/** An order row of `position`; everything not given is its OPEN order. */
export function orderRow(row: Partial<OrderRow> & Pick<OrderRow, 'id' | 'position_id'>): OrderRow {
  return {
    account: ALICE,
    protocol: 'NOVA_ARB',
    key: null,
    tx_hash: `0xtx-${row.id}`,
    index_token: '0x00000000000000000000000000000000000000b7',
    collateral_token: null,
    pair: 'BTC-USD',
    type: 'OPEN',
    is_long: 1,
    size_delta: 1000,
    size: 1000,
    size_delta_in_token: null,
    size_in_token: null,
    collateral_delta: 100,
    collateral: 100,
    price: 50_000,
    average_price: 50_000,
    realised_pnl: 0,
    fee: 1,
    funding: 0,
    leverage: 10,
    log_id: 3,
    block_number: 1000,
    block_time_ms: T0,
    created_at_ms: T0,
    ...row,
  };
}

/** Writes positions and orders with the store's own writers. */
export function insertPositions(db: ServiceDb, positions: PositionRow[], orders: OrderRow[] = []): void {
  const write = positionWriters(db);
  db.transaction(() => {
    positions.forEach(write.position);
    orders.forEach(write.order);
  })();
}

/** A statistic row as stored: every numeric column, plus bookkeeping. */
export interface StatisticFixture {
  id: string;
  account: string;
  protocol: string;
  type: 'FULL' | 'D60' | 'D30' | 'D15' | 'D7';
  genFrom?: number;
  genTo?: number | null;
  numbers?: Partial<Record<(typeof STATISTIC_NUMERIC_FIELDS)[number] | 'unrealisedPnl', number | null>>;
  indexTokens?: string[];
  pairs?: string[];
  isOpenPosition?: boolean;
  lastTradeAtMs?: number;
}

/**
 * Distinct defaults for the numeric columns (41.5, 42.5, …), so that a column read into the
 * wrong field shows up as a wrong value.
 */
export function statisticNumbers(fixture: StatisticFixture): Record<string, number | null> {
  const defaults = Object.fromEntries(STATISTIC_NUMERIC_FIELDS.map((f, i) => [f, 41.5 + i]));
  return { ...defaults, unrealisedPnl: 12.25, ...fixture.numbers };
}

/** Inserts statistic rows with a plain INSERT. */
export function insertStatistics(db: ServiceDb, fixtures: StatisticFixture[]): void {
  const numeric = [...STATISTIC_NUMERIC_FIELDS, 'unrealisedPnl'];
  const columns = [
    'id, account, protocol, type, gen_from, gen_to, index_tokens, pairs, is_open_position',
    'last_trade_at_ms, statistic_at_ms, created_at_ms, updated_at_ms',
    ...numeric.map((f) => `"${f}"`),
  ].join(', ');
  const marks = Array.from({ length: 13 + numeric.length }, () => '?').join(', ');
  const insert = db.prepare(`INSERT INTO statistics (${columns}) VALUES (${marks})`);
  for (const f of fixtures) {
    const numbers = statisticNumbers(f);
    insert.run(
      f.id,
      f.account,
      f.protocol,
      f.type,
      f.genFrom ?? 1,
      f.genTo ?? null,
      JSON.stringify(f.indexTokens ?? []),
      JSON.stringify(f.pairs ?? []),
      f.isOpenPosition ? 1 : 0,
      f.lastTradeAtMs ?? T0,
      T0 + 1,
      T0 + 2,
      T0 + 3,
      ...numeric.map((n) => numbers[n] ?? null),
    );
  }
  // As writeGeneration does: search-after reads each row's stored JSON.
  storeAllStatisticJson(db);
}

/** Every field of each item type, as a selection. */
export const POSITION_SELECTION = `id account protocol key logId openBlockNumber closeBlockNumber openBlockTime
  closeBlockTime indexToken pair size collateral averagePrice fee funding pnl realisedPnl roi realisedRoi
  isLong isWin isLiquidate leverage orderCount orderIncreaseCount orderDecreaseCount durationInSecond status
  createdAt synthetixPositionId smartAccount collateralToken reverseIndex collateralInToken lastCollateral
  lastSizeNumber lastSize lastSizeInToken sizeInToken feeInToken lastFunding fundingInToken txHashes
  orderIds realisedPnlInToken updatedAt __typename`;
export const ORDER_SELECTION = `id account key protocol txHash indexToken collateralToken pair sizeDeltaNumber
  sizeNumber collateralDeltaNumber collateralNumber collateralDeltaInTokenNumber sizeDeltaInTokenNumber
  realisedPnlNumber priceNumber sizeTokenNumber averagePriceNumber feeNumber fundingNumber fundingRateNumber
  realisedPnl leverage isLong isOpen isClose type logId blockNumber blockTime createdAt __typename`;
export const STATISTIC_SELECTION = `id account type protocol ${STATISTIC_NUMERIC_FIELDS.join(' ')}
  lastTradeAt statisticAt createdAt updatedAt indexTokens pairs isOpenPosition unrealisedPnl __typename`;

const WITH_PROTOCOLS: ReadonlySet<GraphqlQueryName> = new Set(['searchTopOpeningPosition', 'livePosition']);

/** The query text upstream clients send: `query Search($index, $protocols, $body)`. */
export function searchQuery(name: GraphqlQueryName, selection = 'id'): string {
  const protocols = WITH_PROTOCOLS.has(name);
  return `query Search($index: String!, ${protocols ? '$protocols: [String!], ' : ''}$body: SearchPayload) {
    ${name}(index: $index, ${protocols ? 'protocols: $protocols, ' : ''}body: $body) {
      data { ${selection} }
      meta { total limit offset totalPages }
    }
  }`;
}
