// The queries that read one trader's positions must find them through the (protocol, account)
// index. Without table statistics SQLite may pick a protocol-wide index instead (the one that also
// serves the ORDER BY, or one with as many equality terms), which scans every position of every
// trader on the protocol: a feed following 1,000 accounts then paid for all of them on each
// account's recompute.
import { describe, expect, it } from 'vitest';
import { TRADER_FACTS_SQL } from '../../../../src/service/statistics/compute/facts';
import { RETIRE_TRADER_SQL } from '../../../../src/service/statistics/store/writer';
import { OPEN_SOURCE_POSITION_SQL } from '../../../../src/service/sandbox/source-positions';
import { planOf } from '../../../support/query-plan';

describe("one trader's positions", () => {
  it.each([
    ['the statistics engine', TRADER_FACTS_SQL],
    ["the sandbox's open position", OPEN_SOURCE_POSITION_SQL],
  ])('are read by %s through the (protocol, account) index', (_who, sql) => {
    expect(planOf(sql)).toMatch(
      /SEARCH positions USING INDEX positions_account \(protocol=\? AND account=\?\)/,
    );
  });
});

describe("one trader's statistics", () => {
  it('are retired by a recompute through the (account, protocol) index', () => {
    expect(planOf(RETIRE_TRADER_SQL)).toMatch(
      /SEARCH statistics USING INDEX statistics_account \(account=\? AND protocol=\?\)/,
    );
  });
});
