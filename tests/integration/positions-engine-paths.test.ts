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
// The sandbox's and the simulator's paths are driven with the same steps as the orders each of them
// sends, and compared with the engine called directly on the same steps; what each sets itself is
// stated at its test.
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hyperliquidIndexToken } from '../../src/shared/api/feed';
import { importFills } from '../../src/service/market/importers/import';
import { SeriesBook, type BookFill } from '../../src/service/market/series-book';
import { rowInserters } from '../../src/service/market/simulator/bulk-insert';
import { SimPosition, type PositionIdentity } from '../../src/service/market/simulator/position-book';
import { applySandboxOrder } from '../../src/service/sandbox/source-positions';
import type { SandboxOrder } from '../../src/service/sandbox/schemas';
import {
  PositionLedger,
  rebuildSeries,
  type LedgerFill,
  type LedgerSettings,
} from '../../src/service/positions/ledger';
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
    .prepare('SELECT * FROM positions WHERE account = ? ORDER BY open_time_ms, log_id, rowid')
    .all(ACCOUNT) as PositionRow[];
  const orders = db
    .prepare('SELECT * FROM orders WHERE account = ? ORDER BY block_time_ms, log_id, rowid')
    .all(ACCOUNT) as OrderRow[];
  return { positions, orders };
}

/** −0 as 0: SQLite stores a REAL −0.0 as 0 (a short closed at its entry realises −0 in memory). */
const unsigned = <T extends object>(row: T): T =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Object.is(v, -0) ? 0 : v])) as T;

/** The rows without the fields each caller sets itself, each order with its position's row. */
function comparable(rows: { positions: PositionRow[]; orders: OrderRow[] }) {
  const strip = ({ id: _id, ...rest }: PositionRow) => unsigned(rest);
  const byId = new Map(rows.positions.map((p) => [p.id, strip(p)]));
  const orders = rows.orders.map(({ id: _id, position_id, ...rest }) => ({
    ...unsigned(rest),
    position: byId.get(position_id) ?? `missing ${position_id}`,
  }));
  const key = (x: unknown) => JSON.stringify(x);
  return {
    positions: rows.positions.map(strip).sort((a, b) => key(a).localeCompare(key(b))),
    orders: orders.sort((a, b) => key(a).localeCompare(key(b))),
  };
}

/**
 * The sandbox's path: the same steps as the typed USD orders a sandbox client sends (OPEN,
 * INCREASE, DECREASE valued at the entry, CLOSE, and CLOSE then OPEN for a step through zero), each
 * adding collateral when it grows the position; with the rows the engine, called directly with the
 * same steps, books for a source like that one (no fees, its collateral reported).
 */
