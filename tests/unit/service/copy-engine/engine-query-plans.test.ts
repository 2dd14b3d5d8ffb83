// The copy engine's one read of the market's tables, volume protection's look-back, must find the
// account's orders through the (account, time) index. Without table statistics SQLite may pick a
// protocol-wide index instead, which would read every trader's orders for each copied OPEN: the
// cost would grow with the venue's history (docs/copy-engine.md, OPEN: sizing).
import { describe, expect, it } from 'vitest';
import { LOOK_BACK_SQL } from '../../../../src/service/copy-engine/store';
import { planOf } from '../../../support/query-plan';

describe("volume protection's look-back", () => {
  it("reads one account's orders through the (account, time) index, newest first without a sort", () => {
    const plan = planOf(LOOK_BACK_SQL);
    expect(plan).toMatch(/SEARCH orders USING INDEX orders_account \(account=\? AND block_time_ms<\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });
});
