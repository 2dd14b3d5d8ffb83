import { describe, expect, it } from 'vitest';
import { openCacheDatabase } from '../../../../../src/main/core/cache/cache-db';
import { WithdrawalLog } from '../../../../../src/main/core/cache/withdrawal-log';
import { ServiceRequestError } from '../../../../../src/main/core/client/http';
import { createWalletHandlers } from '../../../../../src/main/core/handlers/wallets';
import type { DomainDeps } from '../../../../../src/main/core/handlers/handlers';
import { createWriteGuard } from '../../../../../src/main/core/handlers/write-guard';
import type { Withdrawal, WithdrawRequest } from '../../../../../src/shared/api/copy-wallets';
import { withdrawSubmitRequestSchema } from '../../../../../src/shared/ipc/schemas/wallets';

const SOURCE = '0x1111111111111111111111111111111111111111';
const DEST = '0x2222222222222222222222222222222222222222';
const KEY = '3b241101-e2bb-4255-8caf-4136c566a962';

/** A service that pays once per Idempotency-Key and answers the first record to a repeat. */
class FakeService {
  readonly paid = new Map<string, Withdrawal>();
  payments = 0;
  /** What the next call does after the service has (or has not) paid. */
  next: 'answer' | 'timeout-after-paying' | 'refuse' | 'hang' | 'unreachable' = 'answer';
  seenWhileSending: unknown[] = [];
  onSend: () => void = () => undefined;

  withdraw(body: WithdrawRequest, options: { idempotencyKey?: string }): Promise<Withdrawal> {
    this.onSend();
    const mode = this.next;
    this.next = 'answer';
    if (mode === 'hang') return new Promise(() => undefined);
    if (mode === 'unreachable')
      return Promise.reject(new ServiceRequestError('OFFLINE', 'connect ECONNREFUSED 127.0.0.1:8787', null));
    if (mode === 'refuse')
      return Promise.reject(
        new ServiceRequestError('VALIDATION_FAILED', 'amount exceeds the available balance', 400),
      );
    const key = options.idempotencyKey ?? `none-${this.payments}`;
    let record = this.paid.get(key);
    if (!record) {
      this.payments += 1;
      record = {
        userId: 'u1',
        embeddedWallet: body.sourceAddress,
        type: 'WITHDRAW',
        status: 'PENDING',
        createdAt: '2026-11-26T10:00:00.000Z',
        data: {
          destinationAddress: body.destinationAddress,
          chargeFeeTime: null,
          chargeFeeTxHash: null,
          withdrawTime: null,
          txHash: null,
          amount: body.amount,
          feeAmount: 1,
          withdrawAmount: body.amount - 2,
          receiveAmount: body.amount - 3,
          perpxWithdrawFeeAmount: 1,
          perpxTransferFeeAmount: 1,
        },
      };
      this.paid.set(key, record);
    }
    if (mode === 'timeout-after-paying')
      return Promise.reject(new ServiceRequestError('TIMEOUT', 'the service did not answer in 15 s', null));
    return Promise.resolve(record);
  }
}

function terminal(service: FakeService, log: WithdrawalLog) {
  const connectivity = {
    isOnline: () => true,
    reportSuccess: () => undefined,
    reportUnreachable: () => undefined,
  };
  const context = {
    id: 'local',
    profile: { venue: 'perpx', name: 'Local' },
    serviceClient: () => Promise.resolve(service),
    session: { status: () => Promise.resolve({ loggedIn: true, session: { userId: 'u1' } }) },
  };
  const deps = {
    reads: { invalidate: () => undefined },
    write: createWriteGuard(connectivity as never, () => 'The service Local'),
    profiles: { active: () => context },
    withdrawals: log,
    connectivity,
  } as unknown as DomainDeps;
  return createWalletHandlers(deps);
}

