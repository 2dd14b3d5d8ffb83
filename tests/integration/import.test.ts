// importFills on the fixture files in tests/fixtures/fills: every field of the rebuilt positions and
// orders, the statistics they feed, and a re-import that changes nothing.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hyperliquidIndexToken } from '../../src/shared/api/feed';
import { importFills, type ImportFile } from '../../src/service/market/importers/import';
import { orderId, positionId, positionKey, type SeriesKey } from '../../src/service/positions/keys';
import { openServiceDatabase, type ServiceDb } from '../../src/service/store/database';
import type { OrderRow, PositionRow } from '../../src/service/store/positions';

const FIXTURES = fileURLToPath(new URL('../fixtures/fills', import.meta.url));
const JSON_FILE: ImportFile = {
  path: join(FIXTURES, '0x7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b.json'),
  format: 'json',
};
const CSV_FILE: ImportFile = { path: join(FIXTURES, 'trades.csv'), format: 'csv' };
const P = 'HYPERLIQUID';
const NOW = Date.UTC(2024, 5, 10, 12);
const HOUR = 3_600_000;

/** The JSON file's account: from its name, checksummed. */
const A = '0x7a8b9C0d1e2f3a4B5C6d7E8F9A0B1c2d3e4F5a6b';
const B = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const C = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

