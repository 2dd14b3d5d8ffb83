// The position engine's callers, driven with the same random fill sequences (fast-check): the
// engine called directly (rebuildSeries), the importer (a CSV file through importFills) and the venue
// feed (SeriesBook.store, in random batches) must store the same positions and orders
// (docs/semantics.md, Positions rebuilt from fills; the callers are listed there).
//
// Compared modulo the fields each caller sets itself, and only those:
// - `id`, `position_id`: derived from the fill's id, which each caller names its own way (the
//   importer by the CSV row's content and occurrence, the feed by the venue's trade key, a direct
//   call by whatever id it passes). Instead each order carries its position's compared row, so an
//   order booked on the wrong position still fails.
// Every other column is compared exactly, `log_id` included: it is the fill's place in the `fills`
// table (seq, from 1 in a fresh database) for the importer and the feed, and the direct call is
// given the same. `tx_hash` is compared too: neither a CSV row nor these feed fills carry one.
// The simulator and the sandbox do not call this engine yet (docs/semantics.md says why).
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hyperliquidIndexToken } from '../../src/shared/api/feed';
import { importFills } from '../../src/service/market/importers/import';
import { SeriesBook, type BookFill } from '../../src/service/market/series-book';
import { rebuildSeries, type LedgerFill } from '../../src/service/positions/ledger';
import { openServiceDatabase, type ServiceDb } from '../../src/service/store/database';
import type { OrderRow, PositionRow } from '../../src/service/store/positions';

const PROTOCOL = 'HYPERLIQUID';
const ACCOUNT = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
const COIN = 'ETH';
const START = Date.UTC(2024, 0, 1);

interface Step {
  isBuy: boolean;
  /** Size in 10^-4 token: small round values make returns to zero and flips frequent. */
  k: number;
  priceCents: number;
  feeCents: number;
  gapMs: number;
  isLiquidation: boolean;
}

const stepArb: fc.Arbitrary<Step> = fc.record({
  isBuy: fc.boolean(),
  k: fc.oneof(fc.constantFrom(1000, 2000, 3000, 500, 1500), fc.integer({ min: 1, max: 50_000 })),
  priceCents: fc.integer({ min: 1, max: 10_000_000 }),
  feeCents: fc.integer({ min: 0, max: 1000 }),
  gapMs: fc.constantFrom(0, 1, 60_000, 3_600_000),
  isLiquidation: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
});

/** A fill as all three callers read it: times, sides, decimal texts. */
interface Fill {
  timeMs: number;
  isBuy: boolean;
  price: string;
  size: string;
  fee: string;
  isLiquidation: boolean;
}

const decimal = (n: number, places: number): string => {
  const text = String(n).padStart(places + 1, '0');
  return `${text.slice(0, -places)}.${text.slice(-places)}`;
};

function fillsOf(steps: Step[]): Fill[] {
  let timeMs = START;
  return steps.map((s) => {
    timeMs += s.gapMs;
    return {
      timeMs,
      isBuy: s.isBuy,
      price: decimal(s.priceCents, 2),
      size: decimal(s.k, 4),
      fee: decimal(s.feeCents, 2),
      isLiquidation: s.isLiquidation,
    };
  });
}

let dir: string;
let run = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'copydesk-engine-paths-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function freshDb(): ServiceDb {
  run += 1;
  return openServiceDatabase(join(dir, `run-${run}.db`));
}

/** The engine called directly, log ids as the store's seq would number them. */
function directRows(fills: Fill[]) {
  const ledgerFills: LedgerFill[] = fills.map((f, i) => ({
    id: `fill-${i}`,
    timeMs: f.timeMs,
    isBuy: f.isBuy,
    price: Number(f.price),
    amount: { tokens: f.size },
    fee: Number(f.fee),
    isLiquidation: f.isLiquidation,
    logId: i + 1,
  }));
  const series = {
    account: ACCOUNT,
    protocol: PROTOCOL,
    symbol: COIN,
    indexToken: hyperliquidIndexToken(COIN),
  };
  return rebuildSeries(series, ledgerFills);
}

