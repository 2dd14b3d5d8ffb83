import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheMigrations, openCacheDatabase } from '../../../../../src/main/core/cache/cache-db';
import { KeyValueTable } from '../../../../../src/main/core/cache/key-value';
import { WithdrawalLog } from '../../../../../src/main/core/cache/withdrawal-log';
import type { Withdrawal } from '../../../../../src/shared/api/copy-wallets';

const withdrawal = (amount: number, userId = 'u1'): Withdrawal => ({
  userId,
  embeddedWallet: '0x1111111111111111111111111111111111111111',
  type: 'WITHDRAW',
  status: 'PENDING',
  createdAt: `2026-03-02T12:00:00.000Z`,
  data: {
    destinationAddress: '0x2222222222222222222222222222222222222222',
    chargeFeeTime: null,
    chargeFeeTxHash: null,
    withdrawTime: null,
    txHash: null,
    amount,
    feeAmount: 1,
    withdrawAmount: amount - 2,
    receiveAmount: amount - 3,
    acmeWithdrawFeeAmount: 1,
    acmeTransferFeeAmount: 1,
  },
});

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

describe('WithdrawalLog', () => {
  it('keeps every withdrawal, newest first; a second answer for a key replaces it as the newest', () => {
    const log = new WithdrawalLog(openCacheDatabase(':memory:'));
    for (let i = 1; i <= 1_205; i++) log.add('p1', `k${i}`, withdrawal(10 + i), 'acme');
    const all = log.list('p1', 'u1');
    // The old store kept 1,000 per profile and dropped the oldest.
    expect(all).toHaveLength(1_205);
    expect(all[0]?.id).toBe('k1205');
    expect(all.at(-1)).toMatchObject({ id: 'k1', data: { amount: 11, acmeWithdrawFeeAmount: 1 } });
    log.add('p1', 'k7', { ...withdrawal(17), status: 'SUCCESSFUL' }, 'acme');
    const again = log.list('p1', 'u1');
    expect(again).toHaveLength(1_205);
    expect(again[0]).toMatchObject({ id: 'k7', status: 'SUCCESSFUL' });
    expect(again.filter((r) => r.id === 'k7')).toHaveLength(1);
    log.clear('p1');
    expect(log.list('p1', 'u1')).toEqual([]);
  });

  it('records per profile and user, with the venue fees under generic names', () => {
    const log = new WithdrawalLog(openCacheDatabase(':memory:'));
    expect(log.add('p1', 'k1', withdrawal(10), 'acme')).toMatchObject({
      id: 'k1',
      status: 'PENDING',
      transferFee: 1,
      withdrawFee: 1,
    });
    expect(log.list('p1', 'u1')).toHaveLength(1);
    expect(log.list('p1', 'u2')).toEqual([]);
    expect(log.list('p2', 'u1')).toEqual([]);
  });

  it('a settled event updates the newest matching record only', () => {
    const log = new WithdrawalLog(openCacheDatabase(':memory:'));
    log.add('p1', 'older', withdrawal(50), 'acme');
    log.add('p1', 'newer', withdrawal(50), 'acme');
    const settled = {
      ...withdrawal(50),
      status: 'SUCCESSFUL',
      data: { ...withdrawal(50).data, txHash: '0xabc' },
    };
    expect(log.settle('p1', settled, 'acme')).toBe(true);
    expect(log.list('p1', 'u1').map((r) => [r.id, r.status])).toEqual([
      ['newer', 'SUCCESSFUL'],
      ['older', 'PENDING'],
    ]);
    // The event's data replaces the record's (the transaction it settled with).
    expect(log.list('p1', 'u1')[0]).toMatchObject({ data: { txHash: '0xabc' } });
    // A different amount at the same moment is another withdrawal.
    expect(log.settle('p1', { ...settled, data: { ...settled.data, amount: 51 } }, 'acme')).toBe(false);
    expect(log.settle('p2', settled, 'acme')).toBe(false);
    expect(log.settle('p1', { ...settled, createdAt: '2026-03-02T12:00:01.000Z' }, 'acme')).toBe(false);
    expect(log.settle('p1', { nonsense: true }, 'acme')).toBe(false);
  });

  it('moves the records an older terminal kept in settings into the table, in their order', () => {
    dir = mkdtempSync(join(tmpdir(), 'copydesk-withdrawals-'));
    const path = join(dir, 'core.db');
    // A cache written before the withdrawals table: one array per profile, newest first.
    const before = openCacheDatabase(path, cacheMigrations.slice(0, 1));
    const old = (id: string, amount: number, userId: string) => ({
      id,
      status: 'PENDING',
      createdAt: '2026-03-02T12:00:00.000Z',
      sourceAddress: '0x1111111111111111111111111111111111111111',
      data: withdrawal(amount).data,
      transferFee: 1,
      withdrawFee: 1,
      userId,
    });
    const table = new KeyValueTable(before);
    table.set('withdrawals.p1', [
      old('c', 30, 'u1'),
      old('x', 99, 'u2'),
      old('b', 20, 'u1'),
      { id: 'damaged' },
      old('a', 10, 'u1'),
    ]);
    table.set('withdrawals.p2', [old('z', 5, 'u1')]);
    table.set('settings', { theme: 'light' });
    before.close();

    const after = openCacheDatabase(path);
    const log = new WithdrawalLog(after);
    expect(log.list('p1', 'u1').map((r) => [r.id, r.data.amount])).toEqual([
      ['c', 30],
      ['b', 20],
      ['a', 10],
    ]);
    expect(log.list('p1', 'u2').map((r) => r.id)).toEqual(['x']);
    expect(log.list('p2', 'u1').map((r) => r.id)).toEqual(['z']);
    expect(log.list('p1', 'u1')[0]).not.toHaveProperty('userId');
    const keys = after.prepare('SELECT key FROM settings ORDER BY key').pluck().all();
    expect(keys).toEqual(['settings']);
    after.close();
  });
});
