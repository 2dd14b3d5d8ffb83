// `npm run soak -- --minutes N`: the local service under mixed load (statistic filters, GraphQL,
// copy-trade edits, sandbox orders and prices, deposits, withdrawals, event streams), killed with
// SIGKILL every few seconds and started again on the same database. After each kill the
// invariants are checked on the file (tests/soak/invariants.ts). The last line is one JSON
// object: {"minutes","requests","errors5xx","restarts","invariantViolations","rssGrowthPct"}.
// Goals for 10 minutes: 0 errors5xx, 0 violations, RSS growth under 10 % after the first minute
// (docs/security.md, Soak).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { getAddress } from 'viem';
import {
  followTraders,
  loginUser,
  Market,
  runEvents,
  runMarket,
  runTrader,
  runUser,
  type SoakContext,
  type SoakUser,
  type TraderRecord,
} from './clients';
import { checkBalances, checkCopying, checkSourceOrders, checkWithdrawals } from './invariants';
import { rssGrowthPct, type RssSample } from './rss-growth';
import { killService, rssMiB, startService, type ServiceLife } from './service-life';
import { pause, ServiceGate, TrafficCounts } from './traffic';

const ADMIN_KEY = 'soak-admin-key-0123456789abcdef';
const STARTING_BALANCE = 10_000;
/** The RSS is read at this uptime in every life, so that lives compare with each other. */
const RSS_AT_UPTIME_MS = 3_000;

interface Options {
  minutes: number;
  users: number;
  traders: number;
  restartMinMs: number;
  restartMaxMs: number;
  keep: boolean;
}

function optionsFrom(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      minutes: { type: 'string', default: '10' },
      users: { type: 'string', default: '4' },
      traders: { type: 'string', default: '2' },
      'restart-every': { type: 'string', default: '4-8' },
      keep: { type: 'boolean', default: false },
    },
  });
  const number = (name: string, text: string, min: number, max: number) => {
    const n = Number(text);
    if (!Number.isFinite(n) || n < min || n > max)
      throw new Error(`--${name} must be a number from ${min} to ${max}`);
    return n;
  };
  const [low, high = low] = (values['restart-every'] ?? '').split('-');
  const restartMinMs = number('restart-every', low ?? '', 4, 600) * 1000;
  const restartMaxMs = number('restart-every', high ?? '', restartMinMs / 1000, 600) * 1000;
  return {
    minutes: number('minutes', values.minutes ?? '', 0.1, 24 * 60),
    users: number('users', values.users ?? '', 1, 50),
    traders: number('traders', values.traders ?? '', 1, 10),
    restartMinMs,
    restartMaxMs,
    keep: values.keep === true,
  };
}

/** Checks every invariant on the database file while no service runs on it. */
function checkInvariants(
  dbPath: string,
  users: readonly SoakUser[],
  records: readonly TraderRecord[],
): string[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    const wallets = users.map((u) => u.ledger);
    const txHashes = new Set(records.flatMap((r) => [...r.txHashes]));
    return [
      ...checkBalances(db, wallets),
      ...checkWithdrawals(db, wallets),
      ...checkCopying(db, txHashes),
      ...checkSourceOrders(
        db,
        records.flatMap((r) => r.confirmedIds),
      ),
    ];
  } finally {
    db.close();
  }
}

/** What the load left in the database: proof that copies, exits and withdrawals happened. */
function describeStore(dbPath: string): string {
  const db = new Database(dbPath, { readonly: true });
  try {
    const count = (sql: string) => db.prepare(sql).pluck().get() as number;
    const closes = db
      .prepare(
        "SELECT close_type AS type, COUNT(*) AS n FROM copy_positions WHERE status = 'CLOSE' GROUP BY close_type",
      )
      .all() as { type: string; n: number }[];
    return [
      `copy positions ${count('SELECT COUNT(*) FROM copy_positions')}`,
      `closed by ${closes.map((c) => `${c.type} ${c.n}`).join(', ') || 'nothing'}`,
      `activity logs ${count('SELECT COUNT(*) FROM activity_logs')} (failed ${count('SELECT COUNT(*) FROM activity_logs WHERE is_success = 0')})`,
      `withdrawals stored ${count('SELECT COUNT(*) FROM withdrawals')}`,
    ].join('; ');
  } finally {
    db.close();
  }
}

