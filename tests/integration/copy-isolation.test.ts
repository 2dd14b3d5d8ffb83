// Issue 15, item 2 ("one copy trade cannot stop the market"), end to end over HTTP: bounds on
// every number and list of a request body, and an engine that isolates a failing copy trade (a
// FAILED activity log for it; every other copy, and the trader's own position, go on).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityLog } from '../../src/shared/api/activity-logs';
import type { Paged } from '../../src/shared/api/common';
import type { CopyTrade } from '../../src/shared/api/copy-trades';
import { DEFAULT_VENUE } from '../../src/shared/profile';
import { CopyEngine } from '../../src/service/copy-engine/engine';
import type { SourceOrder } from '../../src/service/copy-engine/types';
import { indexTokenAddress } from '../../src/service/market/catalogue';
import {
  call,
  expectError,
  loginCopyUser,
  startCopyService,
  tradeBody,
  type CopyUser,
} from '../support/copy-session';
import type { RunningService } from '../support/service';

const ADMIN = 'isolation-admin-key-0123456789';
const BTC = indexTokenAddress('NOVA_ARB', 'BTC');
const admin = { 'x-admin-key': ADMIN };

let svc: RunningService;
let alice: CopyUser;
let n = 0;
beforeAll(async () => {
  svc = await startCopyService({ adminKey: ADMIN });
  alice = await loginCopyUser(svc);
  svc.service.db.prepare('UPDATE users SET copy_trade_quota = 1000 WHERE id = ?').run(alice.id);
});
afterAll(() => svc.close());

const trader = () => `0x${(++n).toString(16).padStart(40, '0')}`;
const create = (patch: Record<string, unknown>) =>
  call<CopyTrade>(svc, 'POST', '/copy-trades', { token: alice.token, body: tradeBody(svc, alice, patch) });
const logsOf = async (copyTradeId: string) =>
  (
    await call<Paged<ActivityLog & { reason?: string }>>(svc, 'POST', '/activity-logs/page', {
      token: alice.token,
      body: { ranges: [{ fieldName: 'copyTradeId', in: [copyTradeId] }] },
    })
  ).body.data;
const sandboxOpen = (account: string, patch: Record<string, unknown> = {}) => ({
  id: `iso-${account}-${++n}`,
  account,
  protocol: 'NOVA_ARB',
  indexToken: BTC,
  isLong: true,
  type: 'OPEN',
  sizeDeltaNumber: 20_000,
  collateralDeltaNumber: 2_000,
  priceNumber: 50_000,
  blockTime: new Date(svc.clock.ms - 3_600_000).toISOString(),
  txHash: `0x${String(n).padStart(64, '0')}`,
  ...patch,
});
const sandbox = (path: string, body: unknown) => call(svc, 'POST', path, { body, headers: admin });

