// The soak's invariant checks (tests/soak/invariants.ts) hold on a store the API wrote, and each
// one finds the damage it is there to find: a check that cannot fail would prove nothing.
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexTokenAddress } from '../../src/service/market/catalogue';
import { DEFAULT_VENUE, withdrawPath } from '../../src/shared/profile';
import { call, loginCopyUser, startCopyService, tradeBody, type CopyUser } from '../support/copy-session';
import type { RunningService } from '../support/service';
import {
  checkBalances,
  checkCopying,
  checkSourceOrders,
  checkWithdrawals,
  type WalletLedger,
} from '../soak/invariants';

const ADMIN = 'soak-check-admin-key-0123456789';
const WHALE = getAddress('0x' + '7c'.repeat(20));
const P = 'NOVA_ARB';
const admin = { 'x-admin-key': ADMIN };
let svc: RunningService;
let user: CopyUser;
let ledger: WalletLedger;
const txHashes = new Set<string>();
const orderIds: string[] = [];

/** The store as the checks see it: a read-only connection to the service's file. */
function withStore<T>(check: (db: Database.Database) => T): T {
  const db = new Database(svc.service.config.dbPath, { readonly: true });
  try {
    return check(db);
  } finally {
    db.close();
  }
}

const allViolations = () =>
  withStore((db) => [
    ...checkBalances(db, [ledger]),
    ...checkWithdrawals(db, [ledger]),
    ...checkCopying(db, txHashes),
    ...checkSourceOrders(db, orderIds),
  ]);

function order(n: number, type: string, size: number, collateral: number, price: number) {
  const txHash = `0x${n.toString(16).padStart(64, '0')}`;
  txHashes.add(txHash);
  orderIds.push(`o${n}`);
  return {
    id: `o${n}`,
    account: WHALE,
    protocol: P,
    indexToken: indexTokenAddress(P, 'BTC'),
    isLong: true,
    type,
    sizeDeltaNumber: size,
    collateralDeltaNumber: collateral,
    priceNumber: price,
    blockTime: svc.clock.ms - 3_600_000 + n * 60_000,
    txHash,
  };
}

beforeAll(async () => {
  svc = await startCopyService({ adminKey: ADMIN });
  user = await loginCopyUser(svc);
  ledger = {
    walletId: user.walletId,
    startingBalance: svc.service.config.startingBalance,
    deposits: [],
    uncertainDeposit: null,
    withdrawals: new Map(),
  };
  const trade = await call(svc, 'POST', '/copy-trades', {
    token: user.token,
    body: tradeBody(svc, user, { account: WHALE, volume: 100, leverage: 5 }),
  });
  expect(trade.status).toBe(201);
  // A round trip with a profit: an open, an increase, a close higher; fees and realised PnL.
  const orders = [
    order(1, 'OPEN', 5000, 500, 100),
    order(2, 'INCREASE', 2000, 200, 104),
    order(3, 'CLOSE', 7000, 700, 110),
  ];
  expect((await call(svc, 'POST', '/sandbox/orders', { headers: admin, body: { orders } })).status).toBe(200);
  expect(
    (
      await call(svc, 'POST', '/sandbox/deposit', {
        headers: admin,
        body: { address: user.embeddedWallet, amount: 25.5 },
      })
    ).status,
  ).toBe(200);
  ledger.deposits.push(25.5);
  const key = randomUUID();
  const paid = await call<{ data: { txHash: string } }>(svc, 'POST', withdrawPath(DEFAULT_VENUE), {
    token: user.token,
    headers: { 'idempotency-key': key },
    body: { sourceAddress: user.embeddedWallet, destinationAddress: user.embeddedWallet, amount: 9.25 },
  });
  expect(paid.status).toBe(201);
  ledger.withdrawals.set(key, { amount: 9.25, confirmedId: paid.body.data.txHash });
});
afterAll(async () => {
  await svc?.close();
});

describe('the soak invariants', () => {
  it('hold on a store written through the API, with trading in it', () => {
    withStore((db) => {
      const realised = db.prepare('SELECT SUM(realised_pnl) FROM copy_positions').pluck().get() as number;
      expect(realised).toBeGreaterThan(0);
    });
    expect(allViolations()).toEqual([]);
  });

  it('settle a deposit whose answer was lost: stored or not, either way no violation', async () => {
    ledger.uncertainDeposit = 31.07;
    await call(svc, 'POST', '/sandbox/deposit', {
      headers: admin,
      body: { address: user.embeddedWallet, amount: 31.07 },
    });
    expect(allViolations()).toEqual([]);
    expect(ledger.deposits).toEqual([25.5, 31.07]);
    ledger.uncertainDeposit = 12.34;
    expect(allViolations()).toEqual([]);
    expect(ledger.deposits).toEqual([25.5, 31.07]);
    expect(ledger.uncertainDeposit).toBeNull();
  });

  it('find a balance changed without the row that explains it', () => {
    svc.service.db.prepare('UPDATE copy_wallets SET balance = balance + 1.5 WHERE id = ?').run(user.walletId);
    expect(allViolations()).toEqual([expect.stringMatching(/balance .*(off by 1\.500000)/)]);
    svc.service.db.prepare('UPDATE copy_wallets SET balance = balance - 1.5 WHERE id = ?').run(user.walletId);
    expect(allViolations()).toEqual([]);
  });

  it('find a source order copied twice, and one recorded but not copied', () => {
    const db = svc.service.db;
    const log = db.prepare("SELECT * FROM activity_logs WHERE type = 'OPEN' LIMIT 1").get() as Record<
      string,
      unknown
    >;
    db.prepare(
      `INSERT INTO activity_logs (${Object.keys(log).join(', ')}) VALUES (${Object.keys(log)
        .map((k) => `@${k}`)
        .join(', ')})`,
    ).run({ ...log, id: 'twice' });
    db.prepare("DELETE FROM copy_source_orders WHERE id = 'o2'").run();
    expect(allViolations()).toEqual([
      expect.stringMatching(/source order 0x0+1 was copied 2 times/),
      '1 source orders were recorded but never copied',
    ]);
    db.prepare("DELETE FROM activity_logs WHERE id = 'twice'").run();
    db.prepare(
      "INSERT INTO copy_source_orders (id, account, protocol, processed_at_ms) VALUES ('o2', ?, ?, 0)",
    ).run(WHALE, P);
    expect(allViolations()).toEqual([]);
  });

  it('find a confirmed withdrawal lost, one never asked for, and a lost source order', () => {
    const db = svc.service.db;
    const row = db.prepare('SELECT * FROM withdrawals WHERE copy_wallet_id = ?').get(user.walletId) as Record<
      string,
      unknown
    >;
    db.prepare('DELETE FROM withdrawals WHERE id = ?').run(row.id);
    db.prepare(
      `INSERT INTO withdrawals (${Object.keys(row).join(', ')}) VALUES (${Object.keys(row)
        .map((k) => `@${k}`)
        .join(', ')})`,
    ).run({ ...row, id: 'stranger', idempotency_key: 'nobody-sent-this', tx_hash: '0xother' });
    orderIds.push('o-never-stored');
    expect(allViolations()).toEqual([
      expect.stringMatching(/withdrawal 0xother was never asked for/),
      expect.stringMatching(/was confirmed as 0x[0-9a-f]+ and is lost/),
      '1 confirmed source orders are lost (first o-never-stored)',
    ]);
  });
});
