import type { MarkPriceOf, PositionFacts } from '../formulas/position-facts';
import { computeTraderStatistics } from '../formulas/statistics';
import { rankPopulation, type RankingInput } from '../formulas/rankings';
import { WINDOWS } from '../formulas/windows';
import type { PositionColumns } from './position-columns';
import type { RecordToStore } from '../store/writer';

/**
 * One trader's run of rows [start, end) of the columns, iterated as PositionFacts through ONE
 * reused object: the analytics only read each position while it is current, so a full recompute
 * allocates nothing per position.
 */
class ColumnRun implements Iterable<PositionFacts> {
  private readonly view: PositionFacts;

  constructor(
    private readonly c: PositionColumns,
    private readonly start: number,
    private readonly end: number,
  ) {
    this.view = {
      id: '',
      account: c.accounts[c.account[start] as number] as string,
      protocol: c.protocols[c.protocol[start] as number] as string,
      indexToken: '',
      pair: '',
      isLong: false,
      size: 0,
      collateral: 0,
      averagePrice: 0,
      realisedPnl: 0,
      fee: 0,
      funding: 0,
      isLiquidate: false,
      orderCount: 0,
      openTimeMs: 0,
      closeTimeMs: null,
    };
  }

  [Symbol.iterator](): Iterator<PositionFacts> {
    let i = this.start;
    const { c, view, end } = this;
    return {
      next: (): IteratorResult<PositionFacts> => {
        if (i >= end) return { done: true, value: undefined };
        const token = c.token[i] as number;
        view.indexToken = c.tokens[token] as string;
        view.pair = c.pairs[token] as string;
        view.isLong = c.isLong[i] === 1;
        view.isLiquidate = c.isLiquidate[i] === 1;
        view.size = c.size[i] as number;
        view.collateral = c.collateral[i] as number;
        view.averagePrice = c.averagePrice[i] as number;
        view.realisedPnl = c.realisedPnl[i] as number;
        view.fee = c.fee[i] as number;
        view.funding = c.funding[i] as number;
        view.orderCount = c.orderCount[i] as number;
        view.openTimeMs = c.openTimeMs[i] as number;
        const close = c.closeTimeMs[i] as number;
        view.closeTimeMs = Number.isNaN(close) ? null : close;
        i += 1;
        return { done: false, value: view };
      },
    };
  }
}

/** The positions of rows [start, end) of the columns (one trader's run), as PositionFacts. */
export const positionsOfRun = (c: PositionColumns, start: number, end: number): Iterable<PositionFacts> =>
  new ColumnRun(c, start, end);

/** The end of the run of rows that share `column`'s value at `start`. */
export function runEnd(column: Uint16Array | Uint32Array, start: number, limit: number): number {
  const value = column[start];
  let i = start + 1;
  while (i < limit && column[i] === value) i += 1;
  return i;
}

/**
 * A full recompute: every record of every (account, protocol, window) and the rankings of every
 * population, one protocol at a time so that only one protocol's records are in memory at once;
 * each protocol's records go to `sink` as soon as they are ranked.
 */
export function computeAllFromColumns(
  c: PositionColumns,
  nowMs: number,
  markPrice: MarkPriceOf,
  sink: (protocol: string, records: RecordToStore[]) => void,
): { records: number } {
  let total = 0;
  for (let p = 0; p < c.count;) {
    const protocolEnd = runEnd(c.protocol, p, c.count);
    const records: RecordToStore[] = [];
    for (let a = p; a < protocolEnd;) {
      const accountEnd = runEnd(c.account, a, protocolEnd);
      pushTraderRecords(
        records,
        computeTraderStatistics(new ColumnRun(c, a, accountEnd), nowMs, markPrice),
        c,
        a,
      );
      a = accountEnd;
    }
    rankInPlace(records);
    total += records.length;
    sink(c.protocols[c.protocol[p] as number] as string, records);
    p = protocolEnd;
  }
  return { records: total };
}

function pushTraderRecords(
  out: RecordToStore[],
  byWindow: ReturnType<typeof computeTraderStatistics>,
  c: PositionColumns,
  row: number,
): void {
  const account = c.accounts[c.account[row] as number] as string;
  const protocol = c.protocols[c.protocol[row] as number] as string;
  for (const type of WINDOWS) {
    const values = byWindow[type];
    if (values)
      out.push({
        account,
        protocol,
        type,
        values,
        ranking: undefined as unknown as RecordToStore['ranking'],
      });
  }
}

/** Fills each record's ranking within its population (same protocol and window). */
export function rankInPlace(records: RecordToStore[]): void {
  const populations = new Map<string, RecordToStore[]>();
  for (const r of records) {
    const key = `${r.protocol}|${r.type}`;
    const members = populations.get(key);
    if (members) members.push(r);
    else populations.set(key, [r]);
  }
  for (const members of populations.values()) {
    rankPopulation(members.map((m) => m.values as RankingInput)).forEach((ranking, i) => {
      (members[i] as RecordToStore).ranking = ranking;
    });
  }
}
