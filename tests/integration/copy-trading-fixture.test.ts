import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityLog } from '../../src/shared/api/activity-logs';
import type { Paged } from '../../src/shared/api/common';
import type { CopyOrder, CopyPosition } from '../../src/shared/api/copy-positions';
import type { CopyTradeListItem } from '../../src/shared/api/copy-trades';
import type { EmbeddedCopyWallet } from '../../src/shared/api/copy-wallets';
import { DEFAULT_VENUE, embeddedWalletsPath } from '../../src/shared/profile';
import {
  REFERENCE_PRICES,
  seedCopyFixture,
  type CopyFixtureSummary,
} from '../../src/service/fixture/copy-fixture';
import { seedDemoWorld } from '../../src/service/market/simulator/seed-demo';
import { openServiceDatabase, type ServiceDb } from '../../src/service/store/database';
import { call, FIXED_NOW, loginCopyUser, startCopyService, type CopyUser } from '../support/copy-session';
import { expectAll } from '../support/expect-all';
import type { RunningService } from '../support/service';

let svc: RunningService;
let user: CopyUser;
let seeded: CopyFixtureSummary;
beforeAll(async () => {
  svc = await startCopyService();
  user = await loginCopyUser(svc);
  seeded = seedCopyFixture(svc.service.db, svc.service.config, { userId: user.id, seed: 7 });
});
afterAll(() => svc.close());

const COPY_TABLES = ['copy_trades', 'copy_trade_accounts', 'copy_positions', 'copy_orders', 'activity_logs'];
const dump = (db: ServiceDb) =>
  Object.fromEntries(COPY_TABLES.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all()]));

/** A fresh store holding just this user and their wallets, as they were before seeding. */
function twinStore(): ServiceDb {
  const twin = openServiceDatabase(':memory:');
  const db = svc.service.db;
  const userRow = db.prepare('SELECT * FROM users WHERE id = ?').get(user.id) as Record<string, unknown>;
  twin
    .prepare(
      `INSERT INTO users (${Object.keys(userRow).join(', ')}) VALUES (${Object.keys(userRow)
        .map((k) => `@${k}`)
        .join(', ')})`,
    )
    .run(userRow);
  const wallet = db.prepare('SELECT * FROM copy_wallets WHERE id = ?').get(user.walletId) as Record<
    string,
    unknown
  >;
  wallet.balance = 10_000;
  twin
    .prepare(
      `INSERT INTO copy_wallets (${Object.keys(wallet).join(', ')}) VALUES (${Object.keys(wallet)
        .map((k) => `@${k}`)
        .join(', ')})`,
    )
    .run(wallet);
  return twin;
}

