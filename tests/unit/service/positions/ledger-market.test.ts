// The engine's market settings (docs/semantics.md, The position engine and its callers): fees at a
// rate, funding from an index, money in cents with exact half cents, a kept USD size, decreases by a
// share, liquidation at the maintenance-margin price, block numbers. Worked by hand.
import { describe, expect, it } from 'vitest';
import {
  LedgerError,
  PositionLedger,
  roundMoney,
  type LedgerSettings,
  type TypedFill,
} from '../../../../src/service/positions/ledger';
import { positionKey } from '../../../../src/service/positions/keys';
import { scaleUnits } from '../../../../src/service/positions/units';

const SERIES = {
  account: '0x00000000000000000000000000000000000000aa',
  protocol: 'NOVA_ARB',
  symbol: 'ETH',
  indexToken: '0x00000000000000000000000000000000000000e7',
};
const HOUR = 3_600_000;
let n = 0;
const fill = (timeMs: number, price: number, isLong: boolean, amount: TypedFill['amount']): TypedFill => ({
  id: `f${(n += 1)}`,
  timeMs,
  isLong,
  price,
  amount,
});

describe('fees at a rate and funding from an index', () => {
  const settings: LedgerSettings = {
    feeRate: 0.001,
    fundingIndex: (t) => (0.01 * t) / HOUR, // 1 % an hour
  };

  it('charges rate × tokens × price where a fill has no fee of its own, and none for a margin transfer', () => {
    const ledger = new PositionLedger(SERIES, settings);
    expect(ledger.applyTyped('OPEN', fill(0, 100, true, { tokens: '2' })).fee).toBeCloseTo(0.2, 12);
    expect(ledger.applyTyped('INCREASE', { ...fill(0, 100, true, { tokens: '1' }), fee: 5 }).fee).toBe(5);
    expect(ledger.transferMargin(fill(0, 100, true, { units: 0n }), 50).fee).toBe(0);
  });

  it('accrues −side × size × Δindex since the previous fill: longs pay a positive rate, shorts receive it', () => {
    const long = new PositionLedger(SERIES, settings);
    long.applyTyped('OPEN', fill(0, 100, true, { tokens: '1' }));
    expect(long.applyTyped('CLOSE', fill(2 * HOUR, 120, true, { units: 0n })).funding).toBeCloseTo(-2, 12);
    const short = new PositionLedger(SERIES, settings);
    short.applyTyped('OPEN', fill(0, 100, false, { tokens: '1' }));
    expect(short.applyTyped('CLOSE', fill(HOUR, 90, false, { units: 0n })).funding).toBeCloseTo(1, 12);
    expect(short.positions()[0]?.funding).toBeCloseTo(1, 12);
  });
});

describe('money in cents', () => {
  it('rounds realised PnL, fee and funding per order, and their sums on the position', () => {
    const ledger = new PositionLedger(SERIES, { moneyDecimals: 2, feeRate: 0.0006 });
    ledger.applyTyped('OPEN', fill(0, 3, true, { tokens: '1.234567' }));
    const close = ledger.applyTyped('CLOSE', fill(1, 3.3333, true, { units: 0n }));
    expect(close.realised_pnl).toBe(0.41); // 0.3333 × 1.234567 = 0.41148…
    expect(close.fee).toBe(0); // 0.0006 × 4.115… = 0.0025 → 0.00
    expect(ledger.positions()[0]).toMatchObject({ realised_pnl: 0.41, fee: 0 });
  });

  it('rounds a float that stands for an exact half cent up, as its decimal value does', () => {
    expect(0.00035 * 100).toBe(0.034999999999999996);
    expect(roundMoney(0.00035 * 100, 2)).toBe(0.04);
    expect(roundMoney(0.0005 * 2770, 2)).toBe(1.39);
    expect(roundMoney(0.034, 2)).toBe(0.03);
    expect(roundMoney(-0.034999999999999996, 2)).toBe(-0.03); // half up is toward +∞, as Math.round
    expect(Object.is(roundMoney(-0.001, 2), 0)).toBe(true);
  });
});

