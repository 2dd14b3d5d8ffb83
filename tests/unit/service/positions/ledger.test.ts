// The position ledger against docs/semantics.md, Positions rebuilt from fills, on hand-worked series.
import { describe, expect, it } from 'vitest';
import { positionId, type SeriesKey } from '../../../../src/service/positions/keys';
import {
  LedgerError,
  PositionLedger,
  rebuildSeries,
  type LedgerFill,
} from '../../../../src/service/positions/ledger';
import { DecimalError, toUnits, unitsToText, usdToUnits } from '../../../../src/service/positions/units';

const SERIES: SeriesKey = {
  account: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  protocol: 'TEST_VENUE',
  symbol: 'BTC',
};
const HOUR = 3_600_000;
const T0 = Date.UTC(2024, 5, 1);

/** A fill `id` at T0 + `hour` hours buying (B) or selling (A) `tokens` at `price`. */
function f(
  id: string,
  side: 'B' | 'A',
  tokens: string,
  price: number,
  hour: number,
  extra: Partial<LedgerFill> = {},
) {
  return { id, timeMs: T0 + hour * HOUR, isBuy: side === 'B', price, amount: { tokens }, ...extra };
}

const build = (fills: LedgerFill[], leverage?: number) =>
  rebuildSeries(SERIES, fills, leverage === undefined ? {} : { assumedLeverage: leverage });

describe('average entry and realised PnL', () => {
  it('keeps the average through a decrease and re-weights it on an increase', () => {
    const { positions, orders } = build([
      f('1', 'B', '2', 100, 0),
      f('2', 'A', '1', 110, 1), // DECREASE: realises (110 − 100) × 1 = 10, average stays 100
      f('3', 'B', '1', 200, 2), // INCREASE: 1 held at 100 + 1 at 200 → average 150
      f('4', 'A', '2', 150, 3), // CLOSE at the average: realises 0
    ]);
    expect(orders.map((o) => [o.type, o.average_price, o.realised_pnl])).toEqual([
      ['OPEN', 100, 0],
      ['DECREASE', 100, 10],
      ['INCREASE', 150, 0],
      ['CLOSE', 150, 0],
    ]);
    expect(positions).toHaveLength(1);
    expect(positions[0]).toMatchObject({
      status: 'CLOSE',
      average_price: 150,
      realised_pnl: 10,
      size: 300, // the peak: 2 tokens × 150 after the increase (2 × 100 = 200 before)
      order_count: 4,
      order_increase_count: 2,
      order_decrease_count: 2,
    });
  });

  it('realises (price − entry) × tokens for a long and the opposite for a short', () => {
    const long = build([f('1', 'B', '1.5', 100, 0), f('2', 'A', '1.5', 120, 1)]).positions[0];
    const short = build([f('1', 'A', '1.5', 100, 0), f('2', 'B', '1.5', 120, 1)]).positions[0];
    const shortWin = build([f('1', 'A', '2', 100, 0), f('2', 'B', '2', 90, 1)]).positions[0];
    expect(long).toMatchObject({ is_long: 1, realised_pnl: 30, is_win: 1 });
    expect(short).toMatchObject({ is_long: 0, realised_pnl: -30, is_win: 0 });
    expect(shortWin).toMatchObject({ is_long: 0, realised_pnl: 20, is_win: 1 });
  });
});