function sandboxAndReference(steps: Step[]) {
  const db = freshDb();
  const indexToken = hyperliquidIndexToken(COIN);
  const orders: SandboxOrder[] = [];
  const reference: LedgerFill[] = [];
  let net = 0; // 10^-4 token, signed: exact in a double at these sizes
  let collateral = 0;
  let timeMs = START;
  const base = { account: ACCOUNT, protocol: PROTOCOL, indexToken, collateralDeltaNumber: 0 };
  const entry = () =>
    db.prepare("SELECT average_price FROM positions WHERE status = 'OPEN'").pluck().get() as number;
  try {
    steps.forEach((s, i) => {
      timeMs += s.gapMs;
      const price = s.priceCents / 100;
      const at = { priceNumber: price, blockTime: timeMs, txHash: `0x${i}` };
      const grow = (k: number, id: string, type: 'OPEN' | 'INCREASE') => {
        const usd = Number(decimal(k * s.priceCents, 6)); // k × 10^-4 tokens × price, as decimal text
        const added = Math.max(0.01, Math.round(usd * 20) / 100); // 5× leverage, in cents
        collateral = type === 'OPEN' ? added : collateral + added;
        orders.push({
          ...base,
          ...at,
          id,
          isLong: s.isBuy,
          type,
          sizeDeltaNumber: usd,
          collateralDeltaNumber: added,
        });
        return added;
      };
      const shrink = (type: 'DECREASE' | 'CLOSE', usd: number, isLiquidate: boolean) =>
        orders.push({
          ...base,
          ...at,
          id: `s${i}`,
          isLong: net > 0,
          type,
          sizeDeltaNumber: usd,
          isLiquidate,
        });
      const fill: LedgerFill = {
        id: `s${i}`,
        timeMs,
        isBuy: s.isBuy,
        price,
        amount: { tokens: decimal(s.k, 4) },
        isLiquidation: s.isLiquidation,
        txHash: `0x${i}`,
        logId: 0,
      };
      const delta = s.isBuy ? s.k : -s.k;
      if (net === 0 || Math.sign(net) === Math.sign(delta)) {
        const added = grow(s.k, `s${i}`, net === 0 ? 'OPEN' : 'INCREASE');
        reference.push({ ...fill, collateral, collateralDelta: added });
      } else if (s.k < Math.abs(net)) {
        applyAll();
        shrink('DECREASE', (s.k / 10_000) * entry(), false);
        reference.push(fill);
      } else {
        shrink('CLOSE', 0, s.isLiquidation);
        const rest = s.k - Math.abs(net);
        if (rest > 0) grow(rest, `s${i}b`, 'OPEN');
        reference.push(rest > 0 ? { ...fill, collateral } : fill);
      }
      net += delta;
    });
    applyAll();
    const series = { account: ACCOUNT, protocol: PROTOCOL, symbol: COIN, indexToken };
    return { sandbox: storedRows(db), reference: rebuildSeries(series, reference, { pair: indexToken }) };
  } finally {
    db.close();
  }

  /** Applies the orders built so far (a DECREASE is valued at the entry the store holds before it). */
  function applyAll() {
    for (const order of orders.splice(0)) applySandboxOrder(db, order, 'order');
  }
}

/** Where two rows' columns differ: numbers beyond 1e-9 relative, anything else at all. */
function differences(path: string, a: unknown, b: unknown): string[] {
  if (typeof a === 'number' && typeof b === 'number')
    return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b)) ? [] : [`${path}: ${a} ≠ ${b}`];
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) =>
      differences(`${path}.${k}`, (a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    );
  }
  return a === b ? [] : [`${path}: ${String(a)} ≠ ${String(b)}`];
}

/** Rows in booking order without the ids the sandbox sets itself, each order with its position. */
function inOrder(rows: { positions: PositionRow[]; orders: OrderRow[] }) {
  const strip = ({ id: _id, ...rest }: PositionRow) => rest;
  const byId = new Map(rows.positions.map((p) => [p.id, strip(p)]));
  return {
    positions: rows.positions.map(strip),
    orders: rows.orders.map(({ id: _id, position_id, ...rest }) => ({
      ...rest,
      position: byId.get(position_id) ?? `missing ${position_id}`,
    })),
  };
}

/** The simulated market of the simulator's path: its taker fee, 0.01 % funding an hour, its settings. */
const SIM_FEE = 0.0006;
const simFunding = (timeMs: number) => (0.0001 * (timeMs - START)) / 3_600_000;
const SIM_SETTINGS: LedgerSettings = {
  pair: `${COIN}/USD`,
  feeRate: SIM_FEE,
  fundingIndex: simFunding,
  moneyDecimals: 2,
  keepsUsdSize: true,
  maintenanceMargin: 0.005,
  blockMs: 250,
};

/**
 * The simulator's path: the same steps as a simulated trader's actions on SimPosition (OPEN and
 * INCREASE sized in USD with 5× collateral, DECREASE by its share of what is held, CLOSE, a
 * liquidation at the engine's price where the step is marked one, and a step through zero as a
 * CLOSE and a new position), the rows written as the demo world's seeding writes them; with the
 * rows of the engine called directly with the same steps as token fills (`apply`, which types them
 * itself) and the simulator's market settings. The simulator sets itself, by its world's stamps,
 * the ids of positions and orders and their transaction hashes; log indexes here count the orders
 * on both sides.
 */
