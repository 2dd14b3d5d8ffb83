// A trader's orders read from the store once per request, as the live engine sees them
// (copy-engine/market-orders.ts sourceOrderOf), with the tokens they traded (docs/backtest.md, One set of rules).
import { sourceOrderOf } from '../copy-engine/market-orders';
import { TokenCatalogue } from '../copy-engine/token-catalogue';
import type { ServiceDb } from '../store/database';
import type { OrderRow, PositionRow } from '../store/positions';
import { storedAddress } from '../store/conditions';
import { traderOf, type TraderOrders } from './trader-orders';

/** Reads traders' orders; one per service, its statements prepared once. */
export class StoredOrders {
  private readonly orders;
  readonly tokens: TokenCatalogue;

  constructor(db: ServiceDb) {
    // Every order up to toTime: those before fromTime are volume protection's look-back history
    // and the fills path's prices at the window's start.
    this.orders = db.prepare(
      `SELECT o.*, p.is_liquidate AS position_liquidated FROM orders o JOIN positions p ON p.id = o.position_id
       WHERE o.account = ? AND o.protocol = ? AND o.block_time_ms <= ?
       ORDER BY o.block_time_ms, o.rowid`,
    );
    this.tokens = new TokenCatalogue(db);
  }

  /** `account`'s orders on `protocol` up to `toTime`, preloaded. */
  trader(account: string, protocol: string, toTime: number): TraderOrders {
    const rows = this.orders.all(storedAddress(account), protocol, toTime) as (OrderRow & {
      position_liquidated: number;
    })[];
    const orders = rows.map((row) =>
      sourceOrderOf(row, { is_liquidate: row.position_liquidated } as PositionRow),
    );
    return traderOf(account, protocol, orders, (indexToken) => this.tokens.of(protocol, indexToken));
  }
}

// traderOf lives with TraderOrders, so that the sweep's worker loads no store code (docs/backtest.md, Speed).
export { traderOf };
