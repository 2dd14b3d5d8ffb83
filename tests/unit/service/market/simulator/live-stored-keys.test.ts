// A database seeded before the simulator used the one positionKey (positions/keys.ts) holds the keys
// of the simulator's own function then. The live market started on it must carry on: its open
// positions keep their stored keys, a trader who opens on a series already open increases that
// position, a new position on a series with stored positions takes their key, and one on a new
// series gets the one positionKey (docs/simulator.md, Keys).
import { describe, expect, it } from 'vitest';
import { hashString, hex32 } from '../../../../../src/service/market/simulator/draws';
import { startLiveMarket } from '../../../../../src/service/market/simulator/live';
import { dynamicsOf } from '../../../../../src/service/market/simulator/parameters';
import { SimPosition } from '../../../../../src/service/market/simulator/position-book';
import { catalogueMarkets } from '../../../../../src/service/market/simulator/world';
import { seedDemoWorld } from '../../../../../src/service/market/simulator/seed-demo';
import { positionKey } from '../../../../../src/service/positions/keys';
import { openServiceDatabase, type ServiceDb } from '../../../../../src/service/store/database';
import { positionWriters, type OrderRow, type PositionRow } from '../../../../../src/service/store/positions';
import { positionViolations } from './identities';

const NOW = Date.UTC(2026, 2, 15, 9, 30);

/** The simulator's own key before the one positionKey: (account, index token, side), no protocol. */
const legacyKey = (account: string, indexToken: string, isLong: boolean): string =>
  hex32(hashString(account), hashString(indexToken), isLong ? 1 : 2);

/** A small world whose rows carry the keys a database seeded before holds. */
function seededBefore(): ServiceDb {
  const db = openServiceDatabase(':memory:');
  seedDemoWorld(db, { seed: 5, nowMs: NOW, traders: 80, days: 10, skipStatistics: true });
  const rows = db.prepare('SELECT id, account, index_token, is_long FROM positions').all() as PositionRow[];
  const setPosition = db.prepare('UPDATE positions SET key = ? WHERE id = ?');
  const setOrders = db.prepare('UPDATE orders SET key = ? WHERE position_id = ?');
  db.transaction(() => {
    for (const p of rows) {
      const key = legacyKey(p.account, p.index_token, p.is_long === 1);
      setPosition.run(key, p.id);
      setOrders.run(key, p.id);
    }
  })();
  return db;
}

/** One open position per open series: how many (account, protocol, token, side) hold two or more. */
const doubledSeries = (db: ServiceDb) =>
  db
    .prepare(
      `SELECT account, protocol, index_token, is_long, COUNT(*) n FROM positions WHERE status = 'OPEN'
       GROUP BY account, protocol, index_token, is_long HAVING n > 1`,
    )
    .all();

/**
 * One trader who holds, under old keys, an open long and short on every token of one protocol: any
 * open the market draws for them is on a series already open.
 */
function traderHoldingEverything(): ServiceDb {
  const db = openServiceDatabase(':memory:');
  const market = catalogueMarkets()[0]!;
  const account = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
  const write = positionWriters(db);
  let n = 0;
  for (const token of market.tokens)
    for (const isLong of [true, false]) {
      const identity = { id: `P${(n += 1)}`, account, isLong, ...token };
      const stamp = (_: unknown, seq: number) => ({
        id: `${identity.id}-${seq}`,
        txHash: `0x${n}${seq}`,
        logId: 1,
      });
      const p = new SimPosition(identity, market.feeRate, () => 0, stamp);
      const order = p.open(NOW - 60_000, dynamicsOf(token.symbol).startPrice, 1_000, 250);
      const key = legacyKey(account, token.indexToken, isLong);
      write.position({ ...p.toRow(), key });
      write.order({ ...order, key });
    }
  return db;
}

describe('the live market on a database seeded before the one positionKey', () => {
  it("increases a trader's open position under its old key rather than opening the series again", () => {
    const db = traderHoldingEverything();
    const before = db.prepare('SELECT COUNT(*) FROM positions').pluck().get() as number;
    const market = startLiveMarket(db, { seed: 9, nowMs: () => NOW, timer: false });
    // Checked after every tick: the trader soon closes what they hold, and a closed series may open again.
    for (let i = 1; i <= 100; i += 1) {
      market.step(NOW + i * 1_000);
      expect(doubledSeries(db)).toEqual([]);
    }
    market.stop();
    const increases = db
      .prepare("SELECT COUNT(*) FROM orders WHERE type = 'INCREASE' AND position_id NOT LIKE 'L%'")
      .pluck()
      .get() as number;
    expect(before).toBeGreaterThan(10);
    expect(increases).toBeGreaterThan(3);
    expect(positionViolations(db)).toEqual([]);
    db.close();
  });

  it('continues its open positions under their stored keys, and keeps one key per series', () => {
    const db = seededBefore();
    const openBefore = new Map(
      (db.prepare("SELECT id, key FROM positions WHERE status = 'OPEN'").all() as PositionRow[]).map((p) => [
        p.id,
        p.key,
      ]),
    );
    expect(openBefore.size).toBeGreaterThan(5);
    const market = startLiveMarket(db, { seed: 9, nowMs: () => NOW, timer: false });
    for (let i = 1; i <= 1_500; i += 1) market.step(NOW + i * 1_000);
    market.stop();

    const continued = db
      .prepare(
        `SELECT * FROM orders WHERE position_id IN (SELECT value FROM json_each(?)) AND created_at_ms > ?`,
      )
      .all(JSON.stringify([...openBefore.keys()]), NOW) as OrderRow[];
    expect(new Set(continued.map((o) => o.position_id)).size).toBeGreaterThan(5);
    for (const o of continued) expect(o.key).toBe(openBefore.get(o.position_id));
    const keyOf = db.prepare('SELECT key FROM positions WHERE id = ?').pluck();
    for (const [id, key] of openBefore) expect(keyOf.get(id)).toBe(key);

    // A series with stored positions keeps their key; a series new to the store gets positionKey.
    const opened = db.prepare("SELECT * FROM positions WHERE id LIKE 'L%'").all() as PositionRow[];
    const seededSeries = db
      .prepare(
        "SELECT 1 FROM positions WHERE id NOT LIKE 'L%' AND protocol = ? AND account = ? AND index_token = ? AND is_long = ?",
      )
      .pluck();
    const kept = opened.filter((p) => seededSeries.get(p.protocol, p.account, p.index_token, p.is_long));
    expect(kept.length).toBeGreaterThan(5);
    expect(opened.length - kept.length).toBeGreaterThan(5);
    for (const p of opened) {
      const series = { account: p.account, protocol: p.protocol, symbol: '', indexToken: p.index_token };
      const isLong = p.is_long === 1;
      expect(p.key).toBe(
        kept.includes(p) ? legacyKey(p.account, p.index_token, isLong) : positionKey(series, isLong),
      );
    }
    // One open position per account, protocol, token and side: an open on a series already open
    // (under its old key) increased that position instead of opening a second one.
    expect(doubledSeries(db)).toEqual([]);
    expect(positionViolations(db)).toEqual([]);
    db.close();
  });
});
