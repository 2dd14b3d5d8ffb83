// GET /prices/…/candles on the demo world (docs/service.md, "Price candles"): the candles of the
// demo market's minute path, checked against that path's own minute prices.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedDemoWorld } from '../../src/service/market/simulator';
import { buildPricePaths } from '../../src/service/market/simulator/prices';
import { openServiceDatabase } from '../../src/service/store/database';
import { DEMO_SEED } from '../../src/service/preparation/demo-world';
import type { CandlesResponse } from '../../src/shared/api/candles';
import { startTestService, type RunningService } from '../support/service';
import { apiKeyOf, call } from '../support/copy-session';

const NOW = Date.UTC(2026, 2, 2, 12);
const HOUR = 3_600_000;
const MINUTE = 60_000;

let dir: string;
let svc: RunningService;
let token: { protocol: string; symbol: string; indexToken: string };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'copydesk-candles-demo-'));
  const dbPath = join(dir, 'service.db');
  // The demo seed and length, fewer traders: the same price paths as `--demo`.
  const db = openServiceDatabase(dbPath);
  seedDemoWorld(db, { seed: DEMO_SEED, nowMs: NOW, traders: 40, days: 120 });
  token = db
    .prepare(
      `SELECT t.protocol, t.symbol, t.index_token AS indexToken FROM tokens t
       JOIN orders o ON o.protocol = t.protocol AND o.index_token = t.index_token
       WHERE t.is_forex = 0 LIMIT 1`,
    )
    .get() as typeof token;
  db.close();
  // The store has its world already: the service only opens it, as `--demo` does on a later start.
  svc = await startTestService({ dbPath, demo: true });
}, 120_000);

afterAll(async () => {
  await svc.close();
  rmSync(dir, { recursive: true, force: true });
});

it('builds hourly candles from the demo market’s minute prices', async () => {
  const path = buildPricePaths(DEMO_SEED, [token.symbol], NOW, 120).get(token.symbol)!;
  // Three whole hours a day before the seeding instant, on the path's minute grid.
  const from = Math.ceil((NOW - 24 * HOUR) / HOUR) * HOUR;
  const to = from + 3 * HOUR;
  const res = await call<CandlesResponse>(
    svc,
    'GET',
    `/prices/${token.protocol}/${token.indexToken}/candles?from=${from}&to=${to}&interval=1h`,
    { headers: { 'x-api-key': apiKeyOf(svc) } },
  );
  expect(res.status).toBe(200);
  expect(res.body.source).toBe('market');
  const expected = [0, 1, 2].map((h) => {
    const minutes: number[] = [];
    for (let t = from + h * HOUR; t < from + (h + 1) * HOUR; t += MINUTE) {
      const i = (t - path.startMs) / MINUTE;
      if (Number.isInteger(i)) minutes.push(path.values[i]!);
    }
    return {
      time: from + h * HOUR,
      open: minutes[0],
      high: Math.max(...minutes),
      low: Math.min(...minutes),
      close: minutes.at(-1),
    };
  });
  expect(expected[0]!.open).toBeGreaterThan(0);
  expect(res.body.candles).toEqual(expected);
});
