// What the venue feed's tests read back: the fills, positions and orders it stored for an account,
// venue fills written by hand, and the positions the ledger makes of a history on its own.
import { getAddress } from 'viem';
import { HYPERLIQUID_PROTOCOL, hyperliquidIndexToken } from '../../src/shared/api/feed';
import { rebuildSeries } from '../../src/service/positions/ledger';
import { fillKeyer } from '../../src/service/positions/fill-keys';
import { toUnits, unitsToText } from '../../src/service/positions/units';
import type { ServiceDb } from '../../src/service/store/database';
import type { OrderRow, PositionRow } from '../../src/service/store/positions';
import type { VenueFill } from './fake-hyperliquid';

export const DAY = 86_400_000;

/** A stored fill, as the `fills` table holds it. */
export interface StoredFillRow {
  key: string;
  account: string;
  coin: string;
  time_ms: number;
  seq: number;
  is_buy: number;
  price: number;
  size_tokens: string;
  fee: number;
  closed_pnl: number | null;
  tid: number | null;
  start_position: string | null;
}

/** The key each of `fills` (one answer of the venue for `account`) is stored under, in order. */
export function venueFillKeys(account: string, fills: readonly VenueFill[]): string[] {
  const keyOf = fillKeyer(HYPERLIQUID_PROTOCOL);
  return fills.map((f) =>
    keyOf({
      account: getAddress(account),
      coin: f.coin,
      timeMs: f.time,
      isBuy: f.side === 'B',
      price: Number(f.px),
      sizeTokens: unitsToText(toUnits(f.sz)),
      txHash: f.hash,
      tid: f.tid ?? null,
    }),
  );
}

let serial = 0;

/** A fill in today's shape (tid, feeToken); the fields given override the defaults. */
export function venueFill(
  fill: Pick<VenueFill, 'coin' | 'px' | 'sz' | 'side' | 'time' | 'startPosition' | 'dir'> &
    Partial<VenueFill>,
): VenueFill {
  serial += 1;
  return {
    closedPnl: '0.0',
    hash: `0x${serial.toString(16).padStart(64, '0')}`,
    oid: 90_000 + serial,
    crossed: true,
    fee: '0.0',
    tid: 7_000_000 + serial,
    feeToken: 'USDC',
    ...fill,
  };
}

export const fillsOf = (db: ServiceDb, account: string): StoredFillRow[] =>
  db
    .prepare('SELECT * FROM fills WHERE protocol = ? AND account = ? ORDER BY time_ms, tid, seq')
    .all(HYPERLIQUID_PROTOCOL, getAddress(account)) as StoredFillRow[];

export const positionsOf = (db: ServiceDb, account: string): PositionRow[] =>
  db
    .prepare('SELECT * FROM positions WHERE protocol = ? AND account = ? ORDER BY open_time_ms, log_id, id')
    .all(HYPERLIQUID_PROTOCOL, getAddress(account)) as PositionRow[];

export const ordersOf = (db: ServiceDb, account: string): OrderRow[] =>
  db
    .prepare(
      // A flip's two orders share a fill (its log_id): the closing one comes first.
      `SELECT * FROM orders WHERE protocol = ? AND account = ?
       ORDER BY block_time_ms, log_id, CASE type WHEN 'OPEN' THEN 1 ELSE 0 END, id`,
    )
    .all(HYPERLIQUID_PROTOCOL, getAddress(account)) as OrderRow[];

/** The venue's fills of one coin in execution order (by time; the given order inside a millisecond). */
export function byCoin(fills: readonly VenueFill[]): Map<string, VenueFill[]> {
  const coins = new Map<string, VenueFill[]>();
  const ordered = fills
    .map((fill, index) => ({ fill, index }))
    .sort((a, b) => a.fill.time - b.fill.time || a.index - b.index);
  for (const { fill } of ordered) coins.set(fill.coin, [...(coins.get(fill.coin) ?? []), fill]);
  return coins;
}

/** The positions the ledger makes of a history that starts flat (execution order as the venue lists it). */
export function expectedPositions(account: string, fills: readonly VenueFill[], leverage = 5): PositionRow[] {
  return [...byCoin(fills)].flatMap(
    ([coin, series]) =>
      rebuildSeries(
        {
          account: getAddress(account),
          protocol: HYPERLIQUID_PROTOCOL,
          symbol: coin,
          indexToken: hyperliquidIndexToken(coin),
        },
        series.map((f, i) => ({
          id: `${i}`,
          timeMs: f.time,
          isBuy: f.side === 'B',
          price: Number(f.px),
          amount: { tokens: f.sz },
          fee: Number(f.fee),
        })),
        { assumedLeverage: leverage },
      ).positions,
  );
}

/** What identifies a position and its money, to compare positions made by two paths. */
export const positionSummary = (
  rows: Pick<
    PositionRow,
    | 'index_token'
    | 'open_time_ms'
    | 'close_time_ms'
    | 'realised_pnl'
    | 'size'
    | 'is_long'
    | 'size_in_token'
    | 'fee'
  >[],
): string[] =>
  rows
    .map(
      (p) =>
        `${p.index_token}|${p.open_time_ms}|${p.close_time_ms}|${p.is_long}|${p.size.toFixed(6)}|` +
        `${p.size_in_token.toFixed(9)}|${p.realised_pnl.toFixed(6)}|${p.fee.toFixed(6)}`,
    )
    .sort();

/** Waits until `check` returns true, polling every 25 ms; fails with `what` after `timeoutMs`. */
export async function until(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
