// Fills in, positions and orders out, for a source that keeps receiving fills (a venue feed): the
// importers' ledger (positions/ledger.ts), kept in memory per series so that a new fill costs its own rows,
// not a rebuild of the series. A fill that arrives out of order rebuilds its series from every
// stored fill, as an import does.
//
// A history that starts inside a position (the venue's reach ends, or the feed's recent window
// starts, while the account holds one: its first fill's startPosition is not 0) is followed from
// the moment the venue's position first returns to or crosses zero: the fills before only trade a
// position whose opening is not in the history, so they make no position (their closedPnl stays
// stored), and the opening part of the fill that crosses zero opens the first position. Booking
// them from zero instead would offset the series' size by the missing start for good.
import { prepareCached } from '../../node/sqlite';
import type { ServiceDb } from '../store/database';
import { positionWriters, type OrderRow, type PositionRow } from '../store/positions';
import type { SeriesKey } from '../positions/keys';
import { PositionLedger, type LedgerFill } from '../positions/ledger';
import { toUnits, unitsToNumber } from '../positions/units';

/** A fill to store: what the `fills` table holds, with its dedupe key. */
export interface BookFill {
  key: string;
  account: string;
  coin: string;
  timeMs: number;
  isBuy: boolean;
  price: number;
  sizeTokens: string;
  fee: number;
  closedPnl: number | null;
  isLiquidation: boolean;
  txHash: string | null;
  tid: number | null;
  startPosition: string | null;
}

/** An order a new fill booked, with its position as it stood after the order. */
export interface BookedOrder {
  order: OrderRow;
  position: PositionRow;
}

/** What storing a batch of fills did. */
export interface BookResult {
  /** Fills stored (the others were already there). */
  added: number;
  /** Orders booked by the new fills, in execution order (empty for deferred series). */
  orders: BookedOrder[];
}

interface Series {
  account: string;
  coin: string;
}

interface LiveSeries {
  ledger: PositionLedger;
  lastTimeMs: number;
  lastTid: number | null;
  /** The ledger follows the venue's position (false until a history begun inside a position reaches zero). */
  synced: boolean;
  /** While not synced: the venue's position after the last fill, as its startPositions tell. */
  venueUnits: bigint | null;
}

const seriesName = (account: string, coin: string) => `${account}|${coin}`;

/**
 * A series' stored fills in execution order: by time, then by the venue's trade id where there is
 * one, then as stored (a file's or a page's own order inside a millisecond). The importer reads
 * series the same way.
 */
export const SERIES_FILLS = `SELECT key, time_ms, seq, is_buy, price, size_tokens, fee, is_liquidation, tx_hash, tid,
  start_position FROM fills WHERE protocol = ? AND account = ? AND coin = ? ORDER BY time_ms, tid, seq`;

/** A row of SERIES_FILLS. */
export interface StoredFill {
  key: string;
  time_ms: number;
  seq: number;
  is_buy: number;
  price: number;
  size_tokens: string;
  fee: number;
  is_liquidation: number;
  tx_hash: string | null;
  tid: number | null;
  start_position: string | null;
}

/** A stored fill as the ledger takes it; its key is its id, its sequence its log id. */
export const ledgerFill = (f: StoredFill): LedgerFill => ({
  id: f.key,
  timeMs: f.time_ms,
  isBuy: f.is_buy === 1,
  price: f.price,
  amount: { tokens: f.size_tokens },
  fee: f.fee,
  isLiquidation: f.is_liquidation === 1,
  ...(f.tx_hash !== null && { txHash: f.tx_hash }),
  logId: f.seq,
});

/**
 * The positions of one protocol's series, fed fill by fill. Call every method inside the
 * caller's transaction: a failure rolls back the rows, and `forget()` then drops what memory holds.
 */
export class SeriesBook {
  private readonly live = new Map<string, LiveSeries>();
  private seq: number | null = null;
  private readonly writers: ReturnType<typeof positionWriters>;

  constructor(
    private readonly db: ServiceDb,
    private readonly protocol: string,
    /** Leverage assumed where the source reports none (collateral = size / leverage). */
    private readonly assumedLeverage: number,
    private readonly indexTokenOf: (coin: string) => string,
  ) {
    this.writers = positionWriters(db);
  }

  /** Drops the ledgers held in memory (after a rollback): they are reloaded from the store. */
  forget(): void {
    this.live.clear();
    this.seq = null;
  }