describe('a kept USD size (keepsUsdSize)', () => {
  const settings: LedgerSettings = { keepsUsdSize: true };

  it('adds each fill’s USD exactly and takes the entry as size / tokens', () => {
    const ledger = new PositionLedger(SERIES, settings);
    ledger.applyTyped('OPEN', fill(0, 2_000, true, { usd: 10_000 })); // 5 ETH
    const increase = ledger.applyTyped('INCREASE', fill(1, 2_500, true, { usd: 5_000 })); // 2 ETH
    expect(increase).toMatchObject({ size: 15_000, size_delta: 5_000, size_in_token: 7 });
    expect(increase.average_price).toBe(15_000 / 7);
    const decrease = ledger.applyTyped('DECREASE', fill(2, 3_000, true, { share: 0.5 }));
    expect(decrease).toMatchObject({ size_delta: 7_500, size: 7_500, size_in_token: 3.5 });
    const close = ledger.applyTyped('CLOSE', fill(3, 3_000, true, { units: 0n }));
    expect(close).toMatchObject({ size_delta: 7_500, size: 0, size_in_token: 0 });
    expect(ledger.positions()[0]?.size).toBe(15_000);
  });

  it('takes a share of the held tokens to the unit, and refuses a share without an open position', () => {
    expect(scaleUnits(3n * 10n ** 18n, 1 / 3)).toBe(999_999_999_999_999_900n); // 0.3333333333333333
    expect(scaleUnits(7n, 0.5)).toBe(4n); // half away from zero
    const ledger = new PositionLedger(SERIES, settings);
    expect(() => ledger.apply({ ...fill(0, 1, true, { share: 0.5 }), isBuy: true })).toThrow(LedgerError);
  });
});

describe('liquidation at the maintenance-margin price', () => {
  const settings: LedgerSettings = { keepsUsdSize: true, maintenanceMargin: 0.005, moneyDecimals: 2 };
  const withCollateral = (f: TypedFill, collateral: number) => ({ ...f, collateral });

  it('closes a 20× long at entry × (1 − 1/20 + m), losing exactly the collateral', () => {
    const ledger = new PositionLedger(SERIES, settings);
    ledger.applyTyped('OPEN', withCollateral(fill(0, 100, true, { usd: 2_000 }), 100));
    expect(ledger.liquidationPrice()).toBeCloseTo(95.5, 12);
    const order = ledger.liquidate({ id: 'liq', timeMs: HOUR });
    expect(order).toMatchObject({ type: 'CLOSE', realised_pnl: -100, size_in_token: 0, collateral: 0 });
    expect(order.price).toBeCloseTo(95.5, 12);
    expect(ledger.positions()[0]).toMatchObject({ is_liquidate: 1, realised_pnl: -100, status: 'CLOSE' });
    expect(ledger.liquidationPrice()).toBeNull();
  });

  it('nets −collateral on a short after a profitable decrease, and refuses what it cannot liquidate', () => {
    const ledger = new PositionLedger(SERIES, settings);
    ledger.applyTyped('OPEN', withCollateral(fill(0, 100, false, { usd: 1_000 }), 100));
    expect(ledger.applyTyped('DECREASE', fill(1, 95, false, { share: 0.5 })).realised_pnl).toBe(25);
    expect(ledger.liquidationPrice()).toBeCloseTo(100 * (1 + 1 / 5 - 0.005), 12);
    expect(ledger.liquidate({ id: 'liq', timeMs: 2 }).realised_pnl).toBe(-125);
    expect(ledger.positions()[0]?.realised_pnl).toBe(-100);
    expect(() => ledger.liquidate({ id: 'again', timeMs: 3 })).toThrow(LedgerError);
    const safe = new PositionLedger(SERIES, settings);
    safe.applyTyped('OPEN', withCollateral(fill(0, 100, true, { usd: 100 }), 200)); // more collateral than size
    expect(safe.liquidationPrice()).toBeLessThan(0);
    expect(() => safe.liquidate({ id: 'liq', timeMs: 1 })).toThrow(LedgerError);
    const unset = new PositionLedger(SERIES);
    unset.applyTyped('OPEN', fill(0, 100, true, { tokens: '1' }));
    expect(() => unset.liquidationPrice()).toThrow(LedgerError);
  });
});

describe('block numbers', () => {
  it('are floor(time / blockMs) with the setting, and 0 without it', () => {
    const chain = new PositionLedger(SERIES, { blockMs: 250 });
    expect(chain.applyTyped('OPEN', fill(1_000, 1, true, { tokens: '1' })).block_number).toBe(4);
    chain.applyTyped('CLOSE', fill(1_999, 1, true, { units: 0n }));
    expect(chain.positions()[0]).toMatchObject({ open_block_number: 4, close_block_number: 7 });
    const venue = new PositionLedger(SERIES);
    expect(venue.applyTyped('OPEN', fill(1_000, 1, true, { tokens: '1' })).block_number).toBe(0);
  });
});

describe('stored keys', () => {
  it('keeps a key the series’ stored positions carry, and hashes positionKey for the other side', () => {
    const ledger = new PositionLedger(SERIES, { keys: { long: '0xstored' } });
    expect(ledger.applyTyped('OPEN', fill(0, 1, true, { tokens: '1' })).key).toBe('0xstored');
    ledger.applyTyped('CLOSE', fill(1, 1, true, { units: 0n }));
    expect(ledger.applyTyped('OPEN', fill(2, 1, false, { tokens: '1' })).key).toBe(
      positionKey(SERIES, false),
    );
  });
});