/** The importer's path: a CSV file of the fills, imported into a fresh database. */
function importedRows(fills: Fill[]) {
  const db = freshDb();
  try {
    const lines = fills.map(
      (f) =>
        `${f.timeMs},${ACCOUNT},${COIN},${f.isBuy ? 'B' : 'A'},${f.price},${f.size},${f.fee},${f.isLiquidation}`,
    );
    const path = join(dir, `run-${run}.csv`);
    writeFileSync(path, ['time,user,coin,side,px,sz,fee,liquidation', ...lines].join('\n'));
    const result = importFills(db, {
      protocol: PROTOCOL,
      files: [{ path, format: 'csv' }],
      nowMs: Date.now(),
    });
    expect(result.rejected).toEqual([]);
    return storedRows(db);
  } finally {
    db.close();
  }
}

/** The venue feed's path: the fills stored in batches cut at `cuts`, each booked as it arrives. */
function fedRows(fills: Fill[], cuts: number[]) {
  const db = freshDb();
  try {
    const book = new SeriesBook(db, PROTOCOL, 1, hyperliquidIndexToken);
    const bookFills: BookFill[] = fills.map((f, i) => ({
      key: `feed:${i}`,
      account: ACCOUNT,
      coin: COIN,
      timeMs: f.timeMs,
      isBuy: f.isBuy,
      price: Number(f.price),
      sizeTokens: f.size,
      fee: Number(f.fee),
      closedPnl: null,
      isLiquidation: f.isLiquidation,
      txHash: null,
      tid: null,
      startPosition: null,
    }));
    const bounds = [
      0,
      ...[...new Set(cuts.map((c) => c % (fills.length + 1)))].sort((a, b) => a - b),
      fills.length,
    ];
    for (let i = 1; i < bounds.length; i += 1) {
      const batch = bookFills.slice(bounds[i - 1], bounds[i]);
      if (batch.length > 0) db.transaction(() => book.store(batch))();
    }
    return storedRows(db);
  } finally {
    db.close();
  }
}

function storedRows(db: ServiceDb) {
  const positions = db
    .prepare('SELECT * FROM positions WHERE account = ? ORDER BY open_time_ms, log_id')
    .all(ACCOUNT) as PositionRow[];
  const orders = db
    .prepare('SELECT * FROM orders WHERE account = ? ORDER BY block_time_ms, log_id, type')
    .all(ACCOUNT) as OrderRow[];
  return { positions, orders };
}

/** The rows without the fields each caller sets itself, each order with its position's row. */
function comparable(rows: { positions: PositionRow[]; orders: OrderRow[] }) {
  const strip = ({ id: _id, ...rest }: PositionRow) => rest;
  const byId = new Map(rows.positions.map((p) => [p.id, strip(p)]));
  const orders = rows.orders.map(({ id: _id, position_id, ...rest }) => ({
    ...rest,
    position: byId.get(position_id) ?? `missing ${position_id}`,
  }));
  const key = (x: unknown) => JSON.stringify(x);
  return {
    positions: rows.positions.map(strip).sort((a, b) => key(a).localeCompare(key(b))),
    orders: orders.sort((a, b) => key(a).localeCompare(key(b))),
  };
}

describe('one position engine, every caller', () => {
  it('the importer, the venue feed and a direct call store the same positions and orders', () => {
    fc.assert(
      fc.property(
        fc.array(stepArb, { minLength: 1, maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (steps, cuts) => {
          const fills = fillsOf(steps);
          const direct = comparable(directRows(fills));
          expect(direct.orders.length).toBeGreaterThanOrEqual(fills.length);
          expect(comparable(importedRows(fills))).toEqual(direct);
          expect(comparable(fedRows(fills, cuts))).toEqual(direct);
        },
      ),
      { numRuns: 40 },
    );
  });
});
