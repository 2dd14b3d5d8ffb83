import { describe, expect, it } from 'vitest';
import { liveConditions, liveSearchBody } from '../../../../../src/main/core/handlers/live';
import { previewWithdrawal } from '../../../../../src/main/core/handlers/wallets';
import { liveFeedRequestSchema } from '../../../../../src/shared/ipc/schemas/live';

const feed = (input: unknown) => liveFeedRequestSchema.parse(input);

describe('live feed filters as GraphQL conditions', () => {
  it('adds nothing for the defaults', () => {
    expect(liveConditions(feed({}), 'positions')).toEqual([]);
    expect(liveSearchBody(feed({}), 'orders', { field: 'blockTime', direction: 'desc' })).toEqual({
      filter: { and: [] },
      sorts: [{ field: 'blockTime', direction: 'desc' }],
      paging: { size: 100, from: 0 },
    });
  });

  it('turns pair, side and size into conditions, and protocols into an `in` for orders only', () => {
    const request = feed({ pair: 'BTC-USD', side: 'SHORT', minSize: 500, protocols: ['A_B'], limit: 5 });
    expect(liveConditions(request, 'positions')).toEqual([
      { field: 'pair', match: 'BTC-USD' },
      { field: 'isLong', match: false },
      { field: 'size', gte: 500 },
    ]);
    expect(liveConditions(request, 'orders')).toEqual([
      { field: 'pair', match: 'BTC-USD' },
      { field: 'isLong', match: false },
      { field: 'sizeDeltaNumber', gte: 500 },
      { field: 'protocol', in: ['A_B'] },
    ]);
    expect(liveConditions(feed({ side: 'LONG' }), 'positions')).toEqual([{ field: 'isLong', match: true }]);
  });
});

describe('withdrawal preview', () => {
  const fees = { feeAmount: 1, transferFee: 1, withdrawFee: 1, minimum: 8 };
  it('breaks the amount down (docs/api.md formulas)', () => {
    expect(previewWithdrawal(10, fees, 100, 'service')).toEqual({
      amount: 10,
      feeAmount: 1,
      transferFee: 1,
      withdrawFee: 1,
      withdrawAmount: 8,
      receiveAmount: 7,
      minimum: 8,
      availableBalance: 100,
      problem: null,
      feeSource: 'service',
    });
    expect(previewWithdrawal(10.1, { ...fees, feeAmount: 0.3 }, 100, 'profile')).toMatchObject({
      withdrawAmount: 8.8,
      receiveAmount: 7.8,
    });
  });

  it('names the first problem: precision, wallet, minimum, balance', () => {
    expect(previewWithdrawal(10.0000001, fees, 100, 'service').problem).toMatch(/at most 6 decimal places/);
    expect(previewWithdrawal(10, fees, null, 'service').problem).toMatch(/not one of your embedded wallets/);
    expect(previewWithdrawal(7.99, fees, 100, 'service').problem).toBe(
      'amount must be at least the minimum withdrawal 8 (5 plus fees 1 + 1 + 1)',
    );
    expect(previewWithdrawal(100.01, fees, 100, 'service').problem).toMatch(
      /exceeds the available balance 100/,
    );
    expect(previewWithdrawal(100, fees, 100, 'service').problem).toBeNull();
  });
});