let dir: string;
let db: ServiceDb;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'copydesk-import-'));
  db = openServiceDatabase(join(dir, 'service.db'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

// HYPERLIQUID's index tokens are the venue feed's, so that imported and fed fills make one series.
const series = (account: string, symbol: string): SeriesKey => ({
  account,
  protocol: P,
  symbol,
  indexToken: hyperliquidIndexToken(symbol),
});
// The fixture's side of each trade id: a fill's key is its tid and its side (positions/fill-keys.ts).
const SIDE: Record<number, 'B' | 'A'> = { 101: 'B', 102: 'B', 103: 'A', 104: 'A', 105: 'B', 201: 'A' };
Object.assign(SIDE, { 202: 'B', 301: 'B', 302: 'A' });
const tidKey = (tid: number) => `tid:${P}:${A}:${tid}:${SIDE[tid]}`;
const hash = (n: string) => `0x${'0'.repeat(59)}a${n}`;
const close = (value: number) => expect.closeTo(value, 9);

/** A closed or open position row, numbers to 1e-9. */
function positionRow(
  s: SeriesKey,
  p: Omit<PositionRow, 'account' | 'protocol' | 'index_token' | 'pair' | 'collateral_token'>,
): PositionRow {
  const numbers = Object.fromEntries(
    Object.entries(p).map(([k, v]) => [k, typeof v === 'number' && !k.endsWith('_ms') ? close(v) : v]),
  );
  return {
    ...(numbers as typeof p),
    account: s.account,
    protocol: P,
    index_token: hyperliquidIndexToken(s.symbol),
    pair: `${s.symbol}/USD`,
    collateral_token: null,
  };
}

const positionsOf = (account: string) =>
  db
    .prepare('SELECT * FROM positions WHERE protocol = ? AND account = ? ORDER BY open_time_ms, log_id')
    .all(P, account) as PositionRow[];

const ordersOf = (positionIdValue: string) =>
  db
    .prepare('SELECT * FROM orders WHERE position_id = ? ORDER BY block_time_ms, log_id')
    .all(positionIdValue) as OrderRow[];

type OrderLine = [
  type: OrderRow['type'],
  id: string,
  sizeDelta: number,
  size: number,
  tokensDelta: number,
  tokens: number,
  collateralDelta: number,
  collateral: number,
  price: number,
  average: number,
  realised: number,
  fee: number,
  logId: number,
  timeMs: number,
  txHash: string,
];

/** Every column of a position's orders: the table's lines plus what they share with the position. */
function expectOrders(position: PositionRow, leverage: number, lines: OrderLine[]): void {
  const rows = ordersOf(position.id);
  expect(rows).toEqual(
    lines.map(
      ([
        type,
        id,
        sizeDelta,
        size,
        tokensDelta,
        tokens,
        cDelta,
        collateral,
        price,
        avg,
        pnl,
        fee,
        log,
        t,
        tx,
      ]) => ({
        id,
        position_id: position.id,
        account: position.account,
        protocol: P,
        key: position.key,
        tx_hash: tx,
        index_token: position.index_token,
        collateral_token: null,
        pair: position.pair,
        type,
        is_long: position.is_long,
        size_delta: close(sizeDelta),
        size: close(size),
        size_delta_in_token: close(tokensDelta),
        size_in_token: close(tokens),
        collateral_delta: close(cDelta),
        collateral: close(collateral),
        price: close(price),
        average_price: close(avg),
        realised_pnl: close(pnl),
        fee: close(fee),
        funding: 0,
        leverage,
        log_id: log,
        block_number: 0,
        block_time_ms: t,
        created_at_ms: t,
      }),
    ),
  );
}

const T0 = Date.UTC(2024, 5, 1);

describe('importFills: the venue JSON', () => {
  it('rebuilds a flip through zero, a partial close and a liquidation, every field', () => {
    const result = importFills(db, { protocol: P, files: [JSON_FILE], nowMs: NOW });
    expect(result).toMatchObject({ imported: 9, duplicates: 0, positions: 4, accounts: [A], unreadable: [] });
    expect(result.rejected).toEqual([
      { file: JSON_FILE.path, line: 2, reason: "fill #1: side: 'X' is not one of B/A, Bid/Ask, buy/sell" },
      {
        file: JSON_FILE.path,
        line: 156,
        reason: "fill #10: dir: 'Buy' is a spot fill; only perpetual fills make positions",
      },
    ]);
    const btc = series(A, 'BTC');
    const eth = series(A, 'ETH');
    const sol = series(A, 'SOL');
    const [btcLong, ethShort, solLong, btcShort] = positionsOf(A) as PositionRow[];
    expect(btcLong).toEqual(
      positionRow(btc, {
        id: positionId(btc, tidKey(101), 0),
        key: positionKey(btc, true),
        log_id: 1,
        open_block_number: 0,
        close_block_number: 0,
        open_time_ms: T0,
        close_time_ms: T0 + 3 * HOUR,
        size: 1860, // 0.03 BTC at the average 62000, the peak
        size_in_token: 0,
        collateral: 1860, // assumed leverage 1
        average_price: 62000, // (0.01 × 60000 + 0.02 × 63000) / 0.03
        fee: 1.298, // 0.21 + 0.44 + 0.22 + 1.07 × 0.02 / 0.05
        funding: 0,
        realised_pnl: 0, // +20 on the partial close, −20 on the flip
        pnl: -1.298,
        roi: (-1.298 / 1860) * 100,
        realised_roi: 0,
        leverage: 1,
        is_long: 1,
        is_win: 0,
        is_liquidate: 0,
        order_count: 4,
        order_increase_count: 2,
        order_decrease_count: 2,
        duration_s: 10800,
        status: 'CLOSE',
        tx_hashes: JSON.stringify([hash('0101'), hash('0102'), hash('0103'), hash('0104')]),
        created_at_ms: T0,
        updated_at_ms: T0 + 3 * HOUR,
      }),
    );
    expect(btcShort).toEqual(
      positionRow(btc, {
        id: positionId(btc, tidKey(104), 1),
        key: positionKey(btc, false),
        log_id: 6,
        open_block_number: 0,
        close_block_number: 0,
        open_time_ms: T0 + 3 * HOUR,
        close_time_ms: T0 + 4 * HOUR,
        size: 1830,
        size_in_token: 0,
        collateral: 1830,
        average_price: 61000,
        fee: 0.642, // the other 0.03 / 0.05 of the flip's fee
        funding: 0,
        realised_pnl: -45, // −(62500 − 61000) × 0.03
        pnl: -45.642,
        roi: (-45.642 / 1830) * 100,
        realised_roi: (-45 / 1830) * 100,
        leverage: 1,
        is_long: 0,
        is_win: 0,
        is_liquidate: 1, // the closing fill's liquidation names this account
        order_count: 2,
        order_increase_count: 1,
        order_decrease_count: 1,
        duration_s: 3600,
        status: 'CLOSE',
        tx_hashes: JSON.stringify([hash('0104'), hash('0105')]),
        created_at_ms: T0 + 3 * HOUR,
        updated_at_ms: T0 + 4 * HOUR,
      }),
    );
    expect(ethShort).toEqual(
      positionRow(eth, {
        id: positionId(eth, tidKey(201), 0),
        key: positionKey(eth, false),
        // Fills are stored in time order, a millisecond's in the file's order: ETH's before BTC's.
        log_id: 2,
        open_block_number: 0,
        close_block_number: null,
        open_time_ms: T0 + HOUR,
        close_time_ms: null,
        size: 4500,
        size_in_token: 1, // 1.5 − 0.5 still short
        collateral: 4500,
        average_price: 3000,
        fee: 0.7,
        funding: 0,
        realised_pnl: 50, // −(2900 − 3000) × 0.5
        pnl: 49.3,
        roi: (49.3 / 4500) * 100,
        realised_roi: (50 / 4500) * 100,
        leverage: 1,
        is_long: 0,
        is_win: null,
        is_liquidate: 0,
        order_count: 2,
        order_increase_count: 1,
        order_decrease_count: 1,
        duration_s: null,
        status: 'OPEN',
        tx_hashes: JSON.stringify([hash('0201'), hash('0202')]),
        created_at_ms: T0 + HOUR,
        updated_at_ms: T0 + 5 * HOUR,
      }),
    );
    expect(solLong).toEqual(
      positionRow(sol, {
        id: positionId(sol, tidKey(301), 0),
        key: positionKey(sol, true),
        log_id: 4,
        open_block_number: 0,
        close_block_number: 0,
        open_time_ms: T0 + 2 * HOUR,
        close_time_ms: T0 + 6 * HOUR,
        size: 1500,
        size_in_token: 0,
        collateral: 1500,
        average_price: 150,
        fee: 0.61,
        funding: 0,
        realised_pnl: 50,
        pnl: 49.39,
        roi: (49.39 / 1500) * 100,
        realised_roi: (50 / 1500) * 100,
        leverage: 1,
        is_long: 1,
        is_win: 1,
        is_liquidate: 0, // its opening fill carried someone else's liquidation: not this account's
        order_count: 2,
        order_increase_count: 1,
        order_decrease_count: 1,
        duration_s: 14400,
        status: 'CLOSE',
        tx_hashes: JSON.stringify([hash('0301'), hash('0302')]),
        created_at_ms: T0 + 2 * HOUR,
        updated_at_ms: T0 + 6 * HOUR,
      }),
    );
  });

  it('books one order per fill, two for the flip, every column', () => {
    importFills(db, { protocol: P, files: [JSON_FILE], nowMs: NOW });
    const [btcLong, ethShort, solLong, btcShort] = positionsOf(A) as PositionRow[];
    const btc = series(A, 'BTC');
    const o = (s: SeriesKey, tid: number, part: 0 | 1 = 0) => orderId(s, tidKey(tid), part);
    expectOrders(btcLong as PositionRow, 1, [
      ['OPEN', o(btc, 101), 600, 600, 0.01, 0.01, 600, 600, 60000, 60000, 0, 0.21, 1, T0, hash('0101')],
      [
        'INCREASE',
        o(btc, 102),
        1260,
        1860,
        0.02,
        0.03,
        1260,
        1860,
        63000,
        62000,
        0,
        0.44,
        3,
        T0 + HOUR,
        hash('0102'),
      ],
      [
        'DECREASE',
        o(btc, 103),
        620,
        1240,
        0.01,
        0.02,
        620,
        1240,
        64000,
        62000,
        20,
        0.22,
        5,
        T0 + 2 * HOUR,
        hash('0103'),
      ],
      [
        'CLOSE',
        o(btc, 104),
        1240,
        0,
        0.02,
        0,
        1240,
        0,
        61000,
        62000,
        -20,
        0.428,
        6,
        T0 + 3 * HOUR,
        hash('0104'),
      ],
    ]);
    expectOrders(btcShort as PositionRow, 1, [
      [
        'OPEN',
        o(btc, 104, 1),
        1830,
        1830,
        0.03,
        0.03,
        1830,
        1830,
        61000,
        61000,
        0,
        0.642,
        6,
        T0 + 3 * HOUR,
        hash('0104'),
      ],
      ['CLOSE', o(btc, 105), 1830, 0, 0.03, 0, 1830, 0, 62500, 61000, -45, 0, 7, T0 + 4 * HOUR, hash('0105')],
    ]);
    const eth = series(A, 'ETH');
    expectOrders(ethShort as PositionRow, 1, [
      ['OPEN', o(eth, 201), 4500, 4500, 1.5, 1.5, 4500, 4500, 3000, 3000, 0, 0.5, 2, T0 + HOUR, hash('0201')],
      [
        'DECREASE',
        o(eth, 202),
        1500,
        3000,
        0.5,
        1,
        1500,
        3000,
        2900,
        3000,
        50,
        0.2,
        8,
        T0 + 5 * HOUR,
        hash('0202'),
      ],
    ]);
    const sol = series(A, 'SOL');
    expectOrders(solLong as PositionRow, 1, [
      ['OPEN', o(sol, 301), 1500, 1500, 10, 10, 1500, 1500, 150, 150, 0, 0.3, 4, T0 + 2 * HOUR, hash('0301')],
      ['CLOSE', o(sol, 302), 1500, 0, 10, 0, 1500, 0, 155, 150, 50, 0.31, 9, T0 + 6 * HOUR, hash('0302')],
    ]);
  });

  it("keeps each fill's trade id and start position, as the venue feed does", () => {
    importFills(db, { protocol: P, files: [JSON_FILE], nowMs: NOW });
    const row = (tid: number) =>
      db.prepare('SELECT tid, start_position FROM fills WHERE key = ?').get(tidKey(tid)) as unknown;
    expect(row(104)).toEqual({ tid: 104, start_position: '0.02' });
    expect(row(201)).toEqual({ tid: 201, start_position: '0.0' });
  });

  it('lists the new coins as tokens and feeds the statistics', () => {
    const result = importFills(db, { protocol: P, files: [JSON_FILE], nowMs: NOW });
    expect(result.statistics).not.toBeNull();
    const tokens = db.prepare('SELECT * FROM tokens WHERE protocol = ? ORDER BY symbol').all(P);
    expect(tokens).toEqual(
      ['BTC', 'ETH', 'SOL'].map((symbol) => ({
        protocol: P,
        symbol,
        index_token: hyperliquidIndexToken(symbol),
        is_forex: 0,
        max_leverage: 50,
      })),
    );
    const full = db
      .prepare(
        "SELECT * FROM statistics WHERE protocol = ? AND account = ? AND type = 'FULL' AND gen_to IS NULL",
      )
      .get(P, A) as Record<string, number>;
    expect(full).toMatchObject({
      totalTrade: 3,
      totalWin: 1,
      realisedPnl: close(5), // 0 − 45 + 50
      pnl: close(2.45), // −1.298 − 45.642 + 49.39
      totalLiquidation: 1,
      totalLiquidationAmount: close(-45),
      is_open_position: 1,
    });
  });
});

describe('importFills: CSV', () => {
  it('rebuilds every account of the file with the assumed leverage, every field', () => {
    const result = importFills(db, { protocol: P, leverage: 2, files: [CSV_FILE], nowMs: NOW });
    expect(result).toMatchObject({ imported: 8, duplicates: 0, positions: 4, accounts: [B, C] });
    expect(result.rejected).toEqual([
      { file: CSV_FILE.path, line: 8, reason: "side: 'hold' is not one of B/A, Bid/Ask, buy/sell" },
      { file: CSV_FILE.path, line: 9, reason: "time: 'yesterday' is neither ISO 8601 nor epoch ms" },
    ]);
    expect(result.warnings).toEqual([{ file: CSV_FILE.path, line: 1, reason: "column 'Note' ignored" }]);
    const keyAt = (line: number) =>
      db.prepare('SELECT key FROM fills WHERE source = ?').pluck().get(`trades.csv:${line}`) as string;
    const ethB = series(B, 'ETH');
    const btcC = series(C, 'BTC');
    const T1 = Date.UTC(2024, 5, 2);
    const [long, short, reopened] = positionsOf(B);
    const common = { open_block_number: 0, funding: 0, tx_hashes: '[]' };
    expect(long).toEqual(
      positionRow(ethB, {
        ...common,
        id: positionId(ethB, keyAt(2), 0),
        key: positionKey(ethB, true),
        log_id: 1,
        close_block_number: 0,
        open_time_ms: T1,
        close_time_ms: T1 + 2 * HOUR,
        size: 960, // 0.3 ETH at the average 3200
        size_in_token: 0, // 0.1 + 0.2 − 0.3 is exactly 0
        collateral: 480, // 960 / leverage 2
        average_price: 3200,
        fee: 0.6,
        realised_pnl: 60,
        pnl: 59.4,
        roi: 12.375,
        realised_roi: 12.5,
        leverage: 2,
        is_long: 1,
        is_win: 1,
        is_liquidate: 0,
        order_count: 3,
        order_increase_count: 2,
        order_decrease_count: 1,
        duration_s: 7200,
        status: 'CLOSE',
        created_at_ms: T1,
        updated_at_ms: T1 + 2 * HOUR,
      }),
    );
    expect(short).toEqual(
      positionRow(ethB, {
        ...common,
        id: positionId(ethB, keyAt(5), 0),
        key: positionKey(ethB, false),
        log_id: 4,
        close_block_number: 0,
        open_time_ms: T1 + 3 * HOUR, // "2024-06-02 03:00:00" read as UTC
        close_time_ms: T1 + 5 * HOUR, // "06:00:00+01:00"
        size: 1750,
        size_in_token: 0,
        collateral: 875,
        average_price: 3500,
        fee: 0.697, // 0.35 + 0.14 + 0.345 × 0.3 / 0.5
        realised_pnl: 35, // 100 × 0.2 + 50 × 0.3
        pnl: 34.303,
        roi: (34.303 / 875) * 100,
        realised_roi: 4,
        leverage: 2,
        is_long: 0,
        is_win: 1,
        is_liquidate: 0,
        order_count: 3,
        order_increase_count: 1,
        order_decrease_count: 2,
        duration_s: 7200,
        status: 'CLOSE',
        created_at_ms: T1 + 3 * HOUR,
        updated_at_ms: T1 + 5 * HOUR,
      }),
    );
    expect(reopened).toEqual(
      positionRow(ethB, {
        ...common,
        id: positionId(ethB, keyAt(7), 1),
        key: positionKey(ethB, true),
        log_id: 6,
        close_block_number: null,
        open_time_ms: T1 + 5 * HOUR,
        close_time_ms: null,
        size: 690,
        size_in_token: 0.2,
        collateral: 345,
        average_price: 3450,
        fee: 0.138,
        realised_pnl: 0,
        pnl: -0.138,
        roi: -0.04,
        realised_roi: 0,
        leverage: 2,
        is_long: 1,
        is_win: null,
        is_liquidate: 0,
        order_count: 1,
        order_increase_count: 1,
        order_decrease_count: 0,
        duration_s: null,
        status: 'OPEN',
        created_at_ms: T1 + 5 * HOUR,
        updated_at_ms: T1 + 5 * HOUR,
      }),
    );
    expect(positionsOf(C)).toEqual([
      positionRow(btcC, {
        ...common,
        id: positionId(btcC, keyAt(10), 0),
        key: positionKey(btcC, false),
        log_id: 7,
        close_block_number: 0,
        open_time_ms: Date.UTC(2024, 5, 3),
        close_time_ms: Date.UTC(2024, 5, 3, 8),
        size: 6000,
        size_in_token: 0,
        collateral: 3000,
        average_price: 60000,
        fee: 6.3,
        realised_pnl: -600,
        pnl: -606.3,
        roi: -20.21,
        realised_roi: -20,
        leverage: 2,
        is_long: 0,
        is_win: 0,
        is_liquidate: 1, // liquidation TRUE on the closing row
        order_count: 2,
        order_increase_count: 1,
        order_decrease_count: 1,
        duration_s: 28800,
        status: 'CLOSE',
        created_at_ms: Date.UTC(2024, 5, 3),
        updated_at_ms: Date.UTC(2024, 5, 3, 8),
      }),
    ]);
    const o = (line: number, part: 0 | 1 = 0) => orderId(ethB, keyAt(line), part);
    expectOrders(short as PositionRow, 2, [
      ['OPEN', o(5), 1750, 1750, 0.5, 0.5, 875, 875, 3500, 3500, 0, 0.35, 4, T1 + 3 * HOUR, ''],
      ['DECREASE', o(6), 700, 1050, 0.2, 0.3, 350, 525, 3400, 3500, 20, 0.14, 5, T1 + 4 * HOUR, ''],
      ['CLOSE', o(7), 1050, 0, 0.3, 0, 525, 0, 3450, 3500, 15, 0.207, 6, T1 + 5 * HOUR, ''],
    ]);
    expectOrders(reopened as PositionRow, 2, [
      ['OPEN', o(7, 1), 690, 690, 0.2, 0.2, 345, 345, 3450, 3450, 0, 0.138, 6, T1 + 5 * HOUR, ''],
    ]);
  });
});

/** Every row of the tables an import writes, in a stable order. */
function snapshot() {
  const all = (sql: string) => db.prepare(sql).all();
  return {
    fills: all('SELECT * FROM fills ORDER BY key'),
    positions: all('SELECT * FROM positions ORDER BY id'),
    orders: all('SELECT * FROM orders ORDER BY id'),
    statistics: all('SELECT * FROM statistics ORDER BY protocol, type, id, gen_from'),
    tokens: all('SELECT * FROM tokens ORDER BY protocol, symbol'),
    meta: all("SELECT * FROM meta WHERE key <> 'jwt_secret' ORDER BY key"),
  };
}

describe('re-importing', () => {
  it('changes nothing: same rows, same ids, same statistics', () => {
    const options = { protocol: P, leverage: 3, files: [JSON_FILE, CSV_FILE], nowMs: NOW };
    const first = importFills(db, options);
    const before = snapshot();
    const again = importFills(db, { ...options, nowMs: NOW + HOUR });
    expect(again).toMatchObject({ imported: 0, duplicates: first.imported, positions: 0, statistics: null });
    expect(again.rejected).toEqual(first.rejected);
    expect(snapshot()).toEqual(before);
  });

  it('rebuilds a series from all its fills when a later file extends it', () => {
    importFills(db, { protocol: P, files: [JSON_FILE], nowMs: NOW });
    const more = join(dir, `${A.toLowerCase()}-later.json`);
    const closeEth = {
      coin: 'ETH',
      px: '2800',
      sz: '1.0',
      side: 'B',
      time: T0 + 9 * HOUR,
      fee: '0.1',
      tid: 203,
    };
    writeFileSync(more, JSON.stringify([closeEth]));
    const result = importFills(db, { protocol: P, files: [{ path: more, format: 'json' }], nowMs: NOW });
    expect(result).toMatchObject({ imported: 1, positions: 1 });
    const eth = positionsOf(A).find((p) => p.pair === 'ETH/USD');
    expect(eth).toMatchObject({ status: 'CLOSE', realised_pnl: 250, order_count: 3 });
    expect(eth?.id).toBe(positionId(series(A, 'ETH'), tidKey(201), 0)); // same position, now closed
    expect(positionsOf(A)).toHaveLength(4);
  });

  it('rebuilds every series of the protocol when the assumed leverage changes', () => {
    importFills(db, { protocol: P, files: [JSON_FILE], nowMs: NOW });
    const result = importFills(db, { protocol: P, leverage: 4, files: [], nowMs: NOW });
    expect(result).toMatchObject({ imported: 0, positions: 4 });
    expect(positionsOf(A).map((p) => [p.leverage, p.collateral])).toEqual([
      [4, close(465)],
      [4, close(1125)],
      [4, close(375)],
      [4, close(457.5)],
    ]);
  });
});

describe('files it cannot read', () => {
  it('notes them and imports the others', () => {
    const notJson = join(dir, `${A.toLowerCase()}.json`);
    writeFileSync(notJson, 'coin,px\n');
    const anonymous = join(dir, 'fills.json');
    writeFileSync(anonymous, '[]');
    const result = importFills(db, {
      protocol: P,
      files: [
        { path: join(dir, 'missing.csv'), format: 'csv' },
        { path: notJson, format: 'json' },
        { path: anonymous, format: 'json' },
        CSV_FILE,
      ],
      nowMs: NOW,
    });
    expect(result.imported).toBe(8);
    expect(result.unreadable).toEqual([
      { file: join(dir, 'missing.csv'), reason: expect.stringContaining('ENOENT') },
      { file: notJson, reason: expect.stringMatching(/^not JSON/) },
      {
        file: anonymous,
        reason: expect.stringContaining('pass --account or name the file after the address'),
      },
    ]);
  });

  it('warns when the history starts inside a position', () => {
    const file = join(dir, 'late.json');
    const fill = { coin: 'BTC', px: '1', sz: '1', side: 'A', time: T0, startPosition: '2.5', tid: 1 };
    writeFileSync(file, JSON.stringify([fill]));
    const result = importFills(db, {
      protocol: P,
      account: B,
      files: [{ path: file, format: 'json' }],
      nowMs: NOW,
    });
    expect(result.warnings).toEqual([
      {
        file,
        line: 1,
        reason:
          'BTC: the history starts inside a position (startPosition 2.5); earlier fills are missing, so the first position is rebuilt from 0',
      },
    ]);
  });

  it('refuses a protocol that is not UPPER_SNAKE_CASE', () => {
    expect(() => importFills(db, { protocol: 'hyperliquid', files: [], nowMs: NOW })).toThrow(
      /UPPER_SNAKE_CASE/,
    );
  });
});
