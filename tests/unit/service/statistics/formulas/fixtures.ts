// Shared hand-made positions for the analytics tests. Every time is relative to T0, 00:00 UTC of
// "today" (2024-03-15); NOW is noon of that day, so T0 ≠ NOW catches day-start mistakes.
import fc from 'fast-check';
import type {
  MarkPriceOf,
  PositionFacts,
} from '../../../../../src/service/statistics/formulas/position-facts';
import { DAY_MS } from '../../../../../src/service/statistics/formulas/windows';

export const HOUR_MS = 3_600_000;
export const T0 = Date.UTC(2024, 2, 15);
export const NOW = T0 + 12 * HOUR_MS;
export const ACCOUNT = '0x1111111111111111111111111111111111111111';

let seq = 0;

/** A closed long on ETH with round numbers; override what the test is about. */
export function position(overrides: Partial<PositionFacts> = {}): PositionFacts {
  seq += 1;
  return {
    id: `p${seq}`,
    account: ACCOUNT,
    protocol: 'PERPX',
    indexToken: 'ETH',
    pair: 'ETH-USD',
    isLong: true,
    size: 1000,
    collateral: 100,
    averagePrice: 2000,
    realisedPnl: 10,
    fee: 0,
    funding: 0,
    isLiquidate: false,
    orderCount: 2,
    openTimeMs: T0 - 3 * DAY_MS,
    closeTimeMs: T0 - 2 * DAY_MS,
    ...overrides,
  };
}

/** A closed position at `closeTimeMs`, opened an hour earlier. */
export const closedAt = (closeTimeMs: number, overrides: Partial<PositionFacts> = {}): PositionFacts =>
  position({ openTimeMs: closeTimeMs - HOUR_MS, closeTimeMs, ...overrides });

/** Mark prices of the fixture: ETH 2200, BTC 50000, nothing else. */
export const MARKS: MarkPriceOf = (token) => ({ ETH: 2200, BTC: 50_000 })[token];

// The trader of the worked example. Derived numbers: pnl = realised − fee + funding,
// roi = pnl / collateral × 100, realisedRoi = realised / collateral × 100, leverage = size / collateral.
//
//      side  token size collat realised fee funding | pnl  roi realisedRoi lev duration(s) win liq
//  A   long  ETH   1000  100     50      5    −5    |  40   40     50        10   86400    yes no
//  B   short BTC   2000  400   −100     10    10    | −100 −25    −25         5    3600    no  no
//  C   long  ETH    500  100    −80      2     0    | −82  −82    −80         5    7200    no  YES (counted)
//  D   short BTC   3000  300    150     20    20    |  150  50     50        10   86400    yes yes (a win: not counted)
//  F   long  SOL    100   50     20      1     0    |  19   38     40         2  864000    yes no   (closed T0 − 10 d)
//  G   short ETH    100  100     10      0     0    |  10   10     10         1    3600    yes no   (closed today)
//  E   long  ETH   1000  200   open, entry 2000, mark 2200 → unrealised (2200 − 2000) / 2000 × 1000 = 100
export const A = position({
  id: 'A',
  size: 1000,
  collateral: 100,
  realisedPnl: 50,
  fee: 5,
  funding: -5,
  orderCount: 2,
  openTimeMs: T0 - 3 * DAY_MS,
  closeTimeMs: T0 - 2 * DAY_MS,
});
export const B = position({
  id: 'B',
  indexToken: 'BTC',
  pair: 'BTC-USD',
  isLong: false,
  size: 2000,
  collateral: 400,
  averagePrice: 40_000,
  realisedPnl: -100,
  fee: 10,
  funding: 10,
  orderCount: 4,
  openTimeMs: T0 - 2 * DAY_MS,
  closeTimeMs: T0 - 2 * DAY_MS + HOUR_MS,
});
export const C = position({
  id: 'C',
  size: 500,
  collateral: 100,
  realisedPnl: -80,
  fee: 2,
  funding: 0,
  isLiquidate: true,
  orderCount: 2,
  openTimeMs: T0 - DAY_MS,
  closeTimeMs: T0 - DAY_MS + 2 * HOUR_MS,
});
export const D = position({
  id: 'D',
  indexToken: 'BTC',
  pair: 'BTC-USD',
  isLong: false,
  size: 3000,
  collateral: 300,
  averagePrice: 40_000,
  realisedPnl: 150,
  fee: 20,
  funding: 20,
  isLiquidate: true,
  orderCount: 3,
  openTimeMs: T0 - 5 * DAY_MS,
  closeTimeMs: T0 - 4 * DAY_MS,
});
export const E = position({
  id: 'E',
  size: 1000,
  collateral: 200,
  averagePrice: 2000,
  realisedPnl: 0,
  openTimeMs: T0 - 10 * DAY_MS,
  closeTimeMs: null,
});
export const F = position({
  id: 'F',
  indexToken: 'SOL',
  pair: 'SOL-USD',
  size: 100,
  collateral: 50,
  averagePrice: 100,
  realisedPnl: 20,
  fee: 1,
  funding: 0,
  orderCount: 2,
  openTimeMs: T0 - 20 * DAY_MS,
  closeTimeMs: T0 - 10 * DAY_MS,
});
export const G = position({
  id: 'G',
  isLong: false,
  size: 100,
  collateral: 100,
  realisedPnl: 10,
  fee: 0,
  funding: 0,
  orderCount: 1,
  openTimeMs: T0,
  closeTimeMs: T0 + HOUR_MS,
});
export const TRADER = [A, B, C, D, E, F, G];

const money = (max: number) => fc.double({ min: -max, max, noNaN: true });
const amount = (max: number) => fc.oneof(fc.constant(0), fc.double({ min: 0, max, noNaN: true }));
// Close times counted back from T0: exact day boundaries (window edges), anywhere in 90 days, and
// today's first hour (negative: after T0, inside FULL only). NOW is never before T0 + 1 h.
const msAgo = fc.oneof(
  fc.integer({ min: 0, max: 90 }).map((d) => d * DAY_MS),
  fc.integer({ min: 0, max: 90 * DAY_MS }),
  fc.integer({ min: -HOUR_MS, max: -1 }),
);

/** Any position of one trader on one protocol, closed before NOW or still open. */
export const positionArb: fc.Arbitrary<PositionFacts> = fc
  .record({
    isLong: fc.boolean(),
    size: amount(1e6),
    collateral: amount(1e5),
    averagePrice: amount(1e5),
    realisedPnl: fc.oneof(fc.constant(0), money(1e5)),
    fee: amount(100),
    funding: money(100),
    isLiquidate: fc.boolean(),
    orderCount: fc.integer({ min: 1, max: 20 }),
    indexToken: fc.constantFrom('ETH', 'BTC', 'SOL'),
    closeAgo: fc.option(msAgo, { nil: null, freq: 4 }),
    heldMs: fc.integer({ min: 0, max: 30 * DAY_MS }),
  })
  .map(({ closeAgo, heldMs, ...rest }) => {
    const closeTimeMs = closeAgo === null ? null : T0 - closeAgo;
    const openTimeMs = (closeTimeMs ?? NOW) - heldMs;
    return position({ ...rest, pair: `${rest.indexToken}-USD`, openTimeMs, closeTimeMs });
  });

/** A "now" anywhere in the day of T0 after its first hour. */
export const nowArb = fc.integer({ min: T0 + HOUR_MS, max: T0 + DAY_MS - 1 });
