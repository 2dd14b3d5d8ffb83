// The engine works on state held in memory and writes SQLite at the end of each transaction
// (docs/copy-engine.md, Speed). These pin what that must not change: a burst writes the same rows
// as its orders one by one, and whatever others write (deposits, marks, positions, another
// engine), or a rollback undoes, is what the next order sees.
import { afterEach, describe, expect, it } from 'vitest';
import { CopyEngine } from '../../../../src/service/copy-engine/engine';
import {
  POSITION_COLUMNS_SQL,
  positionOfRow,
  positionValues,
  type EnginePosition,
} from '../../../../src/service/copy-engine/position-rows';
import type { SourceOrder } from '../../../../src/service/copy-engine/types';
import { addPosition } from '../../../support/copy-rows';
import { BTC, CopyWorld, ETH, SOL, TRADER_A, TRADER_B } from './world';

const worlds: CopyWorld[] = [];
afterEach(() => worlds.splice(0).forEach((w) => w.close()));

function newWorld(): CopyWorld {
  const world = new CopyWorld();
  worlds.push(world);
  return world;
}

/**
 * Copy trades of every kind on TRADER_A and TRADER_B: plain, reversed with a stop loss and a
 * cap, with a take profit, reversed (its copies get liquidated), and one whose wallet is too poor.
 */
function furnish(world: CopyWorld): void {
  world.trade();
  world.trade({
    reverseCopy: true,
    enableStopLoss: true,
    stopLossType: 'PERCENT',
    stopLossAmount: 50,
    maxVolMultiplier: 1.5,
  });
  world.trade({ account: TRADER_B, enableTakeProfit: true, takeProfitType: 'USD', takeProfitAmount: 5 });
  world.trade({ account: TRADER_B, reverseCopy: true });
  const poor = world.addUser();
  world.trade({}, poor);
  world.setBalance(50, world.walletOf(poor));
  world.tick(BTC, 50_000);
  world.tick(ETH, 3_000);
}

/** Source orders on three tokens (SOL has no mark: its fills are at the orders' prices). */
function script(world: CopyWorld): SourceOrder[] {
  const btc = world.source(BTC, true);
  const eth = world.source(ETH, false);
  const sol = world.source(SOL, true, TRADER_B);
  return [
    btc.open(20_000, 2_000, 50_000),
    eth.open(9_000, 900, 3_000),
    sol.open(5_000, 500, 100),
    btc.increase(20_000, 2_000, 50_500),
    eth.decrease(3_000, 300, 2_950),
    btc.increase(10_000, 1_000, 51_000),
    sol.decrease(1_000, 100, 101),
    // The source's BTC close never came: a new BTC long overwrites the copies.
    world.source(BTC, true).open(10_000, 1_000, 50_000),
    btc.decrease(25_000, 2_500, 50_800),
    eth.close(2_900),
    world.source(ETH, false).open(6_000, 600, 2_900),
    // Past the short copies' liquidation price (110): they liquidate.
    sol.close(111),
    btc.close(49_000),
  ];
}

/** Everything the engine wrote, without the ids of the world's random user and wallet. */
function written(world: CopyWorld) {
  const rows = (sql: string) =>
    (world.db.prepare(sql).all() as Record<string, unknown>[]).map((row) => {
      const { user_id: _user, copy_wallet_id: _wallet, ...rest } = row;
      return rest;
    });
  return {
    positions: rows('SELECT * FROM copy_positions ORDER BY rowid'),
    orders: rows('SELECT * FROM copy_orders ORDER BY rowid'),
    logs: rows('SELECT * FROM activity_logs ORDER BY rowid'),
    sources: rows('SELECT id FROM copy_source_orders ORDER BY rowid'),
    balance: world.balance(),
    available: world.available(),
  };
}

