// A trader's orders read from the store once per request, as the live engine sees them
// (copy-feed.ts sourceOrderOf), with the tokens they traded (docs/backtest.md, Data).
import { sourceOrderOf } from '../copy-feed';
import { addressKey } from '../copy/ids';
import { TokenCatalogue } from '../copy/tokens';
import type { SourceOrder } from '../copy/types';
import type { ServiceDb } from '../store/database';
import type { OrderRow, PositionRow } from '../store/positions';
import { storedAddress } from '../store/conditions';
import { TraderOrders, type TokenMeta } from './trader-orders';

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

/** Preloads `orders` (in time order) with the tokens `tokenOf` describes. */
export function traderOf(
  account: string,
  protocol: string,
  orders: readonly SourceOrder[],
  tokenOf: (indexToken: string) => TokenMeta,
): TraderOrders {
  const tokens: TokenMeta[] = [];
  const index = new Map<string, number>();
  const tokenIndex = (indexToken: string): number => {
    const key = addressKey(indexToken);
    let k = index.get(key);
    if (k === undefined) {
      k = tokens.length;
      tokens.push(tokenOf(indexToken));
      index.set(key, k);
    }
    return k;
  };
  return new TraderOrders(account, protocol, orders, tokens, tokenIndex);
}
