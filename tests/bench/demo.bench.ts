// npm run bench:demo — how long `npm run service -- --demo` takes to seed the default world
// (5,000 traders, 8 protocols, 120 days, statistics included). Goal: under 30 s on this machine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedDemoWorld } from '../../src/service/market/simulator';
import { openServiceDatabase } from '../../src/service/store/database';

const dir = mkdtempSync(join(tmpdir(), 'copydesk-demo-bench-'));
const db = openServiceDatabase(join(dir, 'service.db'));
const started = performance.now();
const result = seedDemoWorld(db, { seed: 42, nowMs: Date.UTC(2026, 10, 21, 12) });
const seconds = (performance.now() - started) / 1000;
db.close();
rmSync(dir, { recursive: true, force: true });
if (!result) throw new Error('the store was not empty');
const t = result.timings;
console.log(
  `${result.traders} traders, ${result.positions} positions, ${result.orders} orders, ${result.records} statistic records`,
);
console.log(
  `world ${(t.worldMs / 1000).toFixed(2)} s, writing ${(t.writeMs / 1000).toFixed(2)} s, statistics ${(t.statisticsMs / 1000).toFixed(2)} s`,
);
console.log(`goal seedSeconds < 30: ${seconds.toFixed(2)} ${seconds < 30 ? 'met' : 'NOT met'}`);
console.log(
  JSON.stringify({
    traders: result.traders,
    positions: result.positions,
    orders: result.orders,
    seedSeconds: Math.round(seconds * 100) / 100,
  }),
);
