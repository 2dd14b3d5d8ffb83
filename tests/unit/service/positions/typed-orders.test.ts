// The engine's transitions by name (the sandbox's typed USD orders), a resumed position and margin
// transfers, against docs/semantics.md, The position engine and its callers, on hand-worked orders.
import { describe, expect, it } from 'vitest';
import type { SeriesKey } from '../../../../src/service/positions/keys';
import { LedgerError, PositionLedger, type TypedFill } from '../../../../src/service/positions/ledger';
import { numberToUnits, toUnits, unitsToText } from '../../../../src/service/positions/units';

const SERIES: SeriesKey = {
  account: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  protocol: 'TEST_VENUE',
  symbol: 'ETH',
  indexToken: '0x00000000000000000000000000000000000000e1',
};
const T0 = Date.UTC(2024, 5, 1);
const MINUTE = 60_000;

/** A long order `id` at T0 + `minute` minutes, `usd` of notional at `price`. */
const fill = (id: string, minute: number, price: number, usd: number, extra: Partial<TypedFill> = {}) => ({
  id,
  timeMs: T0 + minute * MINUTE,
  isLong: true,
  price,
  amount: { usd },
  logId: 0,
  ...extra,
});

describe('transitions by name', () => {
  it('opens, increases, decreases and closes with the ids, sizes and collateral the source gives', () => {
    const ledger = new PositionLedger(SERIES, { pair: 'ETH/USD' });
    const named = (id: string) => ({ ids: { order: id, position: `sandbox-${id}` } });
    // 10,000 USD at 2,000 = 5 ETH on 1,000 collateral; 2,200 USD more at 2,200 = 1 ETH, 100 added.
    ledger.applyTyped(
      'OPEN',
      fill('o1', 0, 2_000, 10_000, { ...named('o1'), collateral: 1_000, collateralDelta: 1_000 }),
    );
    ledger.applyTyped(
      'INCREASE',
      fill('o2', 1, 2_200, 2_200, { ...named('o2'), collateral: 1_100, collateralDelta: 100 }),
    );
    // 6 ETH at (10,000 + 2,200) / 6; half of them sold at 2,400.
    const entry = 12_200 / 6;
    ledger.applyTyped('DECREASE', fill('o3', 2, 2_400, 0, named('o3')), toUnits('3'));
    ledger.applyTyped('CLOSE', fill('o4', 3, 1_900, 0, { ...named('o4'), isLiquidation: false }));
    const { positions, orders } = ledger.drain();
    expect(
      orders.map((o) => [o.id, o.type, o.size_delta, o.size_delta_in_token, o.collateral_delta]),
    ).toEqual([
      ['o1', 'OPEN', 10_000, 5, 1_000],
      ['o2', 'INCREASE', 2_200, 1, 100],
      ['o3', 'DECREASE', 3 * entry, 3, 0],
      // The close withdraws what was held.
      ['o4', 'CLOSE', 3 * entry, 3, 1_100],
    ]);
    expect(orders.map((o) => o.collateral)).toEqual([1_000, 1_100, 1_100, 0]);
    // An order's leverage: its size after / its collateral; a close keeps the one before it.
    expect(orders.map((o) => o.leverage)).toEqual([
      10,
      12_200 / 1_100,
      (3 * entry) / 1_100,
      (3 * entry) / 1_100,
    ]);
    expect(positions).toHaveLength(1);
    expect(positions[0]).toMatchObject({
      id: 'sandbox-o1',
      pair: 'ETH/USD',
      status: 'CLOSE',
      size: 12_200,
      collateral: 1_100,
      realised_pnl: 3 * (2_400 - entry) + 3 * (1_900 - entry),
      order_count: 4,
      order_increase_count: 2,
      order_decrease_count: 2,
      close_time_ms: T0 + 3 * MINUTE,
    });
  });

  it('keeps a DECREASE that empties the position a DECREASE, and closes the position', () => {
    const ledger = new PositionLedger(SERIES);
    ledger.applyTyped('OPEN', fill('o1', 0, 100, 1_000, { collateral: 100 }));
    ledger.applyTyped('DECREASE', fill('o2', 1, 110, 0, { isLiquidation: true }), toUnits('10'));
    const { positions, orders } = ledger.drain();
    expect(orders.map((o) => o.type)).toEqual(['OPEN', 'DECREASE']);
    expect(positions[0]).toMatchObject({ status: 'CLOSE', realised_pnl: 100, is_liquidate: 1 });
    expect(ledger.netUnits).toBe(0n);
  });

  it('refuses a transition that does not fit, and stays as it was', () => {
    const ledger = new PositionLedger(SERIES);
    expect(() => ledger.applyTyped('INCREASE', fill('x', 0, 100, 100))).toThrow(LedgerError);
    expect(() => ledger.applyTyped('OPEN', fill('x', 0, 100, 0))).toThrow(LedgerError);
    ledger.applyTyped('OPEN', fill('o1', 0, 100, 1_000, { collateral: 100 }));
    expect(() => ledger.applyTyped('OPEN', fill('x', 1, 100, 100))).toThrow(LedgerError);
    expect(() => ledger.applyTyped('INCREASE', fill('x', 1, 100, 100, { isLong: false }))).toThrow(
      LedgerError,
    );
    expect(() => ledger.applyTyped('DECREASE', fill('x', 1, 100, 0), toUnits('10.5'))).toThrow(LedgerError);
    expect(() => ledger.transferMargin(fill('x', 1, 100, 0), 200)).not.toThrow();
    expect(() => new PositionLedger(SERIES).transferMargin(fill('x', 1, 100, 0), 200)).toThrow(LedgerError);
    expect(ledger.netUnits).toBe(toUnits('10'));
  });

  it('books a margin transfer in no order count, and a collateral-only INCREASE in one', () => {
    const ledger = new PositionLedger(SERIES);
    ledger.applyTyped('OPEN', fill('o1', 0, 100, 1_000, { collateral: 100 }));
    const margin = ledger.transferMargin(fill('o2', 1, 105, 0, { collateralDelta: 50 }), 150);
    ledger.applyTyped('INCREASE', fill('o3', 2, 110, 0, { collateral: 175, collateralDelta: 25 }));
    expect(margin).toMatchObject({
      type: 'MARGIN_TRANSFERRED',
      size_delta: 0,
      collateral: 150,
      collateral_delta: 50,
    });
    const [position] = ledger.positions();
    expect(position).toMatchObject({
      order_count: 2,
      order_increase_count: 2,
      size_in_token: 10,
      average_price: 100,
      collateral: 175,
    });
  });
});

