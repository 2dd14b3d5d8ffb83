// A patched population's columns (src/service/statistics/index/patched-columns.ts): put together
// from the first population's column file and the fresh rows of every patch since, composed
// patch after patch, and written to a new file once too many fresh rows are carried
// (docs/statistics.md, "Columns made on demand").
import { describe, expect, it } from 'vitest';
import { NumberColumn, type ColumnSource } from '../../../../../src/shared/statistics-index';
import { ColumnFile } from '../../../../../src/service/statistics/index/column-file';
import { PatchedColumns } from '../../../../../src/service/statistics/index/patched-columns';

/** Where `pnl` is in a fresh row. */
const AT = new Map([['pnl', 1]]);

const values = (source: ColumnSource, n: number): number[] => {
  const column = source.numbers(null as never, ['pnl']).pnl as NumberColumn;
  return Array.from({ length: n }, (_, i) => column.at(i));
};

describe('patched columns', () => {
  it('give each record its old value or its fresh one, patch after patch, then from a new file', () => {
    const file = ColumnFile.create();
    let expected = [1, 2, NaN, 4, 5, 6, 7, 8];
    file.write('pnl', NumberColumn.of(Float64Array.from(expected)));
    let source: ColumnSource = file;
    let k = 0;
    const sources: string[] = [];
    for (let patch = 0; patch < 60; patch += 1) {
      // Each patch: the first record changes, a new record goes second, the last one goes.
      const fresh = [
        ['a', 1000 + k],
        ['b', k % 3 === 0 ? null : 0.5 + k],
      ];
      k += 1;
      const from = [-1, -2, ...expected.map((_, i) => i).slice(1, -1)];
      expected = [1000 + k - 1, (k - 1) % 3 === 0 ? NaN : 0.5 + k - 1, ...expected.slice(1, -1)];
      source = PatchedColumns.after(source, from, fresh, AT);
      sources.push(source.constructor.name);
      expect(values(source, expected.length)).toEqual(expected);
    }
    // Composed onto the first file for a while, then written out afresh, then composed again.
    expect(sources).toHaveLength(60);
    expect(sources.slice(0, 10).every((name) => name === 'PatchedColumns')).toBe(true);
    expect(sources).toContain('ColumnFile');
    expect(sources.at(-1)).toBe('PatchedColumns');
  });
});
