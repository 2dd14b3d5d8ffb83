// npm run bench:feed — the Hyperliquid feed against a fake venue in another process serving
// 1,000,000 fills of 1,000 accounts (issue #14, item 11; docs/venue-feed.md, Benchmark).
// 1. Ingest: the feed backfills every account (fills → positions → statistics), budget wide open;
//    fills/s from the feed's start until every account is backfilled.
// 2. Floor, in the same run: the rows the feed wrote (fills, positions, orders, statistics and
//    their JSON), written again into a fresh database by SQLite alone, one transaction per account.
// 3. Live: 1,000 copy trades follow 100 accounts; the venue pushes 200 WebSocket fills/s (open
//    loop) to the accounts the feed follows by WebSocket (the venue allows 10); latency from a
//    fill's arrival to its copy orders committed.
// The last line is one JSON object.
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAddress } from 'viem';
import { createLocalService, type LocalService } from '../../src/service/app';
import { defaultConfig } from '../../src/service/config';
import { createCopyTrade } from '../../src/service/copy-trading/copy-trade-commands';
import { SeededRandom } from '../../src/service/fixture/random';
import { openServiceDatabase, type ServiceDb } from '../../src/service/store/database';
import { createUser } from '../../src/service/users/users';
import { HYPERLIQUID_PROTOCOL } from '../../src/shared/api/feed';
import { exchangeOf } from '../../src/shared/profile';

