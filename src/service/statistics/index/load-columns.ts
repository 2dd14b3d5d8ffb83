import type { ServiceDb } from '../../store/database';
import { allocateColumns, type PositionColumns } from '../compute/position-columns';

/** Index of each distinct string, assigned in first-seen order. */
class Dictionary {
  readonly values: string[] = [];
  private readonly index = new Map<string, number>();
  of(value: string): number {
    let i = this.index.get(value);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(value);
      this.index.set(value, i);
    }
    return i;
  }
}

const SELECT = `SELECT protocol, account, index_token, pair, is_long, is_liquidate, size, collateral, average_price,
  realised_pnl, fee, funding, open_time_ms, close_time_ms, order_count FROM positions
  ORDER BY protocol, account, close_time_ms, id`;

/**
 * Every position of the store as columns, sorted by (protocol, account), read as raw rows. Within
 * a trader, by close time then id (open positions first): the order streaks are counted in
 * (statistics/formulas/streaks.ts), which the columns do not carry ids to restore.
 */
export function loadPositionColumns(db: ServiceDb): PositionColumns {
  const count = db.prepare('SELECT COUNT(*) FROM positions').pluck().get() as number;
  const accounts = new Dictionary();
  const protocols = new Dictionary();
  const tokens = new Dictionary();
  const pairs: string[] = [];
  const c = allocateColumns(count, {
    accounts: accounts.values,
    protocols: protocols.values,
    tokens: tokens.values,
    pairs,
  });
  let i = 0;
  for (const row of db.prepare(SELECT).raw().iterate() as IterableIterator<unknown[]>) {
    if (i >= count) break;
    const [
      protocol,
      account,
      indexToken,
      pair,
      isLong,
      isLiquidate,
      size,
      collateral,
      averagePrice,
      realisedPnl,
      fee,
      funding,
      open,
      close,
      orders,
    ] = row as [
      string,
      string,
      string,
      string,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number | null,
      number,
    ];
    c.protocol[i] = protocols.of(protocol);
    c.account[i] = accounts.of(account);
    const token = tokens.of(indexToken);
    pairs[token] = pair;
    c.token[i] = token;
    c.isLong[i] = isLong;
    c.isLiquidate[i] = isLiquidate;
    c.size[i] = size;
    c.collateral[i] = collateral;
    c.averagePrice[i] = averagePrice;
    c.realisedPnl[i] = realisedPnl;
    c.fee[i] = fee;
    c.funding[i] = funding;
    c.openTimeMs[i] = open;
    c.closeTimeMs[i] = close ?? NaN;
    c.orderCount[i] = orders;
    i += 1;
  }
  c.count = i;
  return c;
}
