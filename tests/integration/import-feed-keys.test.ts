// One dedupe key for a fill, wherever it comes from (src/service/positions/fill-keys.ts): fills the
// venue feed stored are duplicates when `import` brings the same fills as a file, and the other
// way round; both sides of a self-trade (one tid, one account) are two fills.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getAddress } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HYPERLIQUID_PROTOCOL } from '../../src/shared/api/feed';
import { migrate, openDatabase } from '../../src/node/sqlite';
import { importFills, type ImportFile } from '../../src/service/market/importers/import';
import { openServiceDatabase } from '../../src/service/store/database';
import { serviceMigrations } from '../../src/service/store/migrations';
import { FakeHyperliquid, recordedFills, type VenueFill } from '../support/fake-hyperliquid';
import { allBackfilled, startFeedService, waitForFeed } from '../support/feed-service';
import { DAY, fillsOf, positionsOf, venueFill } from '../support/feed-checks';
import type { RunningService } from '../support/service';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let dir: string;
let venue: FakeHyperliquid | null = null;
let service: RunningService | null = null;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'copydesk-fill-keys-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(async () => {
  await service?.close();
  await venue?.close();
  service = null;
  venue = null;
});

/** Runs `npm run service -- import …args` as a process; resolves with its exit code and output. */
function runImport(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/service/cli.ts', 'import', ...args],
      { cwd: ROOT },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

/** Every fill, position and order of the database, in a fixed order. */
function snapshot(path: string) {
  const db = openServiceDatabase(path);
  try {
    const all = (sql: string) => db.prepare(sql).all();
    return {
      fills: all('SELECT * FROM fills ORDER BY key'),
      positions: all('SELECT * FROM positions ORDER BY id'),
      orders: all('SELECT * FROM orders ORDER BY id'),
    };
  } finally {
    db.close();
  }
}

/** The feed backfills `fills` of `account` into the database at `path`, then stops. */
async function feedInto(path: string, account: string, fills: VenueFill[], pageCap = 40): Promise<void> {
  venue = await FakeHyperliquid.start({ pageCap, pageOrder: 'newest-first' });
  venue.setFills(account, fills);
  service = await startFeedService(venue, { track: [account] }, { dbPath: path });
  await waitForFeed(service, allBackfilled(1));
  await service.close();
  await venue.close();
  service = null;
  venue = null;
}

/** The venue's answer saved as a file named after the account, as `import` reads it. */
function answerFile(account: string, fills: VenueFill[]): string {
  const file = join(dir, `${account}.json`);
  writeFileSync(file, JSON.stringify(fills, null, 1));
  return file;
}

describe('one key for a fill from the feed or from a file', () => {
  it('the recorded 2023 account (no tid): fed, then imported as a file → nothing changes', async () => {
    const { account, fills } = recordedFills();
    const path = join(dir, 'fed-then-imported.db');
    await feedInto(path, account, fills);
    const fed = snapshot(path);
    expect(fed.fills).toHaveLength(fills.length);
    expect(fed.positions.length).toBeGreaterThan(10);

    const run = await runImport('--db', path, '--protocol', HYPERLIQUID_PROTOCOL, answerFile(account, fills));
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe(
      `Imported 0 fills into HYPERLIQUID (${fills.length} already there, 0 rejected) for 1 account; rebuilt 0 positions.`,
    );
    expect(snapshot(path)).toEqual(fed);
  });

  it('the recorded 2023 account (no tid): imported as a file, then fed → no fill stored twice', async () => {
    const { account, fills } = recordedFills();
    const path = join(dir, 'imported-then-fed.db');
    const run = await runImport('--db', path, '--protocol', HYPERLIQUID_PROTOCOL, answerFile(account, fills));
    expect(run.code).toBe(0);
    const imported = snapshot(path);
    expect(imported.fills).toHaveLength(fills.length);
    await feedInto(path, account, fills);
    expect(snapshot(path).fills).toEqual(imported.fills);
  });

  it("today's shape (tid): a self-trade's two sides share a tid and are both kept, by the feed and by import", async () => {
    const account = getAddress('0x' + 'c4'.repeat(20));
    const t0 = Date.now() - 2 * DAY;
    const hash = '0x' + 'ab'.repeat(32);
    // Long 1 BTC; the account's own sell order then fills its own buy order (one trade, tid 42):
    // both fills report the position before the trade; then it closes the long.
    const btc = { coin: 'BTC', time: t0 };
    const long = { ...btc, side: 'B' as const, dir: 'Open Long' };
    const close = { ...btc, side: 'A' as const, dir: 'Close Long' };
    const history = [
      venueFill({ ...long, px: '100', sz: '1', startPosition: '0' }),
      venueFill({
        ...long,
        px: '101',
        sz: '0.5',
        time: t0 + 1000,
        startPosition: '1',
        tid: 42,
        hash,
        oid: 1,
      }),
      venueFill({
        ...close,
        px: '101',
        sz: '0.5',
        time: t0 + 1000,
        startPosition: '1',
        tid: 42,
        hash,
        oid: 2,
      }),
      venueFill({ ...close, px: '102', sz: '1', time: t0 + 2000, startPosition: '1', closedPnl: '2.0' }),
    ];
    Object.assign(history[2] as VenueFill, { closedPnl: '0.5' });

    const fedPath = join(dir, 'self-trade-fed.db');
    await feedInto(fedPath, account, history, 2000);
    const fed = snapshot(fedPath);
    expect(fed.fills).toHaveLength(4);
    const db = openServiceDatabase(fedPath);
    try {
      // Both sides booked: the position is flat at the end, and one position was traded.
      expect(
        fillsOf(db, account)
          .filter((f) => f.tid === 42)
          .map((f) => f.is_buy),
      ).toEqual([1, 0]);
      expect(positionsOf(db, account).map((p) => p.status)).toEqual(['CLOSE']);
    } finally {
      db.close();
    }
    const file = answerFile(account, [...history].reverse());
    const again = await runImport('--db', fedPath, '--protocol', HYPERLIQUID_PROTOCOL, file);
    expect(again.stdout.split('\n')[0]).toBe(
      'Imported 0 fills into HYPERLIQUID (4 already there, 0 rejected) for 1 account; rebuilt 0 positions.',
    );
    expect(snapshot(fedPath)).toEqual(fed);

    const importedPath = join(dir, 'self-trade-imported.db');
    const first = await runImport('--db', importedPath, '--protocol', HYPERLIQUID_PROTOCOL, file);
    expect(first.stdout.split('\n')[0]).toBe(
      'Imported 4 fills into HYPERLIQUID (0 already there, 0 rejected) for 1 account; rebuilt 1 position.',
    );
    expect(snapshot(importedPath).fills.map((f) => (f as { key: string }).key)).toEqual(
      fed.fills.map((f) => (f as { key: string }).key),
    );
  });
});

/** A stored fill, the columns its old key was made of. */
interface OldKeyRow {
  key: string;
  protocol: string;
  account: string;
  coin: string;
  time_ms: number;
  is_buy: number;
  price: number;
  size_tokens: string;
  fee: number;
  closed_pnl: number | null;
  is_liquidation: number;
  tid: number | null;
  source: string;
}

/**
 * The key version 13 gave a stored fill: the feed's `fill:` key of the venue's raw hash, oid, time,
 * px and sz for `raw` (a fill the feed stored), else the importer's: `tid:P:account:tid`, or a hash of
 * the normalized row and its occurrence in its file.
 */
function version13Key(row: OldKeyRow, raw: VenueFill | undefined, occurrence: number): string {
  if (raw)
    return `fill:${row.protocol}:${row.account}:${raw.hash}:${raw.oid}:${raw.time}:${raw.px}:${raw.sz}`;
  if (row.tid !== null) return `tid:${row.protocol}:${row.account}:${row.tid}`;
  const side = row.is_buy === 1 ? 'B' : 'A';
  const text = [row.protocol, row.account, row.coin, row.time_ms, side, row.price, row.size_tokens]
    .concat([row.fee, row.closed_pnl ?? '', row.is_liquidation])
    .join('|');
  return `row:${createHash('sha256').update(`${text}|${occurrence}`).digest('hex').slice(0, 40)}`;
}

describe('migration 14', () => {
  it('re-keys the fills a version-13 store holds, so importing them again adds nothing', () => {
    const { account, fills } = recordedFills();
    // One fill per line: fill i starts on line i + 2, so each stored row finds its venue fill.
    const recorded = join(dir, `${account}.json`);
    writeFileSync(recorded, `[\n${fills.map((f) => JSON.stringify(f)).join(',\n')}\n]\n`);
    const files: ImportFile[] = [
      { path: recorded, format: 'json' },
      { path: 'tests/fixtures/fills/0x7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b.json', format: 'json' },
      { path: 'tests/fixtures/fills/trades.csv', format: 'csv' },
    ];
    const path = join(dir, 'version-13.db');
    const old = openDatabase(path, serviceMigrations.slice(0, 13));
    try {
      // Version 13's rows: the recorded account as its feed stored it, the fixtures as its import did.
      const first = importFills(old, { protocol: HYPERLIQUID_PROTOCOL, files, nowMs: Date.now() });
      expect(first.imported).toBe(fills.length + 17);
      const rows = old.prepare('SELECT * FROM fills ORDER BY seq').all() as OldKeyRow[];
      const seen = new Map<string, number>();
      const rename = old.prepare('UPDATE fills SET key = ?, source = ? WHERE key = ?');
      for (const row of rows) {
        const line = row.source.startsWith(`${account}.json:`) ? Number(row.source.split(':')[1]) : 0;
        const raw = line > 0 ? fills[line - 2] : undefined;
        const twin = JSON.stringify([
          row.source.split(':')[0],
          row.coin,
          row.time_ms,
          row.price,
          row.size_tokens,
        ]);
        seen.set(twin, (seen.get(twin) ?? 0) + 1);
        const key = version13Key(row, raw, seen.get(twin) as number);
        rename.run(key, raw ? 'feed' : row.source, row.key);
      }
      expect(old.prepare("SELECT COUNT(*) FROM fills WHERE key LIKE 'fill:%'").pluck().get()).toBe(
        fills.length,
      );
      expect(old.prepare("SELECT COUNT(*) FROM fills WHERE key LIKE 'row:%'").pluck().get()).toBe(8);
      expect(old.prepare("SELECT COUNT(*) FROM fills WHERE key LIKE 'tid:%'").pluck().get()).toBe(9);

      migrate(old, path, serviceMigrations);
      const keys = old.prepare('SELECT key FROM fills ORDER BY key').pluck().all();
      expect(keys.some((k) => /^(row:|fill:.*[^0-9]$)/.test(String(k)))).toBe(false);
      expect(keys.filter((k) => /^tid:.*:[BA]$/.test(String(k)))).toHaveLength(9);
      const before = old.prepare('SELECT COUNT(*) FROM positions').pluck().get();
      const again = importFills(old, { protocol: HYPERLIQUID_PROTOCOL, files, nowMs: Date.now() });
      expect(again).toMatchObject({ imported: 0, duplicates: fills.length + 17, positions: 0 });
      expect(old.prepare('SELECT COUNT(*) FROM positions').pluck().get()).toBe(before);

      // The keys are those a fresh store gives the same fills.
      const fresh = openServiceDatabase(join(dir, 'fresh.db'));
      try {
        importFills(fresh, { protocol: HYPERLIQUID_PROTOCOL, files, nowMs: Date.now() });
        expect(fresh.prepare('SELECT key FROM fills ORDER BY key').pluck().all()).toEqual(keys);
      } finally {
        fresh.close();
      }
    } finally {
      old.close();
    }
  });
});
