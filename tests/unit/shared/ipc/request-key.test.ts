import { describe, expect, it } from 'vitest';
import { requestKey } from '../../../../src/shared/ipc/request-key';

describe('requestKey', () => {
  it('is the same for equal requests whatever their field order', () => {
    expect(
      requestKey('leaderboard:page', {
        window: 'D7',
        protocols: ['a'],
        sort: { direction: 'desc', field: 'pnl' },
      }),
    ).toBe(
      requestKey('leaderboard:page', {
        protocols: ['a'],
        sort: { field: 'pnl', direction: 'desc' },
        window: 'D7',
      }),
    );
  });

  it('tells channels, values and array orders apart', () => {
    const base = requestKey('trader:statistics', { protocol: 'a', account: '0x1' });
    expect(requestKey('trader:positions', { protocol: 'a', account: '0x1' })).not.toBe(base);
    expect(requestKey('trader:statistics', { protocol: 'b', account: '0x1' })).not.toBe(base);
    expect(requestKey('x', { list: [1, 2] })).not.toBe(requestKey('x', { list: [2, 1] }));
  });

  it('ignores undefined fields, as JSON would', () => {
    expect(requestKey('x', { a: 1, b: undefined })).toBe(requestKey('x', { a: 1 }));
    expect(requestKey('x', undefined)).toBe(requestKey('x', {}));
  });
});
