// Every list the API serves from the copy engine's tables keeps an indexed plan now that they have
// one index per user where they had several (migration 13; docs/copy-engine.md, "Schema decisions
// for the write path"): activity logs through (user, time, seq), copy positions through (user,
// status, time), a position's copy orders through (position, time, seq). No statement here may
// read a whole table: each would grow with every user's history.
import { describe, expect, it } from 'vitest';
import { activityLogsPageBodySchema } from '../../../../src/shared/api/activity-logs';
import {
  copyPositionsPageBodySchema,
  copyPositionsPageQuerySchema,
} from '../../../../src/shared/api/copy-positions';
import { pageActivityLogs } from '../../../../src/service/copy-trading/activity-logs';
import { listCopyOrders } from '../../../../src/service/copy-trading/copy-orders';
import { pageCopyPositions } from '../../../../src/service/copy-trading/copy-positions';
import {
  availableBalance,
  listCopyWallets,
  listEmbeddedWallets,
} from '../../../../src/service/copy-trading/copy-wallets';
import { copyTradePnl, walletPnl } from '../../../../src/service/copy-trading/pnl';
import { LogNumbers } from '../../../../src/service/copy-engine/log-numbers';
import { plansOfCalls, type PlannedStatement } from '../../../support/query-plan';

const PAGE = { limit: 20, offset: 0 };
const FULL_SCAN = /^SCAN (activity_logs|copy_positions|copy_orders|p)\b/m;

/** Plans that touch `table`: each must search it through `index`, and none may scan it whole. */
function expectIndexed(statements: PlannedStatement[], table: string, index: string): void {
  const touching = statements.filter((s) => new RegExp(`\\b${table}\\b`).test(s.sql));
  expect(touching.length).toBeGreaterThan(0);
  for (const { sql, plan } of touching) {
    expect(plan, sql).not.toMatch(FULL_SCAN);
    expect(plan, sql).toMatch(
      new RegExp(
        `SEARCH \\w+ USING (COVERING )?INDEX ${index} \\(user_id=\\?|SEARCH \\w+ USING (COVERING )?INDEX ${index} \\(copy_position_id=\\?`,
      ),
    );
  }
}

describe('activity logs: every page through (user, time, seq)', () => {
  const activityPage = (body: unknown) =>
    plansOfCalls((db) => pageActivityLogs(db, 'u', activityLogsPageBodySchema.parse(body), PAGE));

  it('the default page, newest first, reads the index in order (only the id tie-break is sorted)', () => {
    const plans = activityPage({});
    expectIndexed(plans, 'activity_logs', 'activity_logs_user');
    expect(plans[0]?.plan).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
  });

  it('a time range narrows the index search', () => {
    const plans = activityPage({
      ranges: [{ fieldName: 'createdAt', gte: 1_000, lt: 2_000 }],
    });
    expectIndexed(plans, 'activity_logs', 'activity_logs_user');
    expect(plans[0]?.plan).toMatch(
      /activity_logs_user \(user_id=\? AND created_at_ms>\? AND created_at_ms<\?\)/,
    );
  });

  it('filters by copy trade, wallet or trader and other sorts stay within the user', () => {
    for (const body of [
      { ranges: [{ fieldName: 'copyTradeId', in: ['t'] }] },
      { ranges: [{ fieldName: 'copyWalletId', nin: ['w'] }] },
      { ranges: [{ fieldName: 'sourceAccount', in: ['0x' + '1'.repeat(40)] }] },
      { sortBy: 'price', sortType: 'asc' },
      { sortBy: 'volume' },
      { sortBy: 'leverage' },
    ])
      expectIndexed(activityPage(body), 'activity_logs', 'activity_logs_user');
  });

  it("the engine's first number for a user reads MAX(seq) from the covering index", () => {
    const plans = plansOfCalls((db) => new LogNumbers(db).next('u'));
    expectIndexed(plans, 'activity_logs', 'activity_logs_user');
    expect(plans[0]?.plan).toMatch(/COVERING INDEX activity_logs_user/);
  });
});

describe('copy positions: every list through (user, status, time)', () => {
  const positionsPage = (query: unknown, body: unknown = {}) =>
    plansOfCalls((db) =>
      pageCopyPositions(
        db,
        'u',
        copyPositionsPageQuerySchema.parse(query),
        copyPositionsPageBodySchema.parse(body),
      ),
    );

  it('the page, whatever its filters and sort', () => {
    for (const [query, body] of [
      [{}, {}],
      [{ status: 'OPEN' }, {}],
      [{ status: 'OPEN,CLOSE', isLong: 'true' }, {}],
      [{}, { copyTradeIds: ['t1', 't2'] }],
      [{}, { copyWalletId: 'w' }],
      [{}, { copyWalletIds: ['w1'] }],
      [{}, { traders: ['0x' + '2'.repeat(40)] }],
      [{ sort_by: 'pnl', sort_type: 'asc' }, {}],
    ] as const)
      expectIndexed(positionsPage(query, body), 'copy_positions', 'copy_positions_user');
  });

  it("the copy trades' and wallets' PnL sums", () => {
    expectIndexed(
      plansOfCalls((db) => copyTradePnl(db, 'u', 0)),
      'copy_positions',
      'copy_positions_user',
    );
    expectIndexed(
      plansOfCalls((db) => walletPnl(db, 'u', 0)),
      'copy_positions',
      'copy_positions_user',
    );
  });

  it("the wallets' held margin, through the wallet's user and OPEN", () => {
    for (const run of [
      (db: Parameters<typeof availableBalance>[0]) => availableBalance(db, 'w'),
      (db: Parameters<typeof availableBalance>[0]) => listCopyWallets(db, 'u', 'HYPERLIQUID'),
      (db: Parameters<typeof availableBalance>[0]) => listEmbeddedWallets(db, 'u', 'HYPERLIQUID', 0),
    ]) {
      const plans = plansOfCalls(run);
      expectIndexed(plans, 'copy_positions', 'copy_positions_user');
      const margins = plans.filter((s) => s.sql.includes('open_margin'));
      expect(margins.length).toBeGreaterThan(0);
      for (const { plan } of margins)
        expect(plan).toMatch(/copy_positions_user \(user_id=\? AND status=\?\)/);
    }
  });

  it("a position's copy orders through (position, time, seq)", () => {
    const plans = plansOfCalls((db) => listCopyOrders(db, 'p'));
    expectIndexed(plans, 'copy_orders', 'copy_orders_position');
    // Only the id, the last tie-break, is sorted apart.
    expect(plans[0]?.plan).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
  });
});
