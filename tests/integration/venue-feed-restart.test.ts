// kill -9 in the middle of the Hyperliquid feed's backfill: the service CLI, restarted on the same
// database, ends with the same fills, positions and orders (ids and values) as a run that was never
// interrupted.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/service/auth/api-keys';
import { openServiceDatabase } from '../../src/service/store/database';
import type { FeedStatus } from '../../src/shared/api/feed';
import { FakeHyperliquid, type VenueFill } from '../support/fake-hyperliquid';
import { generateAccounts, generateFills } from '../support/hyperliquid-fills';
import { spawnServiceProcess } from '../support/service-process';
import { DAY } from '../support/feed-checks';

const children: ChildProcess[] = [];
let venue: FakeHyperliquid | null = null;
let dir: string | null = null;
afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await venue?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A database file with its schema and an API key, for a service process to open. */
function prepareDb(path: string): string {
  const db = openServiceDatabase(path);
  const key = createApiKey(db, new Date());
  db.close();
  return key;
}

/** The service CLI on `db` with the feed pointed at the fake venue, tracking `accounts`. */
function serve(db: string, accounts: string[]) {
  const fake = venue as FakeHyperliquid;
  const process = spawnServiceProcess(db, [
    '--feed',
    'hyperliquid',
    '--feed-url',
    fake.baseUrl,
    '--feed-ws-url',
    fake.wsUrl,
    '--feed-leaderboard-url',
    fake.leaderboardUrl,
    '--track',
    accounts.join(','),
    '--track-top',
    '0',
    '--feed-weight-per-minute',
    '100000000',
  ]);
  children.push(process.child);
  return process;
}

async function status(url: string, key: string): Promise<FeedStatus> {
  const response = await fetch(`${url}/feed/status`, { headers: { 'x-api-key': key } });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: FeedStatus }).data;
}

/** Polls GET /feed/status until every one of `count` accounts is backfilled. */
async function untilBackfilled(url: string, key: string, count: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const s = await status(url, key);
    if (s.accounts.length === count && s.accounts.every((a) => a.backfilled)) return;
    if (Date.now() > deadline) throw new Error(`not backfilled: ${JSON.stringify(s).slice(0, 1_000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

/** What the feed wrote, every column, in a stable order. */
function snapshot(file: string) {
  const db = new Database(file, { readonly: true });
  const rows = (sql: string) => db.prepare(sql).all();
  const out = {
    fills: rows('SELECT * FROM fills ORDER BY key'),
    positions: rows('SELECT * FROM positions ORDER BY id'),
    orders: rows('SELECT * FROM orders ORDER BY id'),
    accounts: rows(
      'SELECT venue, account, by_user, phase, fills, first_fill_ms, last_fill_ms, error FROM feed_accounts ORDER BY account',
    ),
  };
  db.close();
  return out;
}

describe('Hyperliquid feed: kill -9 mid-backfill', () => {
  it('resumes where it stopped: the same final state as a run without the kill', async () => {
    venue = await FakeHyperliquid.start({ pageCap: 20, weightPerMinute: 1_000_000_000 });
    const now = Date.now();
    const accounts = generateAccounts(3, 404);
    // No fill within ten minutes after now − 30 days: where each run's recent window begins (it
    // starts when the run first tracks the account) the runs split the same fills the same way.
    const edge = now - 30 * DAY + 10 * 60_000;
    const histories = accounts.map((account, i) =>
      generateFills({
        account,
        seed: 4_040 + i,
        count: 600,
        startMs: now - 90 * DAY,
        endMs: now - 60_000,
      }).map((f): VenueFill => (f.time < edge ? { ...f, time: f.time - 10 * 60_000 } : f)),
    );
    accounts.forEach((a, i) => venue?.setFills(a, histories[i] as VenueFill[]));
    const total = histories.flat().length;
    dir = mkdtempSync(join(tmpdir(), 'copydesk-feed-restart-'));
    const calm = join(dir, 'calm.db');
    const crashed = join(dir, 'crashed.db');
    const calmKey = prepareDb(calm);
    const crashedKey = prepareDb(crashed);

    // Uninterrupted.
    const a = serve(calm, accounts);
    await untilBackfilled(await a.url, calmKey, 3);
    await stop(a.child, 'SIGTERM');

    // Killed after some pages, without warning.
    const served = venue.requests.length;
    const pages = () => venue?.requests.slice(served).filter((r) => r.type === 'userFillsByTime').length ?? 0;
    const b = serve(crashed, accounts);
    await b.url;
    while (pages() < 25) await new Promise((resolve) => setTimeout(resolve, 2));
    await stop(b.child, 'SIGKILL');
    const mid = new Database(crashed, { readonly: true });
    const stored = mid.prepare('SELECT COUNT(*) FROM fills').pluck().get() as number;
    const phases = mid.prepare('SELECT phase FROM feed_accounts').pluck().all() as string[];
    mid.close();
    expect(stored).toBeGreaterThan(0);
    expect(stored).toBeLessThan(total);
    expect(phases.filter((p) => p !== 'done').length).toBeGreaterThan(0);

    // Restarted on the same database.
    const c = serve(crashed, accounts);
    const url = await c.url;
    await untilBackfilled(url, crashedKey, 3);
    expect((await status(url, crashedKey)).accounts.map((s) => s.fills).sort()).toEqual(
      histories.map((h) => h.length).sort(),
    );
    await stop(c.child, 'SIGTERM');

    const expected = snapshot(calm);
    expect(expected.fills).toHaveLength(total);
    expect(expected.positions.length).toBeGreaterThan(30);
    expect(snapshot(crashed)).toEqual(expected);
  }, 120_000);
});
