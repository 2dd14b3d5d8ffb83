import { describe, expect, it } from 'vitest';
import { toCsvRows } from '@renderer/components/table/csv-rows';
import { compareCells, nextSort, sortRows } from '@renderer/components/table/sort-rows';
import { scrollToReveal, visibleRange } from '@renderer/components/table/virtual-range';

describe('sortRows', () => {
  const rows = [
    { id: 'a', pnl: 5 },
    { id: 'b', pnl: null },
    { id: 'c', pnl: -2 },
    { id: 'd', pnl: 5 },
    { id: 'e', pnl: Number.NaN },
  ];
  it('sorts numbers both ways, stable for ties', () => {
    expect(sortRows(rows, (r) => r.pnl, 'asc').map((r) => r.id)).toEqual(['c', 'a', 'd', 'b', 'e']);
    expect(sortRows(rows, (r) => r.pnl, 'desc').map((r) => r.id)).toEqual(['a', 'd', 'c', 'b', 'e']);
  });
  it('keeps missing values last whatever the direction', () => {
    expect(
      sortRows(rows, (r) => r.pnl, 'desc')
        .slice(-2)
        .map((r) => r.id),
    ).toEqual(['b', 'e']);
  });
  it('orders text numerically and case-insensitively', () => {
    const pairs = ['BTC10', 'btc2', 'ADA'].map((p) => ({ p }));
    expect(sortRows(pairs, (r) => r.p, 'asc').map((r) => r.p)).toEqual(['ADA', 'btc2', 'BTC10']);
  });
  it('orders booleans false first', () => {
    expect(compareCells(false, true)).toBeLessThan(0);
    expect(compareCells(true, true)).toBe(0);
  });
  it('does not touch the input', () => {
    const copy = [...rows];
    sortRows(rows, (r) => r.pnl, 'asc');
    expect(rows).toEqual(copy);
  });
});

describe('nextSort', () => {
  it('starts a new column in its first direction and flips the same one', () => {
    expect(nextSort(null, 'pnl')).toEqual({ column: 'pnl', direction: 'desc' });
    expect(nextSort({ column: 'pnl', direction: 'desc' }, 'pnl')).toEqual({
      column: 'pnl',
      direction: 'asc',
    });
    expect(nextSort({ column: 'pnl', direction: 'asc' }, 'pair', 'asc')).toEqual({
      column: 'pair',
      direction: 'asc',
    });
  });
});

describe('visibleRange', () => {
  it('covers the viewport plus overscan, clamped to the rows', () => {
    expect(visibleRange(0, 280, 28, 10_000, 5)).toEqual({ start: 0, end: 15 });
    expect(visibleRange(2800, 280, 28, 10_000, 5)).toEqual({ start: 95, end: 115 });
    expect(visibleRange(279_720, 280, 28, 10_000, 5)).toEqual({ start: 9985, end: 10_000 });
  });
  it('renders nothing without rows and survives odd input', () => {
    expect(visibleRange(100, 280, 28, 0)).toEqual({ start: 0, end: 0 });
    expect(visibleRange(-50, -1, 28, 3, 0)).toEqual({ start: 0, end: 0 });
    expect(visibleRange(1e9, 280, 28, 3, 2)).toEqual({ start: 3, end: 3 });
  });
  it('keeps the DOM small for 10,000 rows', () => {
    const r = visibleRange(140_000, 800, 28, 10_000, 10);
    expect(r.end - r.start).toBeLessThan(60);
  });
});

describe('scrollToReveal', () => {
  it('scrolls only when the row is out of view, by the least amount', () => {
    expect(scrollToReveal(5, 0, 280, 28)).toBeNull();
    expect(scrollToReveal(10, 0, 280, 28)).toBe(28);
    expect(scrollToReveal(2, 280, 280, 28)).toBe(56);
  });
});

describe('toCsvRows', () => {
  it('keeps raw values, labels as header, non-finite numbers as empty', () => {
    const columns = [
      { label: 'Trader', value: (r: { a: string; n: number | null }) => r.a },
      { label: 'PnL', value: (r: { a: string; n: number | null }) => r.n },
    ];
    expect(
      toCsvRows(columns, [
        { a: '0x1', n: 1.5 },
        { a: '0x2', n: Number.POSITIVE_INFINITY },
        { a: '0x3', n: null },
      ]),
    ).toEqual({
      columns: ['Trader', 'PnL'],
      rows: [
        ['0x1', 1.5],
        ['0x2', null],
        ['0x3', null],
      ],
    });
  });
});

describe('visibleRange in chunks', () => {
  it('snaps the bounds to the chunk so small scrolls keep the same range', () => {
    const a = visibleRange(28 * 20, 280, 28, 10_000, 4, 8);
    const b = visibleRange(28 * 21, 280, 28, 10_000, 4, 8);
    expect(a).toEqual({ start: 16, end: 40 });
    expect(b).toEqual(a);
    expect(a.start % 8).toBe(0);
    expect(a.end % 8).toBe(0);
    // Still covers the viewport.
    expect(a.start).toBeLessThanOrEqual(20);
    expect(a.end).toBeGreaterThanOrEqual(30);
  });
});
