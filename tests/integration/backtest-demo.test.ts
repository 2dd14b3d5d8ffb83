// The demo market's mark history as the backtest's price path: rebuilt from the demo seed and the
// instant the world was seeded, used only where it reproduces the trader's own prices.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Backtests } from '../../src/service/backtest/backtests';
import { seedDemoWorld } from '../../src/service/market/simulator';
import { openServiceDatabase, type ServiceDb } from '../../src/service/store/database';
import { writeMeta } from '../../src/service/store/meta';
import { DEMO_SEED } from '../../src/service/preparation/demo-world';
import { backtestRequestSchema } from '../../src/shared/api/backtest';

const NOW = Date.UTC(2026, 2, 2, 12);

let dir: string;
let db: ServiceDb;
let busiest: { account: string; protocol: string };

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'copydesk-backtest-demo-'));
  db = openServiceDatabase(join(dir, 'service.db'));
  // The demo seed and length, fewer traders: the same price paths as `--demo`.
  seedDemoWorld(db, { seed: DEMO_SEED, nowMs: NOW, traders: 60, days: 120 });
  busiest = db
    .prepare(
      `SELECT account, protocol FROM orders WHERE block_time_ms >= ? GROUP BY account, protocol
       ORDER BY COUNT(*) DESC LIMIT 1`,
    )
    .get(NOW - 30 * 86_400_000) as { account: string; protocol: string };
}, 120_000);

afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const body = () =>
  backtestRequestSchema.parse({
    accounts: [busiest.account],
    leverage: 10,
    enableStopLoss: true,
    stopLossType: 'PERCENT',
    stopLossAmount: 30,
  });

describe('the demo mark history', () => {
  it('is the price path of a demo trader, with funding', () => {
    const backtests = new Backtests(db, { demo: true, nowMs: () => NOW });
    const [result] = backtests.multipleOrder(busiest.protocol, body());
    expect(result!.totalTrade).toBeGreaterThan(5);
    expect(result!.pricePath).toBe('marks');
    // Every demo symbol has a funding rate, so a month of copies pays or earns some.
    expect(result!.funding).not.toBe(0);
  });

  it('is not used when it does not reproduce the trader prices, nor without the demo world', () => {
    expect(
      new Backtests(db, { demo: false, nowMs: () => NOW }).multipleOrder(busiest.protocol, body())[0]!
        .pricePath,
    ).toBe('fills');
    // Paths that end an hour later are the same walk shifted by an hour: no longer the trader's prices.
    writeMeta(db, 'statistics_as_of', new Date(NOW + 3_600_000).toISOString());
    const shifted = new Backtests(db, { demo: true, nowMs: () => NOW });
    expect(shifted.multipleOrder(busiest.protocol, body())[0]!.pricePath).toBe('fills');
  });
});
