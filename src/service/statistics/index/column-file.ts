import { closeSync, mkdtempSync, openSync, readSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  NumberColumn,
  type ColumnSource,
  type NumberCodes,
  type NumberColumnKind,
} from '../../../shared/statistics-index';

/** Where a column's codes are in a column file, and how to read them back exactly. */
interface ColumnPlace {
  at: number;
  length: number;
  kind: NumberColumnKind;
  scale: number;
  offset: number;
  nanCode: number;
}

const ARRAYS: Record<NumberColumnKind, new (n: number) => NumberCodes> = {
  float64: Float64Array,
  float32: Float32Array,
  int32: Int32Array,
  int16: Int16Array,
};

/** Each file is closed once nothing holds it (no population of any generation asks it any more). */
const closing = new FinalizationRegistry<{ fd: number; path: string | null }>((held) => closeFile(held));

/**
 * The columns of one population that no query has named yet, as their narrow codes in a
 * temporary file (docs/statistics.md, "Columns made on demand"): a population is read from
 * SQLite once, whole, and a column first named later is read back from here (its codes, a few
 * hundred kilobytes in one read) instead of from SQLite's rows, where one column of 50,000
 * records means reading every page of those rows. The file is written once and never changes,
 * like the population it belongs to, so a point in time reads it at any age. It is removed from
 * the directory as soon as it is open (on systems that allow it; else when it is closed), and
 * closed when the last population holding it is garbage collected.
 */
export class ColumnFile implements ColumnSource {
  private end = 0;
  private readonly places = new Map<string, ColumnPlace>();
  readonly fields = new Set<string>();

  private constructor(
    private readonly fd: number,
    path: string | null,
  ) {
    closing.register(this, { fd, path });
  }

  /** A new, empty file in the system's temporary directory. */
  static create(): ColumnFile {
    const dir = mkdtempSync(join(tmpdir(), 'copydesk-columns-'));
    const path = join(dir, 'columns.bin');
    const fd = openSync(path, 'w+');
    try {
      unlinkSync(path);
      rmSync(dir, { recursive: true, force: true });
      return new ColumnFile(fd, null);
    } catch {
      // Windows keeps an open file's name: it is removed when the file is closed.
      return new ColumnFile(fd, path);
    }
  }

  /** The columns of `fields`, read back (the population keeps them). */
  numbers(_population: unknown, fields: readonly string[]): Record<string, NumberColumn> {
    return Object.fromEntries(fields.map((f) => [f, this.read(f)]));
  }

  /** Appends `column`'s codes as `field`. */
  write(field: string, column: NumberColumn): void {
    const codes = column.codes;
    const bytes = new Uint8Array(codes.buffer, codes.byteOffset, codes.byteLength);
    let done = 0;
    while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done, this.end + done);
    this.places.set(field, {
      at: this.end,
      length: codes.length,
      kind: column.kind,
      scale: column.scale,
      offset: column.offset,
      nanCode: column.nanCode,
    });
    this.fields.add(field);
    this.end += bytes.length;
  }

  /** The column written as `field`, exactly as it was written. */
  read(field: string): NumberColumn {
    const place = this.places.get(field);
    if (!place) throw new Error(`No column ${field} in this column file.`);
    const codes = new ARRAYS[place.kind](place.length);
    const bytes = new Uint8Array(codes.buffer);
    let done = 0;
    while (done < bytes.length) {
      const n = readSync(this.fd, bytes, done, bytes.length - done, place.at + done);
      if (n === 0) throw new Error(`The column file ended inside column ${field}.`);
      done += n;
    }
    return new NumberColumn(codes, place.scale, place.offset, place.nanCode);
  }

  /** Bytes written. */
  get byteLength(): number {
    return this.end;
  }
}

function closeFile(held: { fd: number; path: string | null }): void {
  try {
    closeSync(held.fd);
    if (held.path) rmSync(join(held.path, '..'), { recursive: true, force: true });
  } catch {
    // Already closed (the process is ending): nothing to give back.
  }
}
