import type { ColumnSource, NumberColumn } from '../../../shared/statistics-index';
import { ColumnFile } from './column-file';

/** Fresh rows a patched population's columns may carry before they are written out afresh. */
const MAX_FRESH = 1024;

/**
 * The columns a patched population does not hold (docs/statistics.md, "Columns made on
 * demand"): the rows of an earlier population's column file, some replaced by rows read fresh
 * from SQLite when the population was patched. Nothing is copied at the patch, which a moving
 * market makes several times a second; a column is put together when a query first names it.
 * Successive patches compose into one mapping onto the same file; once too many fresh rows are
 * carried, the columns are written to a new file.
 */
export class PatchedColumns implements ColumnSource {
  private constructor(
    private readonly file: ColumnFile,
    /** Per record: its row in the file (≥ 0), or -1 - k for fresh row k. */
    private readonly rows: Int32Array,
    private readonly fresh: readonly (readonly unknown[])[],
    /** Where each field is in a fresh row. */
    private readonly at: ReadonlyMap<string, number>,
  ) {}

  get fields(): ReadonlySet<string> {
    return this.file.fields;
  }

  /**
   * The columns of a population made from one whose columns were `source`: record i is the old
   * record `from[i]` when that is ≥ 0, else fresh row `-1 - from[i]`.
   */
  static after(
    source: ColumnSource | null,
    from: readonly number[],
    fresh: readonly (readonly unknown[])[],
    at: ReadonlyMap<string, number>,
  ): ColumnSource {
    let file: ColumnFile;
    let base: Int32Array | null = null;
    const carried: (readonly unknown[])[] = [];
    if (source instanceof PatchedColumns) {
      file = source.file;
      base = source.rows;
      carried.push(...source.fresh);
    } else if (source instanceof ColumnFile) file = source;
    else throw new Error('A patched population needs the column file of the one it was made from.');
    const offset = carried.length;
    carried.push(...fresh);
    const rows = new Int32Array(from.length);
    for (let i = 0; i < from.length; i += 1) {
      const s = from[i] as number;
      rows[i] = s >= 0 ? (base ? (base[s] as number) : s) : -1 - (offset - 1 - s);
    }
    const patched = new PatchedColumns(file, rows, carried, at);
    if (carried.length <= Math.max(64, Math.min(MAX_FRESH, rows.length / 8))) return patched;
    const out = ColumnFile.create();
    for (const field of file.fields) out.write(field, patched.read(field));
    return out;
  }

  numbers(_population: unknown, fields: readonly string[]): Record<string, NumberColumn> {
    return Object.fromEntries(fields.map((f) => [f, this.read(f)]));
  }

  private read(field: string): NumberColumn {
    const at = this.at.get(field);
    if (at === undefined) throw new Error(`No fresh values of ${field}.`);
    return this.file.read(field).gather(this.rows, (k) => {
      const v = (this.fresh[k] as readonly unknown[])[at];
      return v === null ? NaN : (v as number);
    });
  }
}