const request = { sourceAddress: SOURCE, destinationAddress: DEST, amount: 20, idempotencyKey: KEY };
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('withdrawals are never paid twice or forgotten (docs/security.md, Withdrawals)', () => {
  it('accepts the key the renderer made when the user confirmed', () => {
    expect(withdrawSubmitRequestSchema.parse(request)).toEqual(request);
  });

  it('reuses the confirmed withdrawal key on a retry after a timeout: the service pays once', async () => {
    const service = new FakeService();
    const handlers = terminal(service, new WithdrawalLog(openCacheDatabase(':memory:')));
    service.next = 'timeout-after-paying';
    await expect(handlers['withdraw:submit'](request)).rejects.toMatchObject({ code: 'TIMEOUT' });
    const record = await handlers['withdraw:submit'](request);
    expect(service.payments).toBe(1);
    expect(record).toMatchObject({ id: KEY, status: 'PENDING', data: { amount: 20 } });
    // A third try (a double click) sends nothing more and answers the same record.
    await handlers['withdraw:submit'](request);
    expect(service.payments).toBe(1);
  });

  it('writes the record as SUBMITTING before it sends, and keeps it when the answer is lost', async () => {
    const service = new FakeService();
    const log = new WithdrawalLog(openCacheDatabase(':memory:'));
    const handlers = terminal(service, log);
    service.onSend = () => service.seenWhileSending.push(log.find('local', KEY)?.status);
    service.next = 'timeout-after-paying';
    await expect(handlers['withdraw:submit'](request)).rejects.toBeTruthy();
    expect(service.seenWhileSending).toEqual(['SUBMITTING']);
    expect(log.list('local', 'u1')).toMatchObject([{ id: KEY, status: 'SUBMITTING', data: { amount: 20 } }]);
  });

  it('reconciles a withdrawal left SUBMITTING by a crash on the next start, paying once', async () => {
    const db = openCacheDatabase(':memory:');
    const service = new FakeService();
    // The first run sends and stops before any answer (the terminal was killed).
    service.next = 'hang';
    void terminal(service, new WithdrawalLog(db))['withdraw:submit'](request);
    await settle();
    // The service did get it: it paid, the answer never reached the terminal.
    service.next = 'answer';
    await service.withdraw(request, { idempotencyKey: KEY });
    expect(service.payments).toBe(1);
    // Next start: the list shows it, and the core settles it in the background with the same key.
    const next = terminal(service, new WithdrawalLog(db));
    const first = await next['withdrawals:list']({});
    expect(first.data).toMatchObject([{ id: KEY, status: 'SUBMITTING' }]);
    await settle();
    const after = await next['withdrawals:list']({});
    expect(after.data).toMatchObject([{ id: KEY, status: 'PENDING', transferFee: 1, withdrawFee: 1 }]);
    expect(service.payments).toBe(1);
  });

  it('marks a withdrawal the service refused FAILED with the reason (nothing paid)', async () => {
    const service = new FakeService();
    const log = new WithdrawalLog(openCacheDatabase(':memory:'));
    const handlers = terminal(service, log);
    service.next = 'refuse';
    await expect(handlers['withdraw:submit'](request)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(log.find('local', KEY)).toMatchObject({
      status: 'FAILED',
      problem: 'amount exceeds the available balance',
    });
    expect(service.payments).toBe(0);
  });

  it('keeps no record of a withdrawal that could not reach the service (nothing was sent)', async () => {
    const service = new FakeService();
    const log = new WithdrawalLog(openCacheDatabase(':memory:'));
    const handlers = terminal(service, log);
    service.next = 'unreachable';
    await expect(handlers['withdraw:submit'](request)).rejects.toMatchObject({ code: 'OFFLINE' });
    expect(log.list('local', 'u1')).toEqual([]);
    // A retry once it is back pays once, under the same key.
    await handlers['withdraw:submit'](request);
    expect(service.payments).toBe(1);
    expect(log.list('local', 'u1')).toMatchObject([{ id: KEY, status: 'PENDING' }]);
  });

  it('treats the same withdrawal confirmed again after a reload as a retry of the unsettled one', async () => {
    const db = openCacheDatabase(':memory:');
    const service = new FakeService();
    service.next = 'timeout-after-paying';
    await expect(terminal(service, new WithdrawalLog(db))['withdraw:submit'](request)).rejects.toBeTruthy();
    // The window was reloaded: the form lost its key, the user types the same withdrawal again
    // and confirms it, so the renderer makes a new key. The record of the first is SUBMITTING.
    const again = { ...request, idempotencyKey: 'a1d7c0de-0000-4000-8000-000000000001' };
    const record = await terminal(service, new WithdrawalLog(db))['withdraw:submit'](again);
    expect(service.payments).toBe(1);
    expect(record).toMatchObject({ id: KEY, status: 'PENDING' });
    // Once that one is settled, the same amount again is a new withdrawal, paid.
    await terminal(service, new WithdrawalLog(db))['withdraw:submit'](again);
    expect(service.payments).toBe(2);
  });

  it('refuses a key already used for another withdrawal', async () => {
    const service = new FakeService();
    const handlers = terminal(service, new WithdrawalLog(openCacheDatabase(':memory:')));
    await handlers['withdraw:submit'](request);
    await expect(handlers['withdraw:submit']({ ...request, amount: 30 })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect(service.payments).toBe(1);
  });

  it('settles a SUBMITTING record from the withdrawalSettled event', async () => {
    const log = new WithdrawalLog(openCacheDatabase(':memory:'));
    log.begin('local', 'u1', KEY, request, new Date('2026-11-26T09:59:59.000Z'));
    const matched = log.settle(
      'local',
      {
        userId: 'u1',
        embeddedWallet: SOURCE,
        type: 'WITHDRAW',
        status: 'SUCCESSFUL',
        createdAt: '2026-11-26T10:00:00.000Z',
        data: {
          destinationAddress: DEST,
          chargeFeeTime: null,
          chargeFeeTxHash: null,
          withdrawTime: '2026-11-26T10:00:05.000Z',
          txHash: '0xabc',
          amount: 20,
          feeAmount: 1,
          withdrawAmount: 18,
          receiveAmount: 17,
          perpxWithdrawFeeAmount: 1,
          perpxTransferFeeAmount: 1,
        },
      },
      'perpx',
    );
    expect(matched).toBe(true);
    expect(log.find('local', KEY)).toMatchObject({
      status: 'SUCCESSFUL',
      createdAt: '2026-11-26T10:00:00.000Z',
    });
  });
});