describe('a resumed position', () => {
  it('goes on from its stored row as the ledger that booked it would', () => {
    const orders = [
      (l: PositionLedger) => l.applyTyped('OPEN', fill('o1', 0, 3, 1_000, { collateral: 100 })),
      (l: PositionLedger) => l.applyTyped('INCREASE', fill('o2', 1, 7, 500, { collateral: 150 })),
      (l: PositionLedger) => l.applyTyped('DECREASE', fill('o3', 2, 5, 0), toUnits('100')),
      (l: PositionLedger) => l.applyTyped('CLOSE', fill('o4', 3, 4, 0)),
    ];
    const whole = new PositionLedger(SERIES);
    const booked = orders.map((order) => order(whole));
    const before = new PositionLedger(SERIES);
    orders.slice(0, 2).forEach((order) => order(before));
    const resumed = PositionLedger.resume(SERIES, before.positions()[0]!);
    expect(orders.slice(2).map((order) => order(resumed))).toEqual(booked.slice(2));
    expect(resumed.positions()).toEqual(whole.positions());
  });

  it('reads a stored token count back to the nearest unit (from its shortest decimal text)', () => {
    expect(unitsToText(numberToUnits(1 / 3))).toBe('0.3333333333333333');
    expect(unitsToText(numberToUnits(3.3333333333333335e-7))).toBe('0.000000333333333333');
    expect(unitsToText(numberToUnits(5))).toBe('5');
  });
});
