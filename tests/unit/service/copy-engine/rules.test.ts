// The engine's arithmetic on its own: filters, sizing, exits and fees.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COPY_TRADE_DEFAULTS, type CopyTrade } from '../../../../src/shared/api/copy-trades';
import {
  crossesLiquidation,
  exitAt,
  exitPrices,
  liquidationPrice,
} from '../../../../src/service/copy-engine/exits';
import {
  DEFAULT_COPY_FEES,
  decreaseFee,
  increaseFee,
  realisedOn,
  weightedEntry,
} from '../../../../src/service/copy-engine/fills';
import { skipReason } from '../../../../src/service/copy-engine/filters';
import { followedAccounts, type FollowedTrade } from '../../../../src/service/copy-engine/followers';
import { sourceKey } from '../../../../src/service/copy-engine/ids';
import {
  decreaseFraction,
  increaseMargin,
  openSize,
  volumeFactor,
} from '../../../../src/service/copy-engine/sizing';
import type { SourceOrder } from '../../../../src/service/copy-engine/types';

const trade = (patch: Partial<CopyTrade> = {}): FollowedTrade => {
  const t = {
    ...COPY_TRADE_DEFAULTS,
    id: 't',
    userId: 'u',
    title: 'T',
    account: '0xA',
    accounts: [],
    copyWalletId: 'w',
    protocol: 'P',
    exchange: 'X',
    type: 'COPY_TRADER',
    volume: 100,
    leverage: 10,
    tokenAddresses: [],
    excludingTokenAddresses: [],
    stopLossAmount: null,
    takeProfitAmount: null,
    lookBackOrders: null,
    maxVolMultiplier: null,
    lowLeverage: null,
    lowCollateral: null,
    lowSize: null,
    status: 'RUNNING',
    createdAt: '',
    ...patch,
  } as CopyTrade;
  return {
    trade: t,
    tokens: new Set(t.tokenAddresses.map((a) => a.toLowerCase())),
    excluded: new Set(t.excludingTokenAddresses.map((a) => a.toLowerCase())),
  };
};

const open = (patch: Partial<SourceOrder> = {}): SourceOrder => ({
  id: 'o',
  account: '0xA',
  protocol: 'P',
  indexToken: '0xT',
  isLong: true,
  type: 'OPEN',
  sizeDeltaUsd: 10_000,
  collateralDeltaUsd: 1_000,
  sizeBeforeUsd: 0,
  collateralBeforeUsd: 0,
  price: 1,
  blockTimeMs: 0,
  txHash: '0x',
  isLiquidate: false,
  ...patch,
});

describe('skipReason', () => {
  it('copies by default and compares tokens in any letter case', () => {
    expect(skipReason(trade(), open())).toBeNull();
    expect(skipReason(trade({ copyAll: false, tokenAddresses: ['0xt'] }), open())).toBeNull();
    expect(skipReason(trade({ copyAll: false, tokenAddresses: ['0xU'] }), open())).toMatch(
      /not in tokenAddresses/,
    );
    // The exclusion list only applies with copyAll and hasExclude.
    expect(skipReason(trade({ excludingTokenAddresses: ['0xT'] }), open())).toBeNull();
    expect(skipReason(trade({ hasExclude: true, excludingTokenAddresses: ['0xT'] }), open())).toMatch(
      /excluding/,
    );
  });

  it('compares the side with the source side, before reverseCopy', () => {
    expect(skipReason(trade({ side: 'SHORT', reverseCopy: true }), open({ isLong: true }))).toMatch(/SHORT/);
    expect(skipReason(trade({ side: 'LONG', reverseCopy: true }), open({ isLong: true }))).toBeNull();
  });

  it('skips strictly below the thresholds; a threshold without its flag does nothing', () => {
    expect(skipReason(trade({ skipLowLeverage: true, lowLeverage: 10 }), open())).toBeNull();
    expect(skipReason(trade({ skipLowLeverage: true, lowLeverage: 11 }), open())).toMatch(/leverage 10/);
    expect(skipReason(trade({ lowLeverage: 11 }), open())).toBeNull();
    expect(skipReason(trade({ skipLowCollateral: true, lowCollateral: 1_001 }), open())).toMatch(
      /collateral/,
    );
    expect(skipReason(trade({ skipLowSize: true, lowSize: 10_001 }), open())).toMatch(/size/);
  });
});