describe('position boundaries', () => {
  it('leaves a partially closed position OPEN with its realised part', () => {
    const { positions, orders } = build([f('1', 'B', '4', 50, 0, { fee: 1 }), f('2', 'A', '1', 60, 2)]);
    expect(orders.map((o) => o.type)).toEqual(['OPEN', 'DECREASE']);
    expect(positions).toEqual([
      expect.objectContaining({
        status: 'OPEN',
        close_time_ms: null,
        close_block_number: null,
        is_win: null,
        duration_s: null,
        realised_pnl: 10,
        pnl: 9,
        size: 200,
        size_in_token: 3,
        updated_at_ms: T0 + 2 * HOUR,
      }),
    ]);
  });

  it('closes at zero and opens the rest on the other side when a fill goes through zero', () => {
    const { positions, orders } = build([
      f('1', 'B', '1', 100, 0, { fee: 0.3 }),
      f('2', 'A', '3', 90, 1, { fee: 0.9, funding: -0.5 }),
      f('3', 'B', '2', 80, 2),
    ]);
    expect(orders.map((o) => [o.type, o.is_long, o.size_delta_in_token, o.price])).toEqual([
      ['OPEN', 1, 1, 100],
      ['CLOSE', 1, 1, 90],
      ['OPEN', 0, 2, 90],
      ['CLOSE', 0, 2, 80],
    ]);
    const [long, short] = positions;
    expect(long).toMatchObject({
      status: 'CLOSE',
      realised_pnl: -10,
      close_time_ms: T0 + HOUR,
      funding: -0.5,
    });
    expect(long?.fee).toBeCloseTo(0.6, 12); // 0.3 + a third of 0.9
    expect(short).toMatchObject({ status: 'CLOSE', open_time_ms: T0 + HOUR, average_price: 90, funding: 0 });
    expect(short).toMatchObject({ realised_pnl: 20, size: 180 });
    expect(short?.fee).toBeCloseTo(0.6, 12); // the other two thirds
    expect(short?.id).toBe(positionId(SERIES, '2', 1));
    expect(orders[2]?.position_id).toBe(short?.id);
    expect(long?.id).not.toBe(short?.id);
  });

  it('marks a position liquidated only when its closing fill is a liquidation', () => {
    const liquidated = build([f('1', 'B', '1', 100, 0), f('2', 'A', '1', 60, 1, { isLiquidation: true })]);
    const partial = build([
      f('1', 'B', '2', 100, 0),
      f('2', 'A', '1', 60, 1, { isLiquidation: true }),
      f('3', 'A', '1', 110, 2),
    ]);
    expect(liquidated.positions[0]).toMatchObject({ is_liquidate: 1, realised_pnl: -40, status: 'CLOSE' });
    expect(partial.positions[0]).toMatchObject({ is_liquidate: 0, status: 'CLOSE' });
  });
});

describe('exact zero', () => {
  it('closes 0.1 + 0.2 − 0.3 exactly, which floats would leave open', () => {
    expect(0.1 + 0.2 - 0.3).not.toBe(0); // why the ledger counts in integers
    const ledger = new PositionLedger(SERIES);
    ledger.apply(f('1', 'B', '0.1', 3000, 0));
    ledger.apply(f('2', 'B', '0.2', 3300, 1));
    const [order] = ledger.apply(f('3', 'A', '0.3', 3400, 2));
    expect(order?.type).toBe('CLOSE');
    expect(ledger.netUnits).toBe(0n);
    expect(ledger.positions()).toEqual([expect.objectContaining({ status: 'CLOSE', size_in_token: 0 })]);
    expect(ledger.positions()[0]?.realised_pnl).toBeCloseTo(60, 9);
  });

  it('closes ten buys of 0.1 with one sell of 1, and long decimals too', () => {
    const tens = Array.from({ length: 10 }, (_, i) => f(`b${i}`, 'B', '0.1', 1, i));
    expect(build([...tens, f('s', 'A', '1', 1, 10)]).positions[0]?.status).toBe('CLOSE');
    const dust = build([
      f('1', 'A', '1234.000000000000000001', 0.00001, 0),
      f('2', 'B', '1234.000000000000000001', 0.00001, 1),
    ]);
    expect(dust.positions[0]?.status).toBe('CLOSE');
    const residue = build([f('1', 'A', '1', 1, 0), f('2', 'B', '0.999999999999999999', 1, 1)]);
    expect(residue.positions[0]).toMatchObject({ status: 'OPEN' }); // a real 1e-18 left is not zero
  });
});

describe('USD-notional orders', () => {
  it('converts USD at the price to tokens, exactly in decimal', () => {
    expect(unitsToText(usdToUnits(1000, 3))).toBe('333.333333333333333333');
    expect(unitsToText(usdToUnits('2', '3'))).toBe('0.666666666666666667'); // half away from zero
    expect(usdToUnits(1100, 3.3)).toBe(usdToUnits(1000, 3)); // the same ratio gives the same units
    expect(unitsToText(usdToUnits(100, 60000))).toBe('0.001666666666666667');
  });

  it('opens by USD and closes by the same USD at a proportional price', () => {
    const ledger = new PositionLedger(SERIES);
    ledger.apply({ id: '1', timeMs: T0, isBuy: true, price: 3, amount: { usd: 1000 } });
    expect(ledger.netUnits).toBe(toUnits('333.333333333333333333'));
    ledger.apply({ id: '2', timeMs: T0 + HOUR, isBuy: false, price: 3.3, amount: { usd: 1100 } });
    expect(ledger.netUnits).toBe(0n);
    const [position] = ledger.positions();
    expect(position?.status).toBe('CLOSE');
    expect(position?.realised_pnl).toBeCloseTo(100, 9); // 333.33… tokens × 0.3
  });

  it('takes exact units, so a sandbox can close "the rest"', () => {
    const ledger = new PositionLedger(SERIES);
    ledger.apply({ id: '1', timeMs: T0, isBuy: false, price: 7, amount: { usd: 100 } });
    const rest = -ledger.netUnits;
    const [order] = ledger.apply({ id: '2', timeMs: T0 + 1, isBuy: true, price: 7, amount: { units: rest } });
    expect(order?.type).toBe('CLOSE');
  });
});