async function main(): Promise<void> {
  const options = optionsFrom(process.argv.slice(2));
  const dir = mkdtempSync(join(tmpdir(), 'copydesk-soak-'));
  const dbPath = join(dir, 'service.db');
  const args = [
    '--admin-key',
    ADMIN_KEY,
    '--rate-limit',
    '1000000',
    '--search-budget',
    '10000000',
    '--starting-balance',
    String(STARTING_BALANCE),
    '--log-dir',
    join(dir, 'logs'),
  ];
  const gate = new ServiceGate();
  const counts = new TrafficCounts();
  const ctx: SoakContext = { gate, counts, adminKey: ADMIN_KEY, startingBalance: STARTING_BALANCE };
  console.log(
    `soak: ${options.minutes} min, ${options.users} users, ${options.traders} traders, kill -9 every ${options.restartMinMs / 1000}–${options.restartMaxMs / 1000} s; data in ${dir}`,
  );

  // The first start seeds the fixture world (statistics to filter); later starts find it stored.
  let life: ServiceLife = await startService(dbPath, args);
  gate.open(life.url);
  const traders = Array.from({ length: options.traders }, (_, i) =>
    getAddress(`0x${(i + 0xa1).toString(16).repeat(20)}`),
  );
  const users: SoakUser[] = [];
  for (let i = 0; i < options.users; i += 1) {
    const user = await loginUser(ctx);
    await followTraders(ctx, user, traders);
    users.push(user);
  }
  const records: TraderRecord[] = traders.map(() => ({ confirmedIds: [], txHashes: new Set() }));
  const received = { events: 0 };
  const market = new Market();
  const startedMs = Date.now();
  const endMs = startedMs + options.minutes * 60_000;
  const loops = [
    runMarket(ctx, market, 200),
    ...traders.map((t, i) => runTrader(ctx, market, t, records[i] as TraderRecord, 40)),
    ...users.map((u) => runUser(ctx, u, traders)),
    ...users.map((u) => runEvents(ctx, u, received)),
  ];

  const rss: RssSample[] = [];
  const violations: string[] = [];
  let restarts = 0;
  // Every life ends killed and checked, the last one too: a loop that stopped while a service was
  // up would leave it running and its event streams open, and the run would never end.
  for (;;) {
    const lifeMs = options.restartMinMs + Math.random() * (options.restartMaxMs - options.restartMinMs);
    await pause(RSS_AT_UPTIME_MS);
    const mib = rssMiB(life.pid);
    if (mib !== null) rss.push({ atMs: Date.now() - startedMs, mib });
    await pause(Math.max(0, Math.min(lifeMs - RSS_AT_UPTIME_MS, endMs - Date.now())));
    gate.close();
    await killService(life);
    const found = checkInvariants(dbPath, users, records);
    violations.push(...found.map((v) => `after restart ${restarts}: ${v}`));
    if (Date.now() >= endMs) break;
    life = await startService(dbPath, args);
    restarts += 1;
    gate.open(life.url);
    if (restarts % 10 === 0)
      console.log(
        `  ${((Date.now() - startedMs) / 60_000).toFixed(1)} min: ${restarts} restarts, ${counts.requests} requests, ${counts.errors5xx} 5xx, ${violations.length} violations, RSS ${rss.at(-1)?.mib.toFixed(0)} MiB`,
      );
  }
  gate.stop();
  await Promise.all(loops);

  console.log(describeStore(dbPath));
  const growth = rssGrowthPct(rss, Date.now() - startedMs);
  const confirmed = records.reduce((a, r) => a + r.confirmedIds.length, 0);
  const withdrawals = users.reduce(
    (a, u) => a + [...u.ledger.withdrawals.values()].filter((w) => w.confirmedId).length,
    0,
  );
  console.log(
    `source orders confirmed ${confirmed}, withdrawals confirmed ${withdrawals}, events received ${received.events}`,
  );
  console.log(
    `requests ${counts.requests}, 5xx ${counts.errors5xx}, unexpected 4xx ${counts.unexpected4xx}, calls lost to a kill ${counts.dropped}`,
  );
  console.log(`RSS at ${RSS_AT_UPTIME_MS / 1000} s uptime: ${growth.detail}`);
  for (const [sample, n] of counts.samples) console.log(`  ${n}× ${sample}`);
  for (const v of violations.slice(0, 20)) console.log(`  violation: ${v}`);
  const goals = [
    counts.errors5xx === 0 ? null : `errors5xx ${counts.errors5xx} (goal 0)`,
    violations.length === 0 ? null : `invariantViolations ${violations.length} (goal 0)`,
    growth.pct === null || growth.pct < 10 ? null : `rssGrowthPct ${growth.pct} (goal < 10)`,
  ].filter(Boolean);
  console.log(goals.length === 0 ? 'goals met' : `goals NOT met: ${goals.join('; ')}`);
  if (!options.keep) rmSync(dir, { recursive: true, force: true });
  console.log(
    JSON.stringify({
      minutes: options.minutes,
      requests: counts.requests,
      errors5xx: counts.errors5xx,
      restarts,
      invariantViolations: violations.length,
      rssGrowthPct: growth.pct,
    }),
  );
  process.exitCode = goals.length === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(2);
});