describe('a burst in one transaction', () => {
  it('writes the rows its orders write one by one, and the same events', () => {
    const single = newWorld();
    const burst = newWorld();
    furnish(single);
    furnish(burst);
    const singleEvents = script(single).flatMap((o) => single.engine.processSourceOrder(o));
    const burstEvents = burst.engine.processSourceOrders(script(burst));
    const strip = (events: unknown[]) =>
      JSON.parse(
        JSON.stringify(events, (key, value: unknown) =>
          key === 'userId' || key === 'copyWalletId' ? undefined : value,
        ),
      );
    expect(strip(burstEvents)).toEqual(strip(singleEvents));
    expect(burstEvents.length).toBeGreaterThan(30);
    const want = written(single);
    expect(written(burst)).toEqual(want);
    // The script covers what a burst must get right: overwrites, liquidations, failed opens,
    // positions opened and closed within it, and positions still open after it.
    expect(new Set(want.positions.map((p) => p.close_type))).toEqual(
      new Set([null, 'OVERWRITE', 'COPY_TRADE', 'LIQUIDATE']),
    );
    expect(want.logs.filter((l) => l.is_success === 0)).toHaveLength(4);
  });
});

describe('writes the engine did not make', () => {
  it('sees a balance written by someone else (a deposit, a withdrawal)', () => {
    const world = newWorld();
    world.trade();
    world.tick(BTC, 50_000);
    world.setBalance(50);
    world.engine.processSourceOrder(world.source(BTC, true).open(20_000, 2_000, 50_000));
    expect(world.logs()[0]).toMatchObject({ isSuccess: 0 });
    world.setBalance(1_000);
    world.engine.processSourceOrder(world.source(ETH, true).open(20_000, 2_000, 3_000));
    expect(world.logs()[1]).toMatchObject({ type: 'OPEN', isSuccess: 1 });
    expect(world.balance()).toBe(999.4);
  });

  it('sees a mark written by someone else (the live market writes its own)', () => {
    const world = newWorld();
    world.trade();
    world.tick(BTC, 50_000);
    world.engine.processSourceOrder(world.source(ETH, true).open(20_000, 2_000, 3_000));
    world.db.prepare('UPDATE mark_prices SET price = 40_000 WHERE index_token = ?').run(BTC);
    world.engine.processSourceOrder(world.source(BTC, true).open(20_000, 2_000, 50_000));
    expect(world.positions()[1]).toMatchObject({ entryPrice: 40_000 });
  });

  it('sees positions inserted and changed by someone else', () => {
    const world = newWorld();
    const trade = world.trade();
    world.tick(BTC, 50_000);
    const btc = world.source(BTC, true);
    world.engine.processSourceOrder(world.source(ETH, true).open(20_000, 2_000, 3_000));
    const owner = { userId: world.userId, copyTradeId: trade.id, copyWalletId: world.walletId };
    const key = `${TRADER_A.toLowerCase()}|NOVA_ARB|${BTC.toLowerCase()}|LONG`;
    const planted = addPosition(world.db, owner, {
      id: 'planted',
      copyAccount: TRADER_A,
      sourcePositionId: key,
      createdAtMs: world.clock,
    });
    expect(world.available()).toBe(10_000 - 0.6 - 100 - 100);
    world.engine.processSourceOrder(btc.open(20_000, 2_000, 50_000));
    // The planted copy is the open copy of the same holding: the new OPEN overwrites it.
    expect(world.positions().find((p) => p.id === planted.id)).toMatchObject({ closeType: 'OVERWRITE' });
    const fresh = world.positions().at(-1)!;
    world.db.prepare("UPDATE copy_positions SET margin = 0, status = 'CLOSE' WHERE id = ?").run(fresh.id);
    expect(world.engine.processSourceOrder(btc.close(51_000))).toEqual([]);
  });

  it('forgets what a rolled-back outer transaction undid', () => {
    const world = newWorld();
    world.trade();
    world.tick(BTC, 50_000);
    const open = world.source(BTC, true).open(20_000, 2_000, 50_000);
    expect(() =>
      world.db.transaction(() => {
        world.engine.processSourceOrder(open);
        throw new Error('the caller fails after the engine wrote');
      })(),
    ).toThrow('the caller fails');
    expect(world.positions()).toEqual([]);
    expect(world.engine.processSourceOrder(open)).toHaveLength(2);
    expect(world.positions()).toHaveLength(1);
    expect(world.available()).toBe(10_000 - 0.6 - 100);
  });

  it('recovers from a transaction that failed while writing its journal', () => {
    const world = newWorld();
    world.trade();
    world.tick(BTC, 50_000);
    const btc = world.source(BTC, true);
    world.engine.processSourceOrder(btc.open(20_000, 2_000, 50_000));
    world.db.exec(`CREATE TEMP TRIGGER refuse BEFORE INSERT ON activity_logs
      BEGIN SELECT RAISE(ABORT, 'the disk is full'); END`);
    const close = btc.close(51_000);
    expect(() => world.engine.processSourceOrder(close)).toThrow('the disk is full');
    world.db.exec('DROP TRIGGER temp.refuse');
    expect(world.positions()[0]).toMatchObject({ status: 'OPEN' });
    expect(world.engine.processSourceOrder(close)).toHaveLength(2);
    // Closed at the mark, 50,000: no PnL, fees 0.6 + 0.35.
    expect(world.positions()[0]).toMatchObject({ status: 'CLOSE', pnl: -0.95 });
    expect(world.balance()).toBe(9_999.05);
  });

  it('shares the store with another engine on the same connection', () => {
    const world = newWorld();
    world.trade();
    world.tick(BTC, 50_000);
    const other = new CopyEngine(world.db, world.config);
    const btc = world.source(BTC, true);
    world.engine.processSourceOrder(btc.open(20_000, 2_000, 50_000));
    other.processSourceOrder(btc.close(51_000));
    // The first engine must not follow the position the other one closed.
    expect(world.engine.processSourceOrder(btc.close(52_000))).toEqual([]);
    expect(world.engine.processSourceOrder(btc.open(20_000, 2_000, 50_000))).toHaveLength(2);
    expect(world.positions().map((p) => [p.status, p.positionIndex])).toEqual([
      ['CLOSE', 0],
      ['OPEN', 1],
    ]);
  });
});

