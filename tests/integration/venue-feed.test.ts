import { afterEach, describe, expect, it } from 'vitest';
import { HYPERLIQUID_PROTOCOL } from '../../src/shared/api/feed';
import { rebuildSeries } from '../../src/service/positions/ledger';
import { FakeHyperliquid, type VenueFill } from '../support/fake-hyperliquid';
import { generateAccounts, generateFills } from '../support/hyperliquid-fills';
import { allBackfilled, startFeedService, waitForFeed } from '../support/feed-service';
import type { RunningService } from '../support/service';
import type { PositionRow } from '../../src/service/store/positions';
import { getAddress } from 'viem';
import { apiKeyFor } from '../support/credentials';
import { postJson } from '../support/service';

const DAY = 86_400_000;
let venue: FakeHyperliquid | null = null;
let service: RunningService | null = null;

afterEach(async () => {
  await service?.close();
  await venue?.close();
  service = null;
  venue = null;
});

/** The positions the ledger makes of `fills` directly (execution order as the venue lists it). */
function expectedPositions(account: string, fills: VenueFill[]) {
  const byCoin = new Map<string, VenueFill[]>();
  for (const f of fills) byCoin.set(f.coin, [...(byCoin.get(f.coin) ?? []), f]);
  return [...byCoin].flatMap(
    ([coin, series]) =>
      rebuildSeries(
        {
          account: getAddress(account),
          protocol: HYPERLIQUID_PROTOCOL,
          symbol: coin,
          indexToken: `HYPERLIQUID-${coin}`,
        },
        series.map((f, i) => ({
          id: `${i}`,
          timeMs: f.time,
          isBuy: f.side === 'B',
          price: Number(f.px),
          amount: { tokens: f.sz },
          fee: Number(f.fee),
        })),
        { assumedLeverage: 5 },
      ).positions,
  );
}

const summary = (
  rows: Pick<
    PositionRow,
    'index_token' | 'open_time_ms' | 'close_time_ms' | 'realised_pnl' | 'size' | 'is_long'
  >[],
) =>
  rows
    .map(
      (p) =>
        `${p.index_token}|${p.open_time_ms}|${p.close_time_ms}|${p.is_long}|${p.size.toFixed(6)}|${p.realised_pnl.toFixed(6)}`,
    )
    .sort();

describe('Hyperliquid feed: backfill', () => {
  it('backfills several accounts across page caps, with repeated fills at page edges, into exact positions', async () => {
    venue = await FakeHyperliquid.start({ pageCap: 40 });
    const now = Date.now();
    const accounts = generateAccounts(3, 7);
    const histories = accounts.map((account, i) =>
      generateFills({
        account,
        seed: 100 + i,
        count: 150 + 40 * i,
        startMs: now - 90 * DAY,
        endMs: now - 1000,
      }),
    );
    accounts.forEach((a, i) => venue?.setFills(a, histories[i] as VenueFill[]));
    service = await startFeedService(venue, { track: accounts });
    await waitForFeed(service, allBackfilled(3));
    const db = service.service.db;
    for (const [i, account] of accounts.entries()) {
      const fills = histories[i] as VenueFill[];
      const stored = db
        .prepare('SELECT COUNT(*) FROM fills WHERE protocol = ? AND account = ?')
        .pluck()
        .get(HYPERLIQUID_PROTOCOL, getAddress(account));
      expect(stored).toBe(fills.length);
      const rows = db
        .prepare('SELECT * FROM positions WHERE protocol = ? AND account = ?')
        .all(HYPERLIQUID_PROTOCOL, getAddress(account)) as PositionRow[];
      expect(rows.length).toBeGreaterThan(3);
      expect(summary(rows)).toEqual(summary(expectedPositions(account, fills)));
    }
    const status = service.service.feed?.status();
    const fillsOf = new Map(status?.accounts.map((a) => [a.account.toLowerCase(), a.fills]));
    expect(accounts.map((a) => fillsOf.get(a))).toEqual(histories.map((h) => h.length));
  });
});

describe('Hyperliquid feed: a protocol that appears while the service runs', () => {
  it('is served by the statistic filters and GraphQL as soon as the feed lists its tokens', async () => {
    venue = await FakeHyperliquid.start();
    const [account] = generateAccounts(1, 3) as [string];
    venue.setFills(
      account,
      generateFills({
        account,
        seed: 5,
        count: 60,
        startMs: Date.now() - 20 * DAY,
        endMs: Date.now() - 1000,
      }),
    );
    service = await startFeedService(venue, { track: [account] });
    await waitForFeed(service, allBackfilled(1));
    const key = { 'x-api-key': apiKeyFor(service) };
    // Within the protocol set's one-second refresh.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const rest = await postJson(
      `${service.url}/${HYPERLIQUID_PROTOCOL}/position/statistic/filter`,
      { queries: [{ fieldName: 'type', value: 'D30' }], pagination: { limit: 10, offset: 0 } },
      key,
    );
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect((rest.body.data as { account: string }[]).map((r) => r.account)).toEqual([getAddress(account)]);
    const graphql = await postJson(
      `${service.url}/graphql`,
      {
        query: `query Q($body: SearchPayload!) { searchPositionStatistic(index: "local.position_statistics", body: $body) { data { account protocol } } }`,
        variables: {
          body: { filter: { and: [{ field: 'type', match: 'D30' }] }, paging: { size: 10, from: 0 } },
        },
      },
      key,
    );
    expect(graphql.status, JSON.stringify(graphql.body)).toBe(200);
    expect(JSON.stringify(graphql.body)).toContain(getAddress(account));
  });
});
