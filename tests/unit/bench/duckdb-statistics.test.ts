// The DuckDB reference implementation of the statistics must give OUR engine's numbers on every
// record and field (the engine is the reference; docs/semantics.md is the law for both).
import { describe, expect, it } from 'vitest';
import {
  compareRecords,
  duckdbStatistics,
  engineStatisticsFromColumns,
  recordKey,
} from '../../bench/duckdb-statistics';
import type { StatisticRecords } from '../../bench/duckdb-statistics';
import { generatePositions } from '../../bench/position-columns';
import type { PositionColumns } from '../../bench/position-columns';
import { DAY_MS, dayStartMs } from '../../../src/service/statistics/formulas/windows';

// 13:30 UTC, so T0 (00:00 UTC) ≠ now catches day-start mistakes.
const NOW = Date.UTC(2024, 5, 15, 13, 30);
const T0 = dayStartMs(NOW);

/** Rows of closed positions, the first `n` of them from index `from` on. */
function closedRows(c: PositionColumns, from: number, n: number): number[] {
  const rows: number[] = [];
  for (let i = from; i < c.count && rows.length < n; i += 1) {
    if (!Number.isNaN(c.closeTimeMs[i])) rows.push(i);
  }
  return rows;
}

/** Edge cases the generator does not make, written over some of its rows (order is kept). */
function addEdgeCases(c: PositionColumns): void {
  const [a, b, d, e, f, g, h, k, l, m, n, o] = closedRows(c, 500, 12) as number[];
  const setClose = (i: number, close: number) => {
    c.openTimeMs[i] = Math.min(c.openTimeMs[i] as number, close - 3_600_000);
    c.closeTimeMs[i] = close;
  };
  // A liquidation that closed in profit is not a liquidation; one at exactly 0 is.
  c.isLiquidate[a as number] = 1;
  c.realisedPnl[a as number] = 12.5;
  c.isLiquidate[b as number] = 1;
  c.realisedPnl[b as number] = 0;
  // Window edges: T0 itself and today belong to FULL only; T0 − 7 d is in D7; just before it is not.
  setClose(d as number, T0);
  setClose(e as number, NOW - 1);
  setClose(f as number, T0 - 7 * DAY_MS);
  setClose(g as number, T0 - 7 * DAY_MS - 1);
  setClose(h as number, T0 - 60 * DAY_MS);
  setClose(k as number, T0 - 60 * DAY_MS - 1);
  // Zero collateral: ROI and leverage divide by 0 and become 0.
  c.collateral[l as number] = 0;
  // Received funding and no fee: pnl > realisedPnl, and a break-even position with pnl exactly 0.
  c.funding[m as number] = 7.25;
  c.fee[m as number] = 0;
  c.realisedPnl[n as number] = 0;
  c.fee[n as number] = 0;
  c.funding[n as number] = 0;
  // A close stamped in the future still belongs to FULL.
  setClose(o as number, NOW + DAY_MS);
}

/** A mark price per token near its entry prices; the last token has none. */
function markPrices(c: PositionColumns): Float64Array {
  const marks = new Float64Array(c.tokens.length).fill(NaN);
  for (let i = 0; i < c.count; i += 1) {
    const t = c.token[i] as number;
    if (Number.isNaN(marks[t])) marks[t] = (c.averagePrice[i] as number) * 1.037;
  }
  marks[c.tokens.length - 1] = NaN;
  return marks;
}

describe('duckdbStatistics', () => {
  it('agrees with the engine on every record, field and ranking of 20,000 positions', async () => {
    const columns = generatePositions(20_000, { seed: 20_240_615, nowMs: NOW });
    addEdgeCases(columns);
    const marks = markPrices(columns);

    const ours = engineStatisticsFromColumns(columns, NOW, marks);
    const theirs = await duckdbStatistics(columns, NOW, marks);

    expect(theirs.records.size).toBe(ours.size);
    const comparison = compareRecords(ours, theirs.records, Infinity);
    expect(comparison.mismatches.slice(0, 20)).toEqual([]);
    expect(comparison.checked).toBe(ours.size);
    expect(theirs.seconds).toBeGreaterThan(0);
    expect(theirs.loadSeconds).toBeGreaterThan(0);

    // The data reached the cases it is meant to cover.
    const all = [...ours.values()].map((r) => r.values);
    expect(all.some((v) => v.isOpenPosition && v.unrealisedPnl !== 0)).toBe(true);
    expect(all.some((v) => v.totalLiquidation > 0)).toBe(true);
    expect(new Set([...ours.keys()].map((k) => k.split('|')[2])).size).toBe(5);
  }, 60_000);

  it('records a window only when it has a closed position, and ranks a lone record 100', async () => {
    const columns = generatePositions(3, { seed: 1, nowMs: NOW, accounts: 1, protocols: 1 });
    // One position closed today (FULL only), one open, one closed yesterday (every window).
    columns.closeTimeMs[0] = NOW - 60_000;
    columns.openTimeMs[0] = NOW - 120_000;
    columns.closeTimeMs[1] = NaN;
    columns.closeTimeMs[2] = T0 - 3_600_000;
    columns.openTimeMs[2] = T0 - 7_200_000;
    const ours = engineStatisticsFromColumns(columns, NOW);
    const theirs = (await duckdbStatistics(columns, NOW)).records;
    expect(compareRecords(ours, theirs, Infinity).mismatches).toEqual([]);
    const protocol = columns.protocols[0] as string;
    const account = columns.accounts[0] as string;
    const full = theirs.get(recordKey(protocol, account, 'FULL'));
    const d7 = theirs.get(recordKey(protocol, account, 'D7'));
    expect(full?.values.totalTrade).toBe(2);
    expect(d7?.values.totalTrade).toBe(1);
    expect(d7?.values.isOpenPosition).toBe(true);
    expect(d7?.values.unrealisedPnl).toBe(0);
    expect(Object.values(full?.ranking ?? {})).toEqual(Array(13).fill(100));
  });
});

describe('compareRecords', () => {
  it('reports differing fields, rankings and missing records', () => {
    const columns = generatePositions(400, { seed: 7, nowMs: NOW });
    const ours = engineStatisticsFromColumns(columns, NOW);
    const theirs: StatisticRecords = new Map(
      [...ours].map(([k, r]) => [k, { values: { ...r.values }, ranking: { ...r.ranking } }]),
    );
    const keys = [...ours.keys()].sort();
    const [first, second, third] = keys as [string, string, string];
    theirs.get(first)!.values.pnl *= 1 + 1e-12; // within tolerance
    theirs.get(second)!.values.pnl += 1;
    theirs.get(second)!.values.indexTokens = [];
    theirs.get(second)!.ranking.winRate += 0.01;
    theirs.delete(third);
    theirs.set('extra|record|FULL', ours.get(first)!);

    const result = compareRecords(ours, theirs, Infinity);
    expect(result.checked).toBe(ours.size);
    expect(result.mismatches.map((m) => `${m.key}:${m.field}`).sort()).toEqual(
      [
        `${second}:pnl`,
        `${second}:indexTokens`,
        `${second}:ranking.winRate`,
        `${third}:record`,
        'extra|record|FULL:record',
      ].sort(),
    );
    // A sample compares fewer records field by field, but still every key's presence.
    const sample = compareRecords(ours, theirs, 3);
    expect(sample.checked).toBe(3);
    expect(sample.mismatches.filter((m) => m.field === 'record')).toHaveLength(2);
  });
});