function simulatorAndReference(steps: Step[]) {
  const db = freshDb();
  const identity = (n: number, isLong: boolean): PositionIdentity => ({
    id: `S${n}`,
    account: ACCOUNT,
    protocol: PROTOCOL,
    symbol: COIN,
    indexToken: hyperliquidIndexToken(COIN),
    pair: `${COIN}/USD`,
    isLong,
  });
  let logId = 0;
  const stamp = (p: PositionIdentity, seq: number) => ({
    id: `${p.id}-${seq}`,
    txHash: `0x${p.id}${seq}`,
    logId: (logId += 1),
  });
  const reference = new PositionLedger({ ...identity(0, true), symbol: COIN }, SIM_SETTINGS);
  const finished: SimPosition[] = [];
  const orders: OrderRow[] = [];
  let sim: SimPosition | null = null;
  let net = 0; // 10^-4 token, signed
  let timeMs = START;
  const fill = (i: number, part: string, isBuy: boolean, price: number, k: number): LedgerFill => ({
    id: `s${i}${part}`,
    timeMs,
    isBuy,
    price,
    amount: { tokens: decimal(k, 4) },
    logId,
  });
  steps.forEach((s, i) => {
    timeMs += s.gapMs;
    const price = s.priceCents / 100;
    const grow = (k: number, part: string) => {
      const usd = Number(decimal(k * s.priceCents, 6));
      const added = Math.max(0.01, Math.round(usd * 20) / 100);
      const held = sim?.collateral ?? 0;
      if (!sim) {
        sim = new SimPosition(identity(finished.length + 1, s.isBuy), SIM_FEE, simFunding, stamp);
        orders.push(sim.open(timeMs, price, usd, added));
      } else orders.push(sim.increase(timeMs, price, usd, added));
      const collateral = Math.round((held + added) * 100) / 100;
      reference.apply({ ...fill(i, part, s.isBuy, price, k), collateral, collateralDelta: added });
    };
    const delta = s.isBuy ? s.k : -s.k;
    if (net === 0 || Math.sign(net) === Math.sign(delta)) grow(s.k, '');
    else if (s.k < Math.abs(net)) {
      orders.push((sim as unknown as SimPosition).decrease(timeMs, price, s.k / Math.abs(net)));
      reference.apply(fill(i, '', s.isBuy, price, s.k));
    } else {
      const p = sim as unknown as SimPosition;
      if (s.isLiquidation && p.liquidationPrice() > 0) {
        orders.push(p.liquidate(timeMs));
        reference.liquidate({ id: `s${i}`, timeMs, logId });
      } else {
        orders.push(p.close(timeMs, price));
        reference.apply(fill(i, '', s.isBuy, price, Math.abs(net)));
      }
      finished.push(p);
      sim = null;
      const rest = s.k - Math.abs(net);
      if (rest > 0) grow(rest, 'b');
    }
    net += delta;
  });
  try {
    const insert = rowInserters(db);
    const open = sim as SimPosition | null;
    db.transaction(() => {
      for (const p of open ? [...finished, open] : finished) insert.position(p.toRow());
      for (const o of orders) insert.order(o);
    })();
    return {
      simulator: storedRows(db),
      reference: { positions: reference.positions(), orders: reference.orders() },
    };
  } finally {
    db.close();
  }
}

/** Rows in booking order without what the simulator's stamps name: ids and transaction hashes. */
function unstamped(rows: { positions: PositionRow[]; orders: OrderRow[] }) {
  const strip = ({ id: _id, tx_hashes: _hashes, ...rest }: PositionRow) => unsigned(rest);
  const byId = new Map(rows.positions.map((p) => [p.id, strip(p)]));
  return {
    positions: rows.positions.map(strip),
    orders: rows.orders.map(({ id: _id, position_id, tx_hash: _hash, ...rest }) => ({
      ...unsigned(rest),
      position: byId.get(position_id) ?? `missing ${position_id}`,
    })),
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

  it("the sandbox's typed USD orders store what the engine books for the same steps", () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 40 }), (steps) => {
        const { sandbox, reference } = sandboxAndReference(steps);
        expect(reference.orders.length).toBeGreaterThanOrEqual(steps.length);
        expect(differences('rows', inOrder(sandbox), inOrder(reference))).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });

  it("the simulator's actions store what the engine books for the same steps", () => {
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 40 }), (steps) => {
        const { simulator, reference } = simulatorAndReference(steps);
        expect(reference.orders.length).toBeGreaterThanOrEqual(steps.length);
        expect(simulator.orders.length).toBe(reference.orders.length);
        expect(differences('rows', unstamped(simulator), unstamped(reference))).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });
});