describe('seedCopyFixture', () => {
  it('writes the same rows for the same seed, user and moment, and other ids for another seed', () => {
    const twin = twinStore();
    seedCopyFixture(twin, svc.service.config, { userId: user.id, seed: 7, atMs: FIXED_NOW });
    const rows = (db: ServiceDb) => {
      const all = dump(db);
      // Only this user's rows: the shared store may hold others'.
      return Object.fromEntries(
        Object.entries(all).map(([t, list]) => [
          t,
          (list as Record<string, unknown>[]).filter((r) => r.user_id === undefined || r.user_id === user.id),
        ]),
      );
    };
    expect(rows(twin)).toEqual(rows(svc.service.db));
    const other = twinStore();
    const again = seedCopyFixture(other, svc.service.config, { userId: user.id, seed: 8, atMs: FIXED_NOW });
    expect(again.copyTradeIds.trend).not.toBe(seeded.copyTradeIds.trend);
    expect(again.balanceDelta).toBe(seeded.balanceDelta);
    twin.close();
    other.close();
  });

  it('in a market, follows its busiest traders, moves each price by its mark and keeps every PnL', () => {
    const levels: Record<string, number> = { BTC: 1.25, ETH: 1.5, AVAX: 0.8, SOL: 2 };
    const symbolOf = (pair: string) => pair.split('/')[0] as string;
    const written = twinStore();
    const asWritten = seedCopyFixture(written, svc.service.config, {
      userId: user.id,
      seed: 7,
      atMs: FIXED_NOW,
    });
    // A small demo market, then a mark for every token the fixture trades, each symbol at its own level.
    const market = twinStore();
    seedDemoWorld(market, { seed: 5, nowMs: FIXED_NOW, traders: 80, days: 10, skipStatistics: true });
    const tokens = written
      .prepare('SELECT DISTINCT index_token, pair FROM activity_logs WHERE user_id = ?')
      .all(user.id) as { index_token: string; pair: string }[];
    const mark = market.prepare(
      'INSERT OR REPLACE INTO mark_prices (index_token, price, time_ms) VALUES (?, ?, 0)',
    );
    for (const t of tokens) {
      const symbol = symbolOf(t.pair);
      mark.run(t.index_token, REFERENCE_PRICES[symbol]! * levels[symbol]!);
    }
    const priced = seedCopyFixture(market, svc.service.config, {
      userId: user.id,
      seed: 7,
      atMs: FIXED_NOW,
      inMarket: true,
    });

    // The copy trades follow the busiest traders of their protocols over the week before.
    const busiest = (protocol: string) =>
      market
        .prepare(
          `SELECT account FROM positions WHERE protocol = ? AND open_time_ms BETWEEN ? AND ?
           GROUP BY account ORDER BY COUNT(*) DESC, account`,
        )
        .pluck()
        .all(protocol, FIXED_NOW - 7 * 86_400_000, FIXED_NOW) as string[];
    const trades = market.prepare('SELECT id, account FROM copy_trades WHERE user_id = ?').all(user.id) as {
      id: string;
      account: string;
    }[];
    const accountOf = (id: string) => trades.find((t) => t.id === id)?.account;
    expect(accountOf(priced.copyTradeIds.trend)).toBe(busiest('NOVA_ARB')[0]);
    expect(accountOf(priced.copyTradeIds.reverse)).toBe(busiest('ORBIT_BASE')[0]);
    expect(accountOf(priced.copyTradeIds.stopped)).toBe(busiest('HELIX_OP')[0]);
    const reverseAccounts = market
      .prepare('SELECT account FROM copy_trade_accounts WHERE copy_trade_id = ?')
      .pluck()
      .all(priced.copyTradeIds.reverse);
    expect(reverseAccounts).toEqual([busiest('ORBIT_BASE')[1]]);
    const followed = market
      .prepare('SELECT DISTINCT source_account FROM activity_logs WHERE user_id = ? AND copy_trade_id = ?')
      .pluck()
      .all(user.id, priced.copyTradeIds.trend);
    expect(followed).toEqual([busiest('NOVA_ARB')[0]]);

    type Log = { id: string; pair: string; price: number; source_price: number; volume: number };
    const logs = (db: ServiceDb) =>
      db
        .prepare(
          'SELECT id, pair, price, source_price, volume FROM activity_logs WHERE user_id = ? ORDER BY id',
        )
        .all(user.id) as Log[];
    const before = logs(written);
    const after = logs(market);
    expect(after.map((l) => l.id)).toEqual(before.map((l) => l.id));
    after.forEach((l, i) => {
      expect(l.price).toBeCloseTo(before[i]!.price * levels[symbolOf(l.pair)]!, 6);
      expect(l.source_price).toBe(l.price);
      expect(l.volume).toBe(before[i]!.volume);
    });
    type Row = {
      index_token: string;
      entry_price: number;
      stop_loss_price: number | null;
      pnl: number;
      realised_pnl: number;
      fee: number;
    };
    const positions = (db: ServiceDb) =>
      db
        .prepare(
          `SELECT index_token, entry_price, stop_loss_price, pnl, realised_pnl, fee FROM copy_positions
           WHERE user_id = ? ORDER BY id`,
        )
        .all(user.id) as Row[];
    const moneyOf = (rows: Row[]) => rows.map((r) => [r.pnl, r.realised_pnl, r.fee]);
    // The moves are the same percentages of the same notionals: every PnL and fee is as written.
    expect(moneyOf(positions(market))).toEqual(moneyOf(positions(written)));
    expect(priced.balanceDelta).toBe(asWritten.balanceDelta);
    // Each entry and stop loss moved by its own symbol's level (scaled prices keep six significant
    // digits, hence the tolerance).
    const levelOf = (indexToken: string) =>
      levels[symbolOf(tokens.find((t) => t.index_token === indexToken)!.pair)]!;
    const writtenPositions = positions(written);
    const pricedPositions = positions(market);
    expect(pricedPositions.filter((p) => p.stop_loss_price !== null).length).toBeGreaterThan(0);
    pricedPositions.forEach((p, i) => {
      const level = levelOf(p.index_token);
      expect(p.entry_price / writtenPositions[i]!.entry_price).toBeCloseTo(level, 4);
      if (p.stop_loss_price !== null)
        expect(p.stop_loss_price / writtenPositions[i]!.stop_loss_price!).toBeCloseTo(level, 4);
    });
    written.close();
    market.close();
  });

  it('refuses a user without room for two more RUNNING copy trades', () => {
    svc.service.db.prepare('UPDATE users SET copy_trade_quota = 3 WHERE id = ?').run(user.id);
    expect(() => seedCopyFixture(svc.service.db, svc.service.config, { userId: user.id, seed: 9 })).toThrow(
      /room/,
    );
    svc.service.db.prepare('UPDATE users SET copy_trade_quota = 5 WHERE id = ?').run(user.id);
  });

  it('shows through the endpoints: trades with pnl, the wallet moved by the realised pnl', async () => {
    const trades = (await call<CopyTradeListItem[]>(svc, 'POST', '/copy-trades/list', { token: user.token }))
      .body;
    expect(trades.map((t) => [t.title, t.status, t.side])).toEqual([
      ['ETH shorts, no low leverage', 'STOPPED', 'SHORT'],
      ['Reverse of two scalpers', 'RUNNING', 'LONG'],
      ['BTC trend follower', 'RUNNING', 'BOTH'],
    ]);
    const byTitle = Object.fromEntries(trades.map((t) => [t.title, t]));
    // The engine's fees: 0.06 % of an open or increase, 0.035 % of a decrease or close.
    // Trend: BTC long 2 h ago, +30 − (0.6 + 0.3605) fees − 0.5 funding = 28.5395;
    // ETH short 10 days ago, −25 − (0.6 + 0.1785 + 0.18025) fees = −25.95875.
    expect(byTitle['BTC trend follower']).toMatchObject({ pnl7D: 28.5395, pnl30D: 2.58075 });
    // Its open BTC long: 1500 USD bought at 62 000 and 63 000, marked at 63 500.
    const tokens = 1000 / 62_000 + 500 / 63_000;
    expect(byTitle['BTC trend follower']?.pnl).toBeCloseTo(2.58075 + 63_500 * tokens - 1500, 5);
    // Reverse: a take profit of +40 − (0.15 + 0.0735) three days ago; an ETH short from 3100 marked at 3050.
    expect(byTitle['Reverse of two scalpers']).toMatchObject({ pnl7D: 39.7765, pnl30D: 39.7765 });
    expect(byTitle['Reverse of two scalpers']?.pnl).toBeCloseTo(39.7765 + (50 * 250) / 3100, 5);
    // Stopped: −8 − (0.192 + 0.1148) 40 days ago.
    expect(byTitle['ETH shorts, no low leverage']).toMatchObject({ pnl: -8.3068, pnl7D: 0, pnl30D: 0 });

    const [wallet] = (
      await call<EmbeddedCopyWallet[]>(svc, 'GET', embeddedWalletsPath(DEFAULT_VENUE), { token: user.token })
    ).body;
    // Σ pnl of all six positions (the open ones' pnl is their fees so far, −0.9 and −0.15):
    // 28.5395 − 25.95875 + 39.7765 − 8.3068 − 0.9 − 0.15. Margin held: 150 + 50.
    expect(seeded.balanceDelta).toBe(33.00045);
    expect(wallet).toMatchObject({ balance: 10_033.00045, availableBalance: 9833.00045, pnl24h: 28.5395 });
    // The closed ones' pnl, 34.05045, and the open ones' unrealised PnL at the marks.
    expect(wallet?.totalPnl).toBeCloseTo(34.05045 + 63_500 * tokens - 1500 + (50 * 250) / 3100, 5);
  });

  it('writes orders newest first and activity logs with one failure and its reason', async () => {
    const closed = await call<Paged<CopyPosition>>(
      svc,
      'POST',
      '/copy-positions/page?status=CLOSE&sort_type=asc',
      {
        token: user.token,
      },
    );
    expect(closed.body.data.map((p) => p.closeType)).toEqual([
      'STOP_LOSS',
      'COPY_TRADE',
      'TAKE_PROFIT',
      'COPY_TRADE',
    ]);
    const eth = closed.body.data[1] as CopyPosition;
    expect(eth).toMatchObject({
      isLong: false,
      realisedPnl: -25,
      fee: 0.95875,
      pnl: -25.95875,
      entryPrice: 3000,
      pair: 'ETH/USD',
    });
    const orders = (
      await call<CopyOrder[]>(svc, 'GET', `/copy-positions/${eth.id}/orders`, { token: user.token })
    ).body;
    expect(orders.map((o) => [o.isIncrease, o.price, o.realisedPnl, o.fee, o.pnl])).toEqual([
      [false, 3090, -15, 0.18025, -15.18025],
      [false, 3060, -10, 0.1785, -10.1785],
      [true, 3000, 0, 0.6, -0.6],
    ]);

    const logs = await call<Paged<ActivityLog>>(svc, 'POST', '/activity-logs/page', {
      token: user.token,
      body: { pagination: { limit: 100 } },
    });
    expect(logs.body.meta.total).toBe(13);
    const failed = logs.body.data.filter((l) => !l.isSuccess);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      type: 'OPEN',
      copyOrderId: null,
      copyPositionId: null,
      pair: 'SOL/USD',
      reason: 'the venue rejected the order: the price moved beyond the slippage limit',
    });
    // Only a failed action says why: a success carries no reason at all.
    expectAll(
      logs.body.data.filter((l) => l.isSuccess),
      (l) => !('reason' in l),
    );
    expect(logs.body.data.map((l) => l.type)).toEqual(
      expect.arrayContaining(['STOP_LOSS', 'TAKE_PROFIT', 'DECREASE']),
    );
  });
});
