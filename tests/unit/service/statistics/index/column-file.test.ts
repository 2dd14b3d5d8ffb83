// A population's column file (src/service/statistics/index/column-file.ts): every narrow form
// comes back exactly as written, missing values included (docs/statistics.md, "Columns made on
// demand").
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NumberColumn } from '../../../../../src/shared/statistics-index';
import { ColumnFile } from '../../../../../src/service/statistics/index/column-file';

const COLUMNS: Record<string, number[]> = {
  int16: [12.5, NaN, -3.25, 0, 99.99],
  int32: [123456.78, NaN, -99999.99, 0, 1],
  times: [1_700_000_000_000, 1_700_000_000_001, NaN, 1_700_000_086_400, 1_700_000_000_000],
  float32: [0.5, 1.25, NaN, -1_099_511_627_776, 3],
  float64: [0.1, Math.PI, NaN, -1e-300, 1 / 3],
};

describe('a column file', () => {
  it('gives back each column exactly as it was written, in every narrow form', () => {
    const file = ColumnFile.create();
    const written = Object.fromEntries(
      Object.entries(COLUMNS).map(([field, values]) => [field, NumberColumn.of(Float64Array.from(values))]),
    );
    expect(new Set(Object.values(written).map((c) => c.kind))).toEqual(
      new Set(['int16', 'int32', 'float32', 'float64']),
    );
    for (const [field, column] of Object.entries(written)) file.write(field, column);
    expect([...file.fields]).toEqual(Object.keys(COLUMNS));
    for (const [field, values] of Object.entries(COLUMNS)) {
      const read = file.read(field);
      expect(read.kind).toBe(written[field]!.kind);
      expect(Array.from({ length: values.length }, (_, i) => read.at(i))).toEqual(values);
    }
    expect(() => file.read('nothing')).toThrow(/No column nothing/);
  });

  it('shares one descriptor between column files, each reading back its own columns', () => {
    const open = () => readdirSync('/proc/self/fd').length;
    ColumnFile.create(); // the shared file exists from here on
    const before = open();
    const files = Array.from({ length: 50 }, (_, i) => {
      const file = ColumnFile.create();
      file.write('v', NumberColumn.of(Float64Array.from([i, i + 0.5, NaN])));
      return file;
    });
    expect(open()).toBe(before);
    files.forEach((file, i) => {
      const read = file.read('v');
      expect([read.at(0), read.at(1), read.at(2)]).toEqual([i, i + 0.5, NaN]);
      expect(file.byteLength).toBe(read.byteLength);
    });
  });
});