describe('sizing', () => {
  it('volumeFactor: min(1, margin / mean), 1 without history', () => {
    expect(volumeFactor(500, [1_000, 2_000, 3_000])).toBe(0.25);
    expect(volumeFactor(5_000, [1_000, 2_000, 3_000])).toBe(1);
    expect(volumeFactor(500, [])).toBe(1);
    expect(volumeFactor(500, [0, 0])).toBe(1);
  });

  it('openSize caps the leverage at the venue maximum', () => {
    expect(openSize(100, 1, 30, 20, 100)).toEqual({ margin: 100, leverage: 20, notional: 2_000, tokens: 20 });
    expect(openSize(100, 0.25, 10, null, 50_000)).toEqual({
      margin: 25,
      leverage: 10,
      notional: 250,
      tokens: 0.005,
    });
  });

  it('increaseMargin scales by the initial margins and clips at volume × maxVolMultiplier', () => {
    const base = {
      sizeDeltaUsd: 20_000,
      initialVol: 100,
      sourceInitialVol: 2_000,
      leverage: 10,
      margin: 100,
      volume: 100,
    };
    expect(increaseMargin({ ...base, maxVolMultiplier: null })).toBe(100);
    expect(increaseMargin({ ...base, maxVolMultiplier: 1.5 })).toBe(50);
    expect(increaseMargin({ ...base, maxVolMultiplier: 1 })).toBe(0);
    expect(increaseMargin({ ...base, margin: 175, maxVolMultiplier: 1.5 })).toBe(0);
    expect(increaseMargin({ ...base, sourceInitialVol: 0, maxVolMultiplier: null })).toBe(0);
  });

  it('decreaseFraction is sizeDelta / sizeBefore, at most 1', () => {
    expect(decreaseFraction(open({ type: 'DECREASE', sizeDeltaUsd: 5_000, sizeBeforeUsd: 20_000 }))).toBe(
      0.25,
    );
    expect(decreaseFraction(open({ type: 'DECREASE', sizeDeltaUsd: 30_000, sizeBeforeUsd: 20_000 }))).toBe(1);
    expect(decreaseFraction(open({ type: 'DECREASE', sizeDeltaUsd: 5_000, sizeBeforeUsd: 0 }))).toBe(1);
  });
});

describe('exits', () => {
  const settings = {
    enableStopLoss: true,
    stopLossType: 'PERCENT' as const,
    stopLossAmount: 50,
    enableTakeProfit: true,
    takeProfitType: 'USD' as const,
    takeProfitAmount: 30,
  };

  it('exitPrices: PERCENT on margin ROI, USD on unrealised PnL, null when disabled', () => {
    const long = { isLong: true, entryPrice: 50_000, sizeTokens: 0.02, leverage: 10 };
    expect(exitPrices(settings, long)).toEqual({
      stopLossPrice: 47_500,
      stopLossAmount: 50,
      takeProfitPrice: 51_500,
      takeProfitAmount: 30,
    });
    expect(exitPrices(settings, { ...long, isLong: false })).toMatchObject({
      stopLossPrice: 52_500,
      takeProfitPrice: 48_500,
    });
    expect(exitPrices({ ...settings, enableStopLoss: false, enableTakeProfit: false }, long)).toEqual({
      stopLossPrice: null,
      stopLossAmount: null,
      takeProfitPrice: null,
      takeProfitAmount: null,
    });
  });

  it('exitAt: liquidation first, then stop loss, then take profit; inclusive', () => {
    const p = {
      isLong: true,
      entryPrice: 50_000,
      leverage: 10,
      stopLossPrice: 47_500,
      takeProfitPrice: 51_500,
    };
    expect(exitAt(p, 48_000)).toBeNull();
    expect(exitAt(p, 47_500)).toBe('STOP_LOSS');
    expect(exitAt(p, 45_000)).toBe('LIQUIDATE');
    expect(exitAt(p, 51_500)).toBe('TAKE_PROFIT');
    expect(liquidationPrice(false, 50_000, 10)).toBe(55_000);
  });

  it('the liquidation price is where a position at its leverage has lost its margin', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.0001, max: 1e6, noNaN: true }),
        fc.integer({ min: 2, max: 50 }),
        fc.boolean(),
        (entry, leverage, isLong) => {
          const price = liquidationPrice(isLong, entry, leverage);
          const tokens = 1_000 / entry;
          const loss = (isLong ? price - entry : entry - price) * tokens;
          expect(loss).toBeCloseTo(-1_000 / leverage, 6);
          expect(
            crossesLiquidation(
              { isLong, entryPrice: entry, leverage, stopLossPrice: null, takeProfitPrice: null },
              price,
            ),
          ).toBe(true);
        },
      ),
    );
  });
});

describe('fees and fills', () => {
  it('0.06 % on opens and increases, 0.035 % on decreases and closes, to 6 decimals', () => {
    expect(increaseFee(1_000, DEFAULT_COPY_FEES)).toBe(0.6);
    expect(decreaseFee(1_020, DEFAULT_COPY_FEES)).toBe(0.357);
    expect(increaseFee(1_000, { taker: 0.001, service: 0 })).toBe(1);
  });

  it('realised PnL is signed by side; the entry is the size-weighted mean', () => {
    expect(realisedOn(true, 50_000, 51_000, 0.02)).toBe(20);
    expect(realisedOn(false, 50_000, 51_000, 0.02)).toBe(-20);
    expect(weightedEntry(0.02, 50_000, 0.02, 60_000)).toBe(55_000);
  });
});

describe('keys', () => {
  it('source keys ignore the letter case of 0x addresses', () => {
    expect(sourceKey('0xAbC', 'P', '0xDeF', true)).toBe('0xabc|P|0xdef|LONG');
    expect(sourceKey('So1ana', 'P', 'Tok', false)).toBe('So1ana|P|Tok|SHORT');
  });

  it('followedAccounts: account, plus accounts with multipleCopy, without repeats', () => {
    expect(followedAccounts(trade({ accounts: ['0xB'] }).trade)).toEqual(['0xA']);
    expect(followedAccounts(trade({ multipleCopy: true, accounts: ['0xB', '0xa'] }).trade)).toEqual([
      '0xA',
      '0xB',
    ]);
  });
});
