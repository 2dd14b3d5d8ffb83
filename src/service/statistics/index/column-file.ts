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

/**
 * One temporary file that many column files write into, end to end: one file descriptor for all
 * of them rather than one per population (a moving market patches populations often, and an
 * unreachable population's descriptor is only given back when the garbage collector gets to
 * it). Once more of it is dead than alive (and at least WASTE_BYTES), new columns go to a fresh
 * file and this one is closed when its last column file is collected.
 */
class SharedFile {
  end = 0;
  /** Bytes and column files still reachable. */
  liveBytes = 0;
  liveFiles = 0;
  retired = false;

  constructor(
    readonly fd: number,
    readonly path: string | null,
  ) {}

  static create(): SharedFile {
    const dir = mkdtempSync(join(tmpdir(), 'copydesk-columns-'));
    const path = join(dir, 'columns.bin');
    const fd = openSync(path, 'w+');
    try {
      unlinkSync(path);
      rmSync(dir, { recursive: true, force: true });
      return new SharedFile(fd, null);
    } catch {
      // Windows keeps an open file's name: it is removed when the file is closed.
      return new SharedFile(fd, path);
    }
  }

  /** Closes the file once it is retired and no column file reads it. */
  closeIfDone(): void {
    if (!this.retired || this.liveFiles > 0) return;
    try {
      closeSync(this.fd);
      if (this.path) rmSync(join(this.path, '..'), { recursive: true, force: true });
    } catch {
      // Already closed (the process is ending): nothing to give back.
    }
  }
}

/** Dead bytes a shared file may hold before new columns go to a fresh one. */
const WASTE_BYTES = 256 * 1024 * 1024;
let writing: SharedFile | null = null;

/** The shared file new column files write to. */
function fileToWrite(): SharedFile {
  if (writing) {
    const dead = writing.end - writing.liveBytes;
    if (dead <= Math.max(WASTE_BYTES, writing.liveBytes)) return writing;
    writing.retired = true;
    writing.closeIfDone();
  }
  return (writing = SharedFile.create());
}

/** A column file collected: its bytes are dead, and its shared file may be done. */
const collected = new FinalizationRegistry<{ file: SharedFile; bytes: () => number }>(({ file, bytes }) => {
  file.liveBytes -= bytes();
  file.liveFiles -= 1;
  file.closeIfDone();
});

/**
 * The columns of one population that no query has named yet, as their narrow codes in a
 * temporary file (docs/statistics.md, "Columns made on demand"): a population is read from
 * SQLite once, whole, and a column first named later is read back from here (its codes, a few
 * hundred kilobytes in one read) instead of from SQLite's rows, where one column of 50,000
 * records means reading every page of those rows. What is written never changes, like the
 * population it belongs to, so a point in time reads it at any age. The file is removed from the
 * directory as soon as it is open (on systems that allow it; else when it is closed); its space
 * is given back when the populations holding this column file are collected (see SharedFile).
 */
export class ColumnFile implements ColumnSource {
  private readonly places = new Map<string, ColumnPlace>();
  /** Bytes written, in an object the finalizer shares (it must not hold this column file). */
  private readonly written = { bytes: 0 };
  readonly fields = new Set<string>();

  private constructor(private readonly file: SharedFile) {
    file.liveFiles += 1;
    const written = this.written;
    collected.register(this, { file, bytes: () => written.bytes });
  }

  /** A new, empty column file. */
  static create(): ColumnFile {
    return new ColumnFile(fileToWrite());
  }

  /** The columns of `fields`, read back (the population keeps them). */
  numbers(_population: unknown, fields: readonly string[]): Record<string, NumberColumn> {
    return Object.fromEntries(fields.map((f) => [f, this.read(f)]));
  }

  /** Appends `column`'s codes as `field`. */
  write(field: string, column: NumberColumn): void {
    const codes = column.codes;
    const bytes = new Uint8Array(codes.buffer, codes.byteOffset, codes.byteLength);
    const at = this.file.end;
    this.file.end += bytes.length;
    let done = 0;
    while (done < bytes.length) done += writeSync(this.file.fd, bytes, done, bytes.length - done, at + done);
    this.places.set(field, {
      at,
      length: codes.length,
      kind: column.kind,
      scale: column.scale,
      offset: column.offset,
      nanCode: column.nanCode,
    });
    this.fields.add(field);
    this.written.bytes += bytes.length;
    this.file.liveBytes += bytes.length;
  }

  /** The column written as `field`, exactly as it was written. */
  read(field: string): NumberColumn {
    const place = this.places.get(field);
    if (!place) throw new Error(`No column ${field} in this column file.`);
    const codes = new ARRAYS[place.kind](place.length);
    const bytes = new Uint8Array(codes.buffer);
    let done = 0;
    while (done < bytes.length) {
      const n = readSync(this.file.fd, bytes, done, bytes.length - done, place.at + done);
      if (n === 0) throw new Error(`The column file ended inside column ${field}.`);
      done += n;
    }
    return new NumberColumn(codes, place.scale, place.offset, place.nanCode);
  }

  /** Bytes written. */
  get byteLength(): number {
    return this.written.bytes;
  }
}