describe('bounds on request bodies', () => {
  it.each([
    [
      'lookBackOrders 1e19',
      { lookBackOrders: 1e19 },
      /^lookBackOrders must be an integer of at least 1 and at most 1000/,
    ],
    ['volume 1e19', { volume: 1e19 }, /^volume must be greater than 0 and at most 1000000/],
    [
      'maxVolMultiplier 1e9',
      { maxVolMultiplier: 1e9 },
      /^maxVolMultiplier must be greater than 0 and at most 1000/,
    ],
    [
      'takeProfitAmount 1e6 %',
      { enableTakeProfit: true, takeProfitType: 'PERCENT', takeProfitAmount: 1e6 },
      /^takeProfitAmount must be at most 10000 when takeProfitType is PERCENT/,
    ],
    [
      'lowCollateral 1e15',
      { skipLowCollateral: true, lowCollateral: 1e15 },
      /^lowCollateral must be at least 1 and at most 1000000000/,
    ],
    [
      '501 tokenAddresses',
      { copyAll: false, tokenAddresses: Array(501).fill(BTC) },
      /^tokenAddresses must have at most 500 items/,
    ],
    [
      '101 accounts',
      { accounts: Array.from({ length: 101 }, trader) },
      /^accounts must have at most 100 items/,
    ],
  ])('POST /copy-trades refuses %s with a 400 naming the field', async (_, patch, message) => {
    expectError(await create(patch), 400, 'VALIDATION_FAILED', message);
  });

  it('PUT /copy-trades refuses lookBackOrders 1e19 too, and changes nothing', async () => {
    const trade = (await create({ account: trader() })).body;
    const res = await call(svc, 'PUT', `/copy-trades/${trade.id}`, {
      token: alice.token,
      body: { lookBackOrders: 1e19 },
    });
    expectError(
      res,
      400,
      'VALIDATION_FAILED',
      /lookBackOrders must be an integer of at least 1 and at most 1000/,
    );
  });

  it('a withdrawal of 1e19 is refused naming amount', async () => {
    const res = await call(svc, 'POST', `/embedded-wallets/${DEFAULT_VENUE}/withdraw`, {
      token: alice.token,
      body: { sourceAddress: alice.embeddedWallet, destinationAddress: trader(), amount: 1e19 },
    });
    expectError(res, 400, 'VALIDATION_FAILED', /amount must be at most 1000000000/);
  });

  it.each([
    ['blockTime 1e19', { blockTime: 1e19 }, /blockTime must be between 2000-01-01 and 2100-01-01/],
    ['sizeDeltaNumber 1e300', { sizeDeltaNumber: 1e300 }, /sizeDeltaNumber must be at most 1000000000000/],
    [
      'collateralDeltaNumber 1e300',
      { collateralDeltaNumber: 1e300 },
      /collateralDeltaNumber must be at most/,
    ],
    ['priceNumber 1e300', { priceNumber: 1e300 }, /priceNumber must be at most 1000000000000/],
  ])('POST /sandbox/orders refuses %s with a 400 naming the field', async (_, patch, message) => {
    expectError(
      await sandbox('/sandbox/orders', { orders: [sandboxOpen(trader(), patch)] }),
      400,
      'VALIDATION_FAILED',
      message,
    );
  });

  it('POST /sandbox/prices refuses a price of 1e300 and a time in 1970', async () => {
    const tick = { indexToken: BTC, price: 1e300, time: svc.clock.ms };
    expectError(
      await sandbox('/sandbox/prices', { prices: [tick] }),
      400,
      'VALIDATION_FAILED',
      /price must be at most/,
    );
    expectError(
      await sandbox('/sandbox/prices', { prices: [{ ...tick, price: 1, time: 5 }] }),
      400,
      'VALIDATION_FAILED',
      /time must be between 2000-01-01 and 2100-01-01/,
    );
  });
});