const COPY_TRADES = 1_000;
const FOLLOWED = Math.min(100, Number(process.env.BENCH_ACCOUNTS ?? 1_000));
const LIVE_PER_SECOND = 200;
const LIVE_SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 20);
const round = (x: number, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

interface Venue {
  child: ChildProcess;
  baseUrl: string;
  wsUrl: string;
  leaderboardUrl: string;
  accounts: string[];
  fills: number;
}

function startVenue(): Promise<Venue> {
  const child = fork(join(import.meta.dirname, 'feed-venue-child.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the venue exited with ${code}`)));
    child.once('message', (m) => resolve({ child, ...(m as Omit<Venue, 'child'>) }));
  });
}

/** Checks `done` every 250 ms (the status costs the feed's process a little; it is what a terminal asks). */
async function until(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not done within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

async function ingest(service: LocalService, accounts: number) {
  const feed = service.feed;
  if (!feed) throw new Error('no feed');
  const cpu = process.cpuUsage();
  const started = performance.now();
  await service.listen();
  await until(() => {
    const p = feed.status().progress;
    return p?.accounts === accounts && p.backfilled === accounts;
  }, 3_600_000);
  // Statistics trail a trading account by up to 10 s on purpose; their work is part of the
  // ingest, the wait is not: what is still due is computed now, inside the measured time.
  feed.flushStatistics(true);
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { seconds, cpuSeconds: (used.user + used.system) / 1e6 };
}

/** The feed's rows of each account, then the time SQLite alone takes to write them, an account per transaction. */
function floor(source: ServiceDb, dir: string, accounts: string[]) {
  const tables = ['fills', 'positions', 'orders', 'statistics'];
  const target = openServiceDatabase(join(dir, 'floor.db'));
  const columns = (t: string) =>
    source.prepare(`SELECT name FROM pragma_table_info('${t}')`).pluck().all() as string[];
  const inserts = tables.map((t) => {
    const cols = columns(t);
    return {
      t,
      insert: target.prepare(
        `INSERT INTO ${t} (${cols.map((c) => `"${c}"`).join(',')}) VALUES (${cols.map(() => '?').join(',')})`,
      ),
    };
  });
  const json = source
    .prepare("SELECT name FROM sqlite_master WHERE name = 'statistic_json'")
    .pluck()
    .get() as string | undefined;
  const rows = accounts.map((a) => {
    const account = getAddress(a);
    const perTable = inserts.map(({ t }) =>
      source
        .prepare(`SELECT * FROM ${t} WHERE protocol = ? AND account = ?`)
        .raw()
        .all(HYPERLIQUID_PROTOCOL, account),
    );
    return perTable;
  });
  const jsonRows = json ? (source.prepare('SELECT * FROM statistic_json').raw().all() as unknown[][]) : [];
  const jsonInsert = json
    ? target.prepare(
        `INSERT OR IGNORE INTO statistic_json VALUES (${columns('statistic_json')
          .map(() => '?')
          .join(',')})`,
      )
    : null;
  let fills = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const perAccount = Math.ceil(jsonRows.length / accounts.length);
  rows.forEach((perTable, i) => {
    target.transaction(() => {
      perTable.forEach((list, k) => {
        for (const row of list as unknown[][]) inserts[k]?.insert.run(...row);
      });
      for (const row of jsonRows.slice(i * perAccount, (i + 1) * perAccount)) jsonInsert?.run(...row);
    })();
    fills += (perTable[0] as unknown[]).length;
  });
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  target.close();
  return { fills, seconds, cpuSeconds: (used.user + used.system) / 1e6 };
}

/** 200 users with 5 copy trades each, every one of the first 100 accounts followed by 10. */
function followers(service: LocalService, accounts: string[]): void {
  const random = new SeededRandom(5);
  const { db, config, ctx } = service;
  for (let u = 0; u < COPY_TRADES / 5; u += 1) {
    const user = createUser(db, config, getAddress(`0x${random.hex(20)}`), {});
    const wallet = db.prepare('SELECT id FROM copy_wallets WHERE user_id = ?').pluck().get(user.id) as string;
    for (let k = 0; k < 5; k += 1) {
      createCopyTrade(ctx, user, {
        title: `bench ${u}-${k}`,
        volume: 100,
        account: getAddress(accounts[(u * 5 + k) % FOLLOWED] as string),
        leverage: 5,
        protocol: HYPERLIQUID_PROTOCOL,
        exchange: exchangeOf(config.venue),
        copyWalletId: wallet,
        type: 'COPY_TRADER',
        excludingTokenAddresses: [],
        tokenAddresses: [],
      });
    }
  }
}

async function live(service: LocalService, venue: Venue) {
  const feed = service.feed;
  if (!feed) throw new Error('no feed');
  followers(service, venue.accounts);
  let onSocket: string[] = [];
  await until(() => {
    onSocket = feed
      .status()
      .accounts.filter((a) => a.live === 'websocket')
      .map((a) => a.account.toLowerCase());
    return onSocket.length === 10;
  }, 60_000);
  const latencies: number[] = [];
  feed.observeLive((_account, receivedAt) => latencies.push(performance.now() - receivedAt));
  const copiesBefore = service.db.prepare('SELECT COUNT(*) FROM copy_orders').pluck().get() as number;
  const cpu = process.cpuUsage();
  const done = new Promise<number>((resolve) =>
    venue.child.on(
      'message',
      (m: { liveDone?: boolean; pushed?: number }) => m.liveDone && resolve(m.pushed ?? 0),
    ),
  );
  venue.child.send({ live: { accounts: onSocket, perSecond: LIVE_PER_SECOND, seconds: LIVE_SECONDS } });
  const pushed = await done;
  await until(() => latencies.length >= pushed, 30_000).catch(() => undefined);
  const used = process.cpuUsage(cpu);
  feed.observeLive(null);
  const copies =
    (service.db.prepare('SELECT COUNT(*) FROM copy_orders').pluck().get() as number) - copiesBefore;
  latencies.sort((a, b) => a - b);
  const outcomes = service.db
    .prepare(
      'SELECT type, is_success, reason, COUNT(*) AS n FROM activity_logs WHERE protocol = ? GROUP BY 1, 2, 3',
    )
    .all(HYPERLIQUID_PROTOCOL);
  console.log(`live: the copy engine's activity logs: ${JSON.stringify(outcomes)}`);
  return {
    pushed,
    committed: latencies.length,
    copies,
    latencies,
    cpuSeconds: (used.user + used.system) / 1e6,
  };
}

function serviceOver(dbPath: string, venue: Venue, weightPerMinute: number): LocalService {
  return createLocalService(
    defaultConfig({
      port: 0,
      dbPath,
      rateLimit: { perSecond: 1e6, burst: 1e6 },
      feed: {
        infoUrl: venue.baseUrl,
        wsUrl: venue.wsUrl,
        leaderboardUrl: venue.leaderboardUrl,
        track: venue.accounts,
        trackTop: 0,
        leverage: 5,
        weightPerMinute,
      },
    }),
  );
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'copydesk-bench-feed-'));
  const dbPath = join(dir, 'service.db');
  console.log('bench:feed: generating the venue’s fills in a child process…');
  const venue = await startVenue();
  console.log(`venue ready: ${venue.accounts.length} accounts, ${venue.fills} fills`);
  // Ingest with the budget wide open: the feed, not the venue's limit, is what is measured.
  const ingesting = serviceOver(dbPath, venue, 100_000_000);
  let service: LocalService | null = ingesting;
  try {
    const run = await ingest(ingesting, venue.accounts.length);
    const fills = ingesting.db.prepare('SELECT COUNT(*) FROM fills').pluck().get() as number;
    const ingestFillsPerSecond = Math.round(fills / run.seconds);
    console.log(
      `ingest: ${fills} fills in ${round(run.seconds, 2)} s = ${ingestFillsPerSecond} fills/s; CPU ${round(run.cpuSeconds, 2)} s (${round((run.cpuSeconds * 1e6) / fills, 1)} µs per fill, feed process only)`,
    );
    const f = floor(ingesting.db, dir, venue.accounts);
    const floorFillsPerSecond = Math.round(f.fills / f.seconds);
    console.log(
      `floor: the same rows by SQLite alone: ${f.fills} fills in ${round(f.seconds, 2)} s = ${floorFillsPerSecond} fills/s; CPU ${round(f.cpuSeconds, 2)} s (${round((f.cpuSeconds * 1e6) / f.fills, 1)} µs per fill)`,
    );
    await ingesting.close();
    service = null;
    // Live as a user runs it: the same database, the venue's own budget (1,200 a minute), so the
    // other accounts are polled at the pace the real venue allows.
    service = serviceOver(dbPath, venue, 1_200);
    await service.listen();
    const l = await live(service, venue);
    const liveP50Ms = round(percentile(l.latencies, 50));
    const liveP99Ms = round(percentile(l.latencies, 99));
    console.log(
      `live: ${l.pushed} WebSocket fills offered at ${LIVE_PER_SECOND}/s, ${l.committed} committed, ${l.copies} copy orders; p50 ${liveP50Ms} ms, p99 ${liveP99Ms} ms, max ${round(l.latencies.at(-1) ?? Number.NaN)} ms; CPU ${round((l.cpuSeconds * 1000) / Math.max(1, l.committed), 3)} ms per fill`,
    );
    const ratio = ingestFillsPerSecond / floorFillsPerSecond;
    console.log(
      `goal ingest ≥ 0.5 × floor: ${round(ratio, 2)} × floor — ${ratio >= 0.5 ? 'met' : 'NOT met'}`,
    );
    console.log(`goal live p99 < 5 ms: ${liveP99Ms} ms — ${liveP99Ms < 5 ? 'met' : 'NOT met'}`);
    // The issue's five fields first; then CPU per unit of work, which a loaded machine distorts far
    // less than the wall-time figures (docs/venue-feed.md, Benchmark).
    console.log(
      JSON.stringify({
        fills,
        ingestFillsPerSecond,
        floorFillsPerSecond,
        liveP50Ms,
        liveP99Ms,
        ingestCpuUsPerFill: round((run.cpuSeconds * 1e6) / fills, 1),
        floorCpuUsPerFill: round((f.cpuSeconds * 1e6) / f.fills, 1),
        liveCpuMsPerFill: round((l.cpuSeconds * 1000) / Math.max(1, l.committed), 3),
      }),
    );
  } finally {
    await service?.close();
    venue.child.disconnect();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
