// The demo world's trades written as venue fills (the importer's CSV), for the real web client's
// run (docs/real-clients.md, `npm run e2e:real-client`): the client lists only protocols it knows
// and the demo's have names of our own, so the same trades are imported again under one it knows.
import { numberToUnits, unitsToText } from '../positions/units';
import type { ServiceDb } from '../store/database';

/** The demo's fills of its busiest protocol's busiest traders, as CSV text. */
export interface DemoFills {
  /** The demo protocol the trades come from. */
  protocol: string;
  /** Orders written, one fill each. */
  orders: number;
  csv: string;
}

interface DemoOrder {
  position: string;
  time: number;
  account: string;
  pair: string;
  type: string;
  is_long: number;
  price: number;
  sz: number;
  fee: number;
  is_liquidate: number;
}

/**
 * The size each order trades, exactly. The demo stores sizes as floating point, and its closing
 * order takes the float sum of the opening ones; rounded one by one to 18 decimals they no longer
 * add up, and the importer, exact to 10^-18, would keep the difference as a position of dust
 * (worth $0.00 on the client's trader page) or open one on the other side. So each demo position's
 * sizes are counted in exact units: a decrease takes at most what is open and a close takes all
 * of it. An order left with nothing to trade is not written.
 */
function exactFills(orders: DemoOrder[]): { order: DemoOrder; units: bigint }[] {
  const open = new Map<string, bigint>();
  return orders.flatMap((order) => {
    const held = open.get(order.position) ?? 0n;
    const wanted = numberToUnits(Math.abs(order.sz));
    const closes = order.type === 'CLOSE';
    const units = grows(order.type) ? wanted : closes ? held : wanted < held ? wanted : held;
    open.set(order.position, grows(order.type) ? held + units : held - units);
    return units > 0n ? [{ order, units }] : [];
  });
}

const grows = (type: string) => type === 'OPEN' || type === 'INCREASE';

/** The busiest protocol's `traders` busiest traders' orders, oldest first, as venue fills. */
export function demoTradesAsFills(db: ServiceDb, traders: number): DemoFills {
  const protocol = db
    .prepare('SELECT protocol FROM positions GROUP BY protocol ORDER BY COUNT(*) DESC LIMIT 1')
    .pluck()
    .get() as string;
  const orders = db
    .prepare(
      `SELECT o.position_id AS position, o.block_time_ms AS time, o.account, o.pair, o.type, o.is_long,
              o.price, o.size_delta_in_token AS sz, o.fee, p.is_liquidate
       FROM orders o JOIN positions p ON p.id = o.position_id
       WHERE o.protocol = ? AND o.type != 'MARGIN_TRANSFERRED' AND o.account IN (
         SELECT account FROM positions WHERE protocol = ? GROUP BY account ORDER BY COUNT(*) DESC, account LIMIT ?)
       ORDER BY o.block_time_ms, o.log_id`,
    )
    .all(protocol, protocol, traders) as DemoOrder[];
  const lines = exactFills(orders).map(({ order: o, units }) => {
    const buys = grows(o.type) === (o.is_long === 1);
    const liquidation = o.type === 'CLOSE' && o.is_liquidate === 1;
    const coin = o.pair.split('/')[0];
    return [o.time, o.account, coin, buys ? 'B' : 'A', o.price, unitsToText(units), o.fee, liquidation].join(
      ',',
    );
  });
  const csv = ['time,user,coin,side,px,sz,fee,liquidation', ...lines].join('\n') + '\n';
  return { protocol, orders: lines.length, csv };
}