describe('a copy trade stored before the bounds', () => {
  it('gets a FAILED log naming the bound, and the other copy trades and the trader go on', async () => {
    const account = trader();
    const bad = (await create({ account, title: 'Stored before the bounds' })).body;
    const good = (await create({ account, title: 'Sane' })).body;
    // As a service before the bounds stored it (it answered 201 to lookBackOrders 1e19).
    svc.service.db
      .prepare("UPDATE copy_trades SET config = json_set(config, '$.lookBackOrders', 1e19) WHERE id = ?")
      .run(bad.id);
    // A write through the store tells the engine the copy trades changed.
    await call(svc, 'PUT', `/copy-trades/${good.id}`, { token: alice.token, body: { title: 'Sane one' } });

    const open = sandboxOpen(account);
    const res = await sandbox('/sandbox/orders', { orders: [open] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const [failed] = await logsOf(bad.id);
    expect(failed).toMatchObject({ type: 'OPEN', isSuccess: false, copyOrderId: null, copyPositionId: null });
    expect(failed!.reason).toMatch(/lookBackOrders must be an integer of at least 1 and at most 1000/);
    const [copied] = await logsOf(good.id);
    expect(copied).toMatchObject({ type: 'OPEN', isSuccess: true });
    const position = svc.service.db
      .prepare("SELECT status FROM positions WHERE account = ? AND status = 'OPEN'")
      .all(account);
    expect(position).toHaveLength(1);
    // The next order of the trader is copied too: nothing stopped.
    const close = sandboxOpen(account, {
      type: 'CLOSE',
      sizeDeltaNumber: 20_000,
      collateralDeltaNumber: 2_000,
      blockTime: new Date(svc.clock.ms - 1_800_000).toISOString(),
    });
    expect((await sandbox('/sandbox/orders', { orders: [close] })).status).toBe(200);
    expect((await logsOf(good.id))[0]).toMatchObject({ type: 'CLOSE', isSuccess: true });
  });
});

describe('a copy that fails inside the engine', () => {
  it('becomes a FAILED log with the reason; the others are copied and the order is marked', async () => {
    const account = trader();
    const db = svc.service.db;
    // Three copy trades follow the account; the engine fails to open a copy for the second one.
    const trades: CopyTrade[] = [];
    for (const title of ['One', 'Two', 'Three']) trades.push((await create({ account, title })).body);
    const engine = new CopyEngine(db, svc.service.config);
    const book = (
      engine as unknown as { book: { open: (input: { followed: { trade: CopyTrade } }) => unknown } }
    ).book;
    const open = book.open.bind(book);
    book.open = (input) => {
      if (input.followed.trade.id === trades[1]!.id) throw new Error('SQLITE_FULL: database or disk is full');
      return open(input);
    };
    const order: SourceOrder = {
      id: `engine-iso-${++n}`,
      account,
      protocol: 'NOVA_ARB',
      indexToken: BTC,
      isLong: true,
      type: 'OPEN',
      sizeDeltaUsd: 20_000,
      collateralDeltaUsd: 2_000,
      sizeBeforeUsd: 0,
      collateralBeforeUsd: 0,
      price: 50_000,
      blockTimeMs: svc.clock.ms - 60_000,
      txHash: `0x${'e'.repeat(64)}`,
      isLiquidate: false,
    };
    // Inside an outer transaction, as the sandbox runs a request: the engine's is a savepoint.
    const events = db.transaction(() => engine.processSourceOrder(order))();
    const opened = events.filter((e) => e.kind === 'copyPositionOpened');
    expect(opened).toHaveLength(2);
    const [failed] = await logsOf(trades[1]!.id);
    expect(failed).toMatchObject({ type: 'OPEN', isSuccess: false, copyPositionId: null });
    expect(failed!.reason).toBe('copy failed: SQLITE_FULL: database or disk is full');
    for (const t of [trades[0]!, trades[2]!])
      expect((await logsOf(t.id))[0]).toMatchObject({ isSuccess: true });
    const positions = db.prepare('SELECT copy_trade_id FROM copy_positions WHERE copy_trade_id IN (?, ?, ?)');
    expect(positions.all(...trades.map((t) => t.id))).toHaveLength(2);
    expect(db.prepare('SELECT id FROM copy_source_orders WHERE id = ?').pluck().get(order.id)).toBe(order.id);
    // Exactly once still: the same order again writes nothing.
    expect(engine.processSourceOrder(order)).toEqual([]);

    // An exit that fails for one position: the tick's other exits go on, that one stays open
    // with one FAILED log (not one per tick).
    const closer = book as unknown as { close: (p: { copyTradeId: string }, ...rest: unknown[]) => unknown };
    const realClose = closer.close.bind(book);
    closer.close = (p, ...rest) => {
      if (p.copyTradeId === trades[0]!.id) throw new Error('disk I/O error');
      return realClose(p, ...rest);
    };
    const tick = (price: number, dMs: number) =>
      engine.processPrices([{ indexToken: BTC, price, timeMs: svc.clock.ms + dMs }]);
    const ours = new Set(trades.map((t) => t.id));
    const closed = tick(1_000, 1_000)
      .filter((e) => e.kind === 'copyPositionClosed')
      .map((e) => (e as { copyPosition: { copyTradeId: string } }).copyPosition.copyTradeId)
      .filter((id) => ours.has(id));
    expect(closed).toEqual([trades[2]!.id]);
    tick(900, 2_000);
    const logs = await logsOf(trades[0]!.id);
    expect(logs.filter((l) => l.type === 'LIQUIDATE')).toEqual([
      expect.objectContaining({ isSuccess: false, reason: 'copy failed: disk I/O error' }),
    ]);
    const status = db.prepare('SELECT status FROM copy_positions WHERE copy_trade_id = ?').pluck();
    expect(status.get(trades[0]!.id)).toBe('OPEN');
    expect(status.get(trades[2]!.id)).toBe('CLOSE');
  });
});