  /**
   * Stores `fills` (in execution order; already stored keys are skipped) and books the new ones.
   * `defer`: store only, and leave the positions until `rebuild` (a backfill paging back in time,
   * whose fills are older than what is booked).
   */
  store(fills: readonly BookFill[], options: { defer?: boolean } = {}): BookResult {
    const result: BookResult = { added: 0, orders: [] };
    const insert = prepareCached(
      this.db,
      `INSERT OR IGNORE INTO fills (key, protocol, account, coin, time_ms, seq, is_buy, price, size_tokens, fee,
         closed_pnl, is_liquidation, tx_hash, source, tid, start_position)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'feed', ?, ?)`,
    );
    const bySeries = new Map<string, { series: Series; fills: BookFill[]; seqs: number[] }>();
    for (const f of fills) {
      const seq = this.nextSeq();
      const row = [f.key, this.protocol, f.account, f.coin, f.timeMs, seq, f.isBuy ? 1 : 0, f.price];
      const more = [
        f.sizeTokens,
        f.fee,
        f.closedPnl,
        f.isLiquidation ? 1 : 0,
        f.txHash,
        f.tid,
        f.startPosition,
      ];
      if (insert.run(...row, ...more).changes === 0) {
        this.seq = seq - 1;
        continue;
      }
      result.added += 1;
      const name = seriesName(f.account, f.coin);
      let entry = bySeries.get(name);
      if (!entry)
        bySeries.set(name, (entry = { series: { account: f.account, coin: f.coin }, fills: [], seqs: [] }));
      entry.fills.push(f);
      entry.seqs.push(seq);
    }
    if (options.defer) return result;
    for (const { series, fills: added, seqs } of bySeries.values()) {
      result.orders.push(...this.book(series, added, seqs));
    }
    result.orders.sort((a, b) => a.order.block_time_ms - b.order.block_time_ms);
    return result;
  }

  /**
   * Books the deferred fills of `account`, all older than `boundaryMs`, under what is booked from
   * `boundaryMs` on (a backfill's recent window, booked first from a flat start). Each series is
   * replayed from its first fill; where it was flat at the boundary, the rows booked from there on
   * are already right and only the older ones are written; where a position spans the boundary,
   * the series is rebuilt whole.
   */
  bookHistory(account: string, boundaryMs: number): void {
    const coins = prepareCached(
      this.db,
      'SELECT DISTINCT coin FROM fills WHERE protocol = ? AND account = ?',
      'pluck',
    ).all(this.protocol, account) as string[];
    for (const coin of coins) this.bookSeriesHistory({ account, coin }, boundaryMs);
  }

  private bookSeriesHistory(series: Series, boundaryMs: number): void {
    const live = this.fresh(series);
    let sameFromBoundary = true;
    let older: { positions: PositionRow[]; orders: OrderRow[] } | null = null;
    for (const f of this.storedFills(series)) {
      if (older === null && f.time_ms >= boundaryMs) {
        // The recent window was booked from a flat start where the venue said the account was flat.
        const venueFlat = f.start_position === null || Number(f.start_position) === 0;
        sameFromBoundary = live.ledger.netUnits === 0n && venueFlat;
        older = live.ledger.drain();
      }
      applyFill(live, f);
    }
    const newer = live.ledger.drain();
    this.live.set(seriesName(series.account, series.coin), live);
    if (older !== null && sameFromBoundary) {
      this.writeRows(older);
      return;
    }
    // Nothing was booked from the boundary on, or a position spans it: the series is replaced
    // by this replay's rows, older and newer.
    this.deleteRows(series);
    this.writeRows(older ?? { positions: [], orders: [] });
    this.writeRows(newer);
  }

  private writeRows(rows: { positions: PositionRow[]; orders: OrderRow[] }): void {
    for (const p of rows.positions) this.writers.position(p);
    for (const o of rows.orders) this.writers.order(o);
  }

  /** Deletes every position and order of the series (it owns all of (account, protocol, index token)). */
  private deleteRows(series: Series): void {
    const where = 'protocol = ? AND account = ? AND index_token = ?';
    const args = [this.protocol, series.account, this.indexTokenOf(series.coin)];
    prepareCached(
      this.db,
      `DELETE FROM orders WHERE position_id IN (SELECT id FROM positions WHERE ${where})`,
    ).run(...args);
    prepareCached(this.db, `DELETE FROM positions WHERE ${where}`).run(...args);
  }

  /**
   * The venue reports the open position's leverage: its collateral becomes size / leverage.
   * Returns the position's new row (stored), or null when the series is flat or on the other side.
   */
  setOpenLeverage(account: string, coin: string, isLong: boolean, leverage: number): PositionRow | null {
    const live = this.ledgerOf({ account, coin });
    const net = live.ledger.netUnits;
    if (net === 0n || net > 0n !== isLong) return null;
    const row = live.ledger.setOpenLeverage(leverage);
    if (row) this.writers.position(row);
    return row;
  }

