// Statistics from the Hyperliquid feed equal statistics from importing the same fills as files
// (the importers' JSON format, the venue's userFills answer, one file per account named after it).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAddress } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { HYPERLIQUID_PROTOCOL } from '../../src/shared/api/feed';
import { importFills } from '../../src/service/market/importers/import';
import { openServiceDatabase, type ServiceDb } from '../../src/service/store/database';
import { FakeHyperliquid, type VenueFill } from '../support/fake-hyperliquid';
import { generateFills } from '../support/hyperliquid-fills';
import type { FeedStatus } from '../../src/shared/api/feed';
import { allBackfilled, startFeedService, waitForFeed } from '../support/feed-service';
import { DAY, fillsOf, positionSummary, positionsOf } from '../support/feed-checks';
import type { RunningService } from '../support/service';

let venue: FakeHyperliquid | null = null;
let service: RunningService | null = null;
let importDb: ServiceDb | null = null;
let dir: string | null = null;

afterEach(async () => {
  importDb?.close();
  await service?.close();
  await venue?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  service = null;
  venue = null;
  importDb = null;
  dir = null;
});

/** Bookkeeping of a statistics row (when and by which generation it was written), not its values. */
const BOOKKEEPING = new Set(['id', 'gen_from', 'gen_to', 'created_at_ms', 'updated_at_ms']);

/** The current statistics rows of the protocol, values only, in a stable order. */
function statisticsOf(db: ServiceDb, options: { rankings: boolean }) {
  const rows = db
    .prepare(`SELECT * FROM statistics WHERE protocol = ? AND gen_to IS NULL ORDER BY account, type`)
    .all(HYPERLIQUID_PROTOCOL) as Record<string, unknown>[];
  return rows.map((row) =>
    Object.fromEntries(
      Object.entries(row).filter(([k]) => !BOOKKEEPING.has(k) && (options.rankings || !k.startsWith('rk_'))),
    ),
  );
}

/** The venue's userFills answer of these fills: newest first across milliseconds, execution order inside one. */
function newestFirst(fills: VenueFill[]): VenueFill[] {
  const groups: VenueFill[][] = [];
  for (const fill of fills) {
    const last = groups.at(-1);
    if (last && (last[0] as VenueFill).time === fill.time) last.push(fill);
    else groups.push([fill]);
  }
  return groups.reverse().flat();
}

describe('Hyperliquid feed: statistics', () => {
  it('equal those of importing the same fills as files', async () => {
    venue = await FakeHyperliquid.start({ pageCap: 50 });
    const now = Date.now();
    // Backfill up to --now, 40 days ago (its recent window is the 30 days before it, not before the
    // clock): the fills after it are not the feed's to store.
    const asOf = now - 40 * DAY;
    const accounts = ['0x' + 'a7'.repeat(20), '0x' + 'a8'.repeat(20), '0x' + 'a9'.repeat(20)];
    const histories = accounts.map((account, i) =>
      generateFills({
        account,
        seed: 1_200 + i,
        count: 400,
        startMs: now - 100 * DAY,
        endMs: now - DAY,
        flipShare: 0.15,
        withTid: i !== 2,
      }),
    );
    accounts.forEach((a, i) => venue?.setFills(a, histories[i] as VenueFill[]));
    service = await startFeedService(venue, { track: accounts }, { asOf: new Date(asOf) });
    await waitForFeed(service, allBackfilled(3));
    const db = service.service.db;
    const upToNow = histories.map((h) => h.filter((f) => f.time <= asOf));
    for (const [i, account] of accounts.entries()) {
      expect((upToNow[i] as VenueFill[]).length).toBeLessThan((histories[i] as VenueFill[]).length);
      expect(fillsOf(db, account)).toHaveLength((upToNow[i] as VenueFill[]).length);
    }
    // Several orders fill in one millisecond, and some of them flip a position: the order inside
    // the millisecond matters.
    const sameMs = (fills: VenueFill[]) =>
      fills.filter((f, i) => i > 0 && f.time === (fills[i - 1] as VenueFill).time);
    expect(upToNow.some((h) => sameMs(h).some((f) => f.dir.includes('>')))).toBe(true);

    // The same fills, imported from files as the venue answers userFills.
    dir = mkdtempSync(join(tmpdir(), 'copydesk-feed-import-'));
    const files = accounts.map((account, i) => {
      const path = join(dir as string, `${account}.json`);
      writeFileSync(path, JSON.stringify(newestFirst(upToNow[i] as VenueFill[]), null, 1));
      return { path, format: 'json' as const };
    });
    importDb = openServiceDatabase(join(dir, 'import.db'));
    const imported = importFills(importDb, {
      protocol: HYPERLIQUID_PROTOCOL,
      leverage: 5,
      files,
      nowMs: asOf,
    });
    expect(imported.rejected).toEqual([]);
    expect(imported.imported).toBe(upToNow.flat().length);

    for (const account of accounts)
      expect(positionSummary(positionsOf(importDb, account))).toEqual(
        positionSummary(positionsOf(db, account)),
      );
    const expected = statisticsOf(importDb, { rankings: false });
    expect(expected.length).toBe(3 * 5);
    expect(new Set(expected.map((r) => r.account))).toEqual(new Set(accounts.map((a) => getAddress(a))));
    // Statistics trail an account's fills by up to 10 s on purpose; what is due is computed now.
    service.service.feed?.flushStatistics(true);
    expect(statisticsOf(db, { rankings: false })).toEqual(expected);
    // Rankings follow within the feed's refresh (every 5 s).
    const ranked = statisticsOf(importDb, { rankings: true });
    await expect
      .poll(() => statisticsOf(db, { rankings: true }), { timeout: 8_000, interval: 250 })
      .toEqual(ranked);
  });

  it('says when an account’s statistics were recomputed, after its last fill, so a page knows to read them again', async () => {
    venue = await FakeHyperliquid.start({ pageCap: 40 });
    const now = Date.now();
    const account = '0x' + 'b3'.repeat(20);
    venue.setFills(
      account,
      generateFills({ account, seed: 77, count: 150, startMs: now - 50 * DAY, endMs: now - 60_000 }),
    );
    service = await startFeedService(venue, { track: [account] });
    const backfilled = await waitForFeed(service, allBackfilled(1));
    const storedAt = Date.now();
    const db = service.service.db;
    const fills = fillsOf(db, account).length;
    expect(fills).toBe(150);
    // Statistics lag fills (batched, at most every 10 s per account): the fill count moving is not
    // the signal. The status says when they were last recomputed; a recompute at or after the
    // moment the last fill was stored comes within that lag, and the statistics are there then.
    const recomputedAt = (status: FeedStatus) => {
      const time = status.accounts[0]?.statisticsTime;
      return time === undefined ? null : Date.parse(time);
    };
    const before = recomputedAt(backfilled);
    const after = await waitForFeed(
      service,
      (s) => (recomputedAt(s) ?? 0) >= storedAt - 50 && s.accounts[0]?.fills === fills,
      15_000,
    );
    const at = recomputedAt(after) as number;
    expect(at).toBeGreaterThan(before ?? 0);
    expect(statisticsOf(db, { rankings: false }).map((r) => r.account)).toContain(getAddress(account));
  });
});