describe('collateral and leverage', () => {
  it('assumes collateral = size / leverage, and leverage is exactly the assumption', () => {
    const [p] = build([f('1', 'B', '3', 33.3, 0), f('2', 'A', '3', 36.63, 1)], 3).positions;
    expect(p?.collateral).toBeCloseTo(33.3, 9);
    expect(p?.leverage).toBe(3);
    expect(p?.realised_roi).toBeCloseTo(((p?.realised_pnl ?? 0) / (p?.collateral ?? 1)) * 100, 9);
  });

  it('uses the largest collateral the source reports, and leverage = size / collateral', () => {
    const { positions, orders } = build([
      f('1', 'B', '1', 1000, 0, { collateral: 100 }),
      f('2', 'B', '1', 1000, 1, { collateral: 400 }),
      f('3', 'A', '2', 1000, 2),
    ]);
    expect(positions[0]).toMatchObject({ size: 2000, collateral: 400, leverage: 5 });
    expect(orders.map((o) => [o.collateral, o.collateral_delta, o.leverage])).toEqual([
      [100, 100, 10],
      [400, 300, 5],
      [0, 400, 5],
    ]);
  });
});

describe('the ledger itself', () => {
  it('gives the same rows and ids on every rebuild', () => {
    const fills = [f('a', 'B', '1', 10, 0), f('b', 'A', '2', 11, 1), f('c', 'B', '1', 9, 2)];
    expect(build(fills)).toEqual(build(fills));
    expect(new Set(build(fills).orders.map((o) => o.id)).size).toBe(4);
  });

  it('sorts by time and keeps the given order for fills of the same time', () => {
    const buyFirst = build([f('2', 'A', '1', 10, 1), f('1', 'B', '1', 10, 0), f('3', 'B', '1', 12, 1)]);
    expect(buyFirst.orders.map((o) => o.type)).toEqual(['OPEN', 'CLOSE', 'OPEN']);
    const sellFirst = build([f('1', 'B', '1', 10, 0), f('3', 'B', '1', 12, 1), f('2', 'A', '1', 10, 1)]);
    expect(sellFirst.orders.map((o) => o.type)).toEqual(['OPEN', 'INCREASE', 'DECREASE']);
  });

  it('refuses fills out of time order, without size, or without a price', () => {
    const ledger = new PositionLedger(SERIES);
    ledger.apply(f('1', 'B', '1', 10, 5));
    expect(() => ledger.apply(f('2', 'B', '1', 10, 4))).toThrow(LedgerError);
    expect(() => ledger.apply(f('3', 'B', '0', 10, 6))).toThrow(/size must be greater than 0/);
    expect(() => ledger.apply(f('4', 'B', '1', 0, 6))).toThrow(/price/);
    expect(() => new PositionLedger(SERIES, { assumedLeverage: 0 })).toThrow(LedgerError);
  });
});

describe('decimal amounts', () => {
  it('reads decimal text exactly and writes it back canonically', () => {
    expect(unitsToText(toUnits('0.30'))).toBe('0.3');
    expect(unitsToText(toUnits('1e-7'))).toBe('0.0000001');
    expect(unitsToText(toUnits(1.5e21))).toBe('1500000000000000000000');
    expect(unitsToText(toUnits('-2.000'))).toBe('-2');
    expect(toUnits('0.000000000000000001')).toBe(1n);
    expect(toUnits('1.10000000000000000000')).toBe(toUnits('1.1'));
  });

  it('refuses what is not a decimal or is finer than 18 decimals', () => {
    for (const bad of ['abc', '', '.', '1,5', '0x10', '1e'])
      expect(() => toUnits(bad), bad).toThrow(DecimalError);
    expect(() => toUnits('0.0000000000000000001')).toThrow(/more than 18 decimals/);
    expect(() => toUnits(Number.NaN)).toThrow(DecimalError);
  });
});