describe('position rows', () => {
  it('reads back the values it binds, field by field', () => {
    const world = newWorld();
    world.trade({ enableStopLoss: true, stopLossType: 'USD', stopLossAmount: 7 });
    world.tick(BTC, 50_000);
    world.engine.processSourceOrder(world.source(BTC, true).open(20_000, 2_000, 50_000));
    const row = world.db
      .prepare(`SELECT ${POSITION_COLUMNS_SQL} FROM copy_positions p`)
      .raw()
      .get() as unknown[];
    expect(positionValues(positionOfRow(row))).toEqual(row);
    expect(positionOfRow(row)).toMatchObject({ stopLossAmount: 7, isLong: true, status: 'OPEN' });
    const p: EnginePosition = {
      id: 'x',
      userId: 'u',
      copyTradeId: 't',
      copyWalletId: 'w',
      copyAccount: TRADER_A,
      sourcePositionId: null,
      positionIndex: 3,
      copyPositionIndex: 4,
      indexToken: BTC,
      identifyKey: 'k',
      pair: 'BTC/USD',
      key: '0xkey',
      sourceOrderTxHashes: ['0x1', '0x2'],
      sourceSizeDelta: '1',
      sizeDelta: '2',
      sourceInitialVol: '3',
      totalSizeDelta: 5,
      initialVol: 6,
      margin: 7,
      sizeTokens: 8,
      isLong: false,
      isReverse: true,
      entryPrice: 9,
      leverage: 10,
      stopLossPrice: 11,
      stopLossAmount: 12,
      takeProfitPrice: null,
      takeProfitAmount: 14,
      pnl: 15,
      realisedPnl: 16,
      funding: 17,
      fee: 18,
      closeType: 'MANUAL',
      status: 'CLOSE',
      protocol: 'NOVA_ARB',
      exchange: 'PERPX',
      lastOrderAtMs: 19,
      closedAtMs: 20,
      createdAtMs: 21,
    };
    expect(positionOfRow(positionValues(p))).toEqual(p);
  });
});
