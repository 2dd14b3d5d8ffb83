import type { ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { getAddress } from 'viem';
import { afterAll, describe, expect, it } from 'vitest';
import { indexTokenAddress } from '../../src/service/market/catalogue';
import { loginCopyUser, tradeBody } from '../support/copy-session';
import { postJson, startTestService } from '../support/service';
import { spawnServiceProcess } from '../support/service-process';
import type { OrderRow } from '../../src/service/store/positions';

const ADMIN = 'restart-admin-key-0123456789';
const WHALE = getAddress('0x' + '5a'.repeat(20));
const P = 'NOVA_ARB';
const children: ChildProcess[] = [];
afterAll(() => children.forEach((c) => c.kill('SIGKILL')));

/** The service as its own process on `db`, as the terminal runs it; resolves with its URL. */
async function serve(db: string): Promise<{ url: string; child: ChildProcess }> {
  const { child, url } = spawnServiceProcess(db, ['--admin-key', ADMIN, '--rate-limit', '1000000']);
  children.push(child);
  return { url: await url, child };
}

/** A stream of source orders: the whale opens, grows, trims and closes positions on three tokens. */
function orders(startMs: number) {
  const out: Record<string, unknown>[] = [];
  const symbols = ['BTC', 'ETH', 'SOL'];
  let t = startMs;
  for (let round = 0; round < 4; round += 1) {
    for (const symbol of symbols) {
      const base = {
        account: WHALE,
        protocol: P,
        indexToken: indexTokenAddress(P, symbol),
        isLong: round % 2 === 0,
        collateralDeltaNumber: 0,
      };
      const price = 100 + round * 3 + symbols.indexOf(symbol);
      for (const [type, size, collateral, move] of [
        ['OPEN', 5000, 500, 0],
        ['INCREASE', 2000, 200, 1],
        ['DECREASE', 3000, 0, 2],
        ['CLOSE', 4000, 700, 3],
      ] as const) {
        t += 60_000;
        out.push({
          ...base,
          id: `r${round}-${symbol}-${type}`,
          type,
          sizeDeltaNumber: size,
          collateralDeltaNumber: collateral,
          priceNumber: price + move,
          blockTime: t,
          txHash: `0x${t.toString(16).padStart(64, '0')}`,
        });
      }
    }
  }
  return out;
}

/** Every table the engine and the sandbox write, without the wall-clock bookkeeping times. */
function snapshot(file: string) {
  const db = new Database(file, { readonly: true });
  const rows = (sql: string) => db.prepare(sql).all();
  const out = {
    positions: rows('SELECT * FROM positions ORDER BY id'),
    orders: rows('SELECT * FROM orders ORDER BY id'),
    copyPositions: rows('SELECT * FROM copy_positions ORDER BY id'),
    copyOrders: rows('SELECT * FROM copy_orders ORDER BY id'),
    activityLogs: rows('SELECT * FROM activity_logs ORDER BY id'),
    wallets: rows('SELECT id, balance FROM copy_wallets ORDER BY id'),
    processed: rows('SELECT id FROM copy_source_orders ORDER BY id'),
  };
  db.close();
  return out;
}

const send = (url: string, batch: Record<string, unknown>[]) =>
  postJson(`${url}/sandbox/orders`, { orders: batch }, { 'x-admin-key': ADMIN });

describe('restart safety', () => {
  it('kill -9 mid-stream, restart and resend: the same final state as without the crash', async () => {
    // One template database with a follower and a copy trade, copied for both runs.
    const dir = mkdtempSync(join(tmpdir(), 'copydesk-restart-'));
    const template = join(dir, 'template.db');
    const setup = await startTestService({ dbPath: template });
    const follower = await loginCopyUser(setup);
    expect(
      (
        await postJson(
          `${setup.url}/copy-trades`,
          tradeBody(setup, follower, { account: WHALE, volume: 50, leverage: 5 }),
          { authorization: follower.token },
        )
      ).status,
    ).toBe(201);
    const stream = orders(setup.clock.ms - 30 * 86_400_000);
    await setup.close();
    const calm = join(dir, 'calm.db');
    const crashed = join(dir, 'crashed.db');
    copyFileSync(template, calm);
    copyFileSync(template, crashed);

    const a = await serve(calm);
    for (const order of stream) expect((await send(a.url, [order])).status).toBe(200);
    a.child.kill('SIGTERM');
    await new Promise((r) => a.child.once('exit', r));

    // The crash: orders go one by one and the process is killed without warning partway through.
    const b = await serve(crashed);
    const sent = stream.slice(0, 21).map((order) => send(b.url, [order]).catch(() => null));
    await Promise.all(sent.slice(0, 15));
    b.child.kill('SIGKILL');
    await Promise.all(sent);
    // Whatever the kill caught, nothing is half done: an order recorded is applied and copied.
    const mid = new Database(crashed, { readonly: true });
    const count = (sql: string) => mid.prepare(sql).pluck().get() as number;
    const recorded = count('SELECT COUNT(*) FROM sandbox_orders');
    expect(recorded).toBeLessThan(stream.length);
    expect(count('SELECT COUNT(*) FROM orders')).toBe(recorded);
    expect(
      count(
        'SELECT COUNT(*) FROM sandbox_orders s WHERE NOT EXISTS (SELECT 1 FROM copy_source_orders c WHERE c.id = s.id)',
      ),
    ).toBe(0);
    mid.close();
    // The client did not hear back for some orders, so it sends everything again.
    const again = await serve(crashed);
    for (const order of stream) expect((await send(again.url, [order])).status).toBe(200);
    again.child.kill('SIGTERM');
    await new Promise((r) => again.child.once('exit', r));

    const expected = snapshot(calm);
    expect(expected.copyPositions.length).toBeGreaterThan(0);
    expect(expected.activityLogs.length).toBeGreaterThan(0);
    expect(snapshot(crashed)).toEqual(expected);
  }, 120_000);
});

describe('catching up after a crash of the live market', () => {
  it('copies, once, the orders committed after the last copied one', async () => {
    const { catchUpSourceOrders } = await import('../../src/service/copy-engine/market-orders');
    const { positionWriters } = await import('../../src/service/store/positions');
    const svc = await startTestService({ adminKey: ADMIN });
    try {
      const follower = await loginCopyUser(svc);
      await postJson(
        `${svc.url}/copy-trades`,
        tradeBody(svc, follower, { account: WHALE, volume: 50, leverage: 5 }),
        { authorization: follower.token },
      );
      const [first] = orders(svc.clock.ms - 86_400_000);
      await send(svc.url, [first!]);
      // The market commits the whale's CLOSE, then dies before the engine copies it.
      const db = svc.service.db;
      const position = db.prepare('SELECT * FROM positions WHERE account = ?').get(WHALE) as Record<
        string,
        unknown
      >;
      const order = db.prepare('SELECT * FROM orders WHERE account = ?').get(WHALE) as OrderRow;
      const closeAt = order.block_time_ms + 60_000;
      positionWriters(db).order({
        ...order,
        id: 'missed-close',
        type: 'CLOSE',
        size: 0,
        size_delta: 5000,
        collateral: 0,
        collateral_delta: 500,
        block_time_ms: closeAt,
        created_at_ms: closeAt,
      });
      db.prepare("UPDATE positions SET status = 'CLOSE', close_time_ms = ? WHERE id = ?").run(
        closeAt,
        position.id,
      );
      expect(db.prepare("SELECT COUNT(*) FROM copy_positions WHERE status = 'OPEN'").pluck().get()).toBe(1);

      const { CopyEngine } = await import('../../src/service/copy-engine/engine');
      const engine = new CopyEngine(db, svc.service.config);
      expect(catchUpSourceOrders(db, engine).length).toBeGreaterThan(0);
      expect(db.prepare('SELECT close_type FROM copy_positions').pluck().all()).toEqual(['COPY_TRADE']);
      expect(catchUpSourceOrders(db, engine)).toEqual([]);
    } finally {
      await svc.close();
    }
  });
});