  /** Books new fills of one series: appended to its ledger when they come after its last fill, else a rebuild. */
  private book(series: Series, added: BookFill[], seqs: number[]): BookedOrder[] {
    const name = seriesName(series.account, series.coin);
    const live = this.live.get(name) ?? this.load(series, seqs[0]);
    const first = added[0] as BookFill;
    const inOrder =
      first.timeMs > live.lastTimeMs ||
      (first.timeMs === live.lastTimeMs &&
        (first.tid === null || live.lastTid === null || first.tid > live.lastTid));
    if (!inOrder) {
      this.rebuild(series);
      return [];
    }
    for (const [i, f] of added.entries()) applyFill(live, storedFrom(f, seqs[i] as number));
    return this.write(live.ledger);
  }

  /** Writes what the ledger booked since it was last drained; returns the orders with their positions. */
  private write(ledger: PositionLedger): BookedOrder[] {
    const { positions, orders } = ledger.drain();
    const write = this.writers;
    const byId = new Map<string, PositionRow>();
    for (const p of positions) {
      write.position(p);
      byId.set(p.id, p);
    }
    for (const o of orders) write.order(o);
    return orders.map((order) => ({ order, position: byId.get(order.position_id) as PositionRow }));
  }

  /** The series' ledger: in memory, or replayed (nothing written) from its stored fills before `beforeSeq`. */
  private load(series: Series, beforeSeq = Number.MAX_SAFE_INTEGER): LiveSeries {
    const live = this.fresh(series);
    for (const f of this.storedFills(series)) if (f.seq < beforeSeq) applyFill(live, f);
    live.ledger.drain();
    this.live.set(seriesName(series.account, series.coin), live);
    return live;
  }

  private ledgerOf(series: Series): LiveSeries {
    return this.live.get(seriesName(series.account, series.coin)) ?? this.load(series);
  }

  /** Replaces the series' positions and orders with those rebuilt from all its stored fills. */
  private rebuild(series: Series): void {
    this.deleteRows(series);
    const live = this.fresh(series);
    for (const f of this.storedFills(series)) applyFill(live, f);
    this.write(live.ledger);
    this.live.set(seriesName(series.account, series.coin), live);
  }

  private fresh(series: Series): LiveSeries {
    const key: SeriesKey = {
      account: series.account,
      protocol: this.protocol,
      symbol: series.coin,
      indexToken: this.indexTokenOf(series.coin),
    };
    return {
      ledger: new PositionLedger(key, { assumedLeverage: this.assumedLeverage }),
      lastTimeMs: Number.NEGATIVE_INFINITY,
      lastTid: null,
      synced: false,
      venueUnits: null,
    };
  }

  private storedFills(series: Series): StoredFill[] {
    return prepareCached(this.db, SERIES_FILLS).all(
      this.protocol,
      series.account,
      series.coin,
    ) as StoredFill[];
  }

  private nextSeq(): number {
    this.seq ??= prepareCached(this.db, 'SELECT COALESCE(MAX(seq), 0) FROM fills', 'pluck').get() as number;
    this.seq += 1;
    return this.seq;
  }
}

/** A new fill as the ledger would read it back from the store. */
function storedFrom(f: BookFill, seq: number): StoredFill {
  return {
    key: f.key,
    time_ms: f.timeMs,
    seq,
    is_buy: f.isBuy ? 1 : 0,
    price: f.price,
    size_tokens: f.sizeTokens,
    fee: f.fee,
    is_liquidation: f.isLiquidation ? 1 : 0,
    tx_hash: f.txHash,
    tid: f.tid,
    start_position: f.startPosition,
  };
}

/**
 * Books the next fill of a series (see the file's head for a history begun inside a position):
 * while the ledger has not met the venue's position, only the part of a fill past zero is booked.
 * The venue's position before a fill is the startPosition of the first fill of its millisecond plus
 * the fills before it in that millisecond: the legs of a self-trade all report the same start.
 */
function applyFill(live: LiveSeries, f: StoredFill): void {
  const sameMs = f.time_ms === live.lastTimeMs;
  live.lastTimeMs = f.time_ms;
  live.lastTid = f.tid;
  if (live.synced) {
    live.ledger.apply(ledgerFill(f));
    return;
  }
  const before =
    sameMs && live.venueUnits !== null
      ? live.venueUnits
      : f.start_position === null
        ? 0n
        : toUnits(f.start_position);
  if (before === 0n) {
    live.synced = true;
    live.ledger.apply(ledgerFill(f));
    return;
  }
  const units = toUnits(f.size_tokens);
  const end = before + (f.is_buy === 1 ? units : -units);
  live.venueUnits = end;
  if (end !== 0n && end > 0n === before > 0n) return;
  live.synced = true;
  if (end === 0n) return;
  const opened = end < 0n ? -end : end;
  const fee = (f.fee * unitsToNumber(opened)) / unitsToNumber(units);
  live.ledger.apply({ ...ledgerFill(f), amount: { units: opened }, fee });
}
