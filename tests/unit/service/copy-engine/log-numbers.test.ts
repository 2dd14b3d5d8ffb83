// The engine numbers each user's activity logs (`seq`) in memory rather than by MAX(seq) at every
// insert (migration 13; docs/copy-engine.md, "Schema decisions for the write path"). The numbers
// must be what MAX(seq) + 1 would have given: after logs written by others, after a rollback,
// beside another engine on the same connection, and after a restart.
import { afterEach, describe, expect, it } from 'vitest';
import { CopyEngine } from '../../../../src/service/copy-engine/engine';
import { addLog } from '../../../support/copy-rows';
import { BTC, CopyWorld, ETH, SOL } from './world';

const worlds: CopyWorld[] = [];
afterEach(() => worlds.splice(0).forEach((w) => w.close()));

function newWorld(): CopyWorld {
  const world = new CopyWorld();
  worlds.push(world);
  world.trade();
  world.tick(BTC, 50_000);
  world.tick(ETH, 3_000);
  world.tick(SOL, 100);
  return world;
}

const seqs = (world: CopyWorld, userId = world.userId) =>
  world.db
    .prepare('SELECT seq FROM activity_logs WHERE user_id = ? ORDER BY rowid')
    .pluck()
    .all(userId) as number[];

describe("the engine's activity log numbers", () => {
  it('count each user from 1, in the order written, one per log', () => {
    const world = newWorld();
    const other = world.addUser();
    world.trade({}, other);
    world.engine.processSourceOrders([
      world.source(BTC, true).open(20_000, 2_000, 50_000),
      world.source(ETH, true).open(20_000, 2_000, 3_000),
    ]);
    expect(seqs(world)).toEqual([1, 2]);
    expect(seqs(world, other)).toEqual([1, 2]);
  });

  it('follow a log written by someone else', () => {
    const world = newWorld();
    world.engine.processSourceOrder(world.source(BTC, true).open(20_000, 2_000, 50_000));
    const owner = { userId: world.userId, copyTradeId: 't', copyWalletId: world.walletId };
    addLog(world.db, owner, world.clock);
    addLog(world.db, owner, world.clock);
    world.engine.processSourceOrder(world.source(ETH, true).open(20_000, 2_000, 3_000));
    expect(seqs(world)).toEqual([1, 2, 3, 4]);
  });

  it('reuse the numbers of a rolled-back transaction', () => {
    const world = newWorld();
    world.engine.processSourceOrder(world.source(BTC, true).open(20_000, 2_000, 50_000));
    expect(() =>
      world.db.transaction(() => {
        world.engine.processSourceOrder(world.source(ETH, true).open(20_000, 2_000, 3_000));
        throw new Error('the caller fails after the engine wrote');
      })(),
    ).toThrow('the caller fails');
    world.engine.processSourceOrder(world.source(SOL, true).open(2_000, 200, 100));
    expect(seqs(world)).toEqual([1, 2]);
  });

  it('continue what another engine on the connection, or an engine before a restart, wrote', () => {
    const world = newWorld();
    world.engine.processSourceOrder(world.source(BTC, true).open(20_000, 2_000, 50_000));
    const other = new CopyEngine(world.db, world.config);
    other.processSourceOrder(world.source(ETH, true).open(20_000, 2_000, 3_000));
    world.engine.processSourceOrder(world.source(SOL, true).open(2_000, 200, 100));
    expect(seqs(world)).toEqual([1, 2, 3]);
  });
});
