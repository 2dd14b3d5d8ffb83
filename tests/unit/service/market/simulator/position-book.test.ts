// A simulated position against numbers worked by hand (docs/semantics.md, Positions).
import { describe, expect, it } from 'vitest';
import { MAINTENANCE } from '../../../../../src/service/market/simulator/parameters';
import {
  SimPosition,
  type OrderStamper,
  type PositionIdentity,
} from '../../../../../src/service/market/simulator/position-book';
import { checkPosition } from './identities';

const identity = (isLong: boolean): PositionIdentity => ({
  id: 'T1',
  account: '0x00000000000000000000000000000000000000aa',
  protocol: 'NOVA_ARB',
  symbol: 'ETH',
  indexToken: '0x00000000000000000000000000000000000000e7',
  pair: 'ETH/USD',
  isLong,
});
const stamp: OrderStamper = (p, seq) => ({ id: `${p.id}-${seq}`, txHash: `0xtx${seq}`, logId: seq + 1 });
const HOUR = 3_600_000;
/** Funding index: 0.01 % per hour. */
const funding = (t: number) => (0.0001 * t) / HOUR;
const FEE = 0.0006; // NOVA_ARB's taker fee

describe('SimPosition', () => {
  it('opens, scales in, takes part off, tops up and closes a long, as worked by hand', () => {
    const p = new SimPosition(identity(true), FEE, funding, stamp);
    const orders = [
      p.open(0, 2_000, 10_000, 1_000), // 5 ETH at 2000, 10×
      p.increase(HOUR, 2_500, 5_000, 500), // 2 ETH at 2500: 7 ETH, average 15000/7
      p.decrease(2 * HOUR, 3_000, 0.5), // 3.5 ETH closed
      p.addMargin(3 * HOUR, 2_800, 300),
      p.close(4 * HOUR, 2_600),
    ];
    const average = 15_000 / 7;
    expect(orders.map((o) => o.type)).toEqual([
      'OPEN',
      'INCREASE',
      'DECREASE',
      'MARGIN_TRANSFERRED',
      'CLOSE',
    ]);
    expect(orders[1]).toMatchObject({ size: 15_000, size_delta: 5_000, collateral: 1_500, fee: 3 });
    expect(orders[1]?.average_price).toBeCloseTo(average, 9);
    expect(orders[2]?.realised_pnl).toBe(Math.round((3_000 - average) * 3.5 * 100) / 100); // 3000
    expect(orders[2]).toMatchObject({ collateral_delta: 0, fee: 6.3 }); // 0.06 % of 3.5 × 3000
    expect(orders[3]).toMatchObject({
      type: 'MARGIN_TRANSFERRED',
      fee: 0,
      collateral: 1_800,
      collateral_delta: 300,
    });
    expect(orders[4]).toMatchObject({ size: 0, collateral: 0, collateral_delta: 1_800 });
    const row = p.toRow();
    const realised = 3_000 + Math.round((2_600 - average) * 3.5 * 100) / 100;
    expect(row).toMatchObject({
      status: 'CLOSE',
      size: 15_000, // the peak notional, reached after the increase
      collateral: 1_800,
      order_count: 4, // the margin transfer is no order of the count
      order_increase_count: 2,
      order_decrease_count: 2,
      duration_s: 4 * 3600,
      is_win: 1,
      is_liquidate: 0,
    });
    expect(row.realised_pnl).toBeCloseTo(realised, 9);
    expect(row.leverage).toBeCloseTo(15_000 / 1_800, 12);
    expect(row.fee).toBeCloseTo(6 + 3 + 6.3 + Math.round(0.0006 * 3.5 * 2_600 * 100) / 100, 9);
    // Longs pay a positive funding rate: 1 h on 10000, then 1 h on 15000, then 2 h on 7500.
    expect(row.funding).toBeCloseTo(-(1 + 1.5 + 0.75 + 0.75), 9);
    expect(row.pnl).toBeCloseTo(row.realised_pnl - row.fee + row.funding, 9);
    expect(checkPosition(row, orders)).toEqual([]);
  });

  it('liquidates a long at entry × (1 − 1/leverage + maintenance), losing exactly the collateral', () => {
    const p = new SimPosition(identity(true), FEE, funding, stamp);
    p.open(0, 100, 2_000, 100); // 20×
    expect(p.liquidationPrice()).toBeCloseTo(100 * (1 - 1 / 20 + MAINTENANCE), 12);
    expect(p.isLiquidatableAt(95.6)).toBe(false);
    expect(p.isLiquidatableAt(95.49)).toBe(true);
    const order = p.liquidate(HOUR);
    expect(order).toMatchObject({ type: 'CLOSE', realised_pnl: -100 });
    expect(order.price).toBeCloseTo(95.5, 12);
    expect(p.toRow()).toMatchObject({ realised_pnl: -100, is_liquidate: 1, is_win: 0, realised_roi: -100 });
  });

  it('liquidates a short symmetrically, and a liquidation after a profitable decrease still nets −collateral', () => {
    const p = new SimPosition(identity(false), FEE, funding, stamp);
    const orders = [p.open(0, 100, 1_000, 100), p.decrease(HOUR, 95, 0.5)];
    expect(orders[1]?.realised_pnl).toBe(25); // 5 tokens × 5
    // 5 tokens left at 100 on 100 collateral: leverage 5 now.
    expect(p.liquidationPrice()).toBeCloseTo(100 * (1 + 1 / 5 - MAINTENANCE), 12);
    orders.push(p.liquidate(2 * HOUR));
    expect(orders[2]?.realised_pnl).toBe(-125);
    const row = p.toRow();
    expect(row.realised_pnl).toBe(-100);
    expect(checkPosition(row, orders)).toEqual([]);
  });

  it('leaves an open position with null isWin and duration, and its tokens in size_in_token', () => {
    const p = new SimPosition(identity(true), FEE, funding, stamp);
    p.open(0, 50, 500, 100);
    expect(p.toRow()).toMatchObject({ status: 'OPEN', is_win: null, duration_s: null, size_in_token: 10 });
  });

  it('continues a stored open position where it stopped', () => {
    const p = new SimPosition(identity(true), FEE, funding, stamp);
    const first = p.open(0, 50, 500, 100);
    const again = SimPosition.fromRow(p.toRow(), FEE, funding, stamp);
    const close = again.close(HOUR, 60);
    expect(close.id).toBe('T1-1');
    expect(checkPosition(again.toRow(), [first, close])).toEqual([]);
  });
});
