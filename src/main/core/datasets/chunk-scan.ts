import type Database from 'better-sqlite3';
import { prepareCached } from '../../../node/sqlite';
import { CoreError } from '../errors';
import { COLUMN_COUNT, COLUMN_INDEX } from './fields';
import type { StreamName } from './worker-messages';

/**
 * Reads a generation's chunks in id order: the `asc` chunks as they came, then the `desc` ones
 * backwards, each read backwards. A record's index in that order is its place in the dataset.
 */
export class ChunkScan {
  constructor(
    private readonly db: Database.Database,
    private readonly datasetId: number,
    private readonly gen: number,
  ) {}

  /** How many records the generation's chunks hold. */
  size(): number {
    return this.layout().size;
  }

  /**
   * The numeric columns `fields` (names of COLUMN_FIELDS), in one pass over the chunks. `known`:
   * chunks whose numbers for exactly `fields` are at hand (field after field), not read back.
   */
  columns(fields: readonly string[], known?: ReadonlyMap<number, Float64Array>): Float64Array[] {
    const at = fields.map((f) => {
      const index = COLUMN_INDEX.get(f);
      if (index === undefined) throw new CoreError('INTERNAL', `${f} is not a stored column of a dataset.`);
      return index;
    });
    const layout = this.layout();
    const out = fields.map(() => new Float64Array(layout.size));
    // A chunk's numbers are NUMBER_GROUP records a row, in key order: together, the chunk's rows.
    const read = prepareCached(
      this.db,
      'SELECT numbers FROM record_numbers WHERE seq >= ? AND seq < ? ORDER BY seq',
      'pluck',
    );
    for (const chunk of layout.chunks) {
      const kept = known?.get(chunk.chunkNo);
      if (kept) {
        copyKnown(kept, chunk, out);
        continue;
      }
      const numbers = new Float64Array(chunk.count * COLUMN_COUNT);
      const bytes = new Uint8Array(numbers.buffer);
      let filled = 0;
      for (const group of read.all(chunk.firstSeq, chunk.firstSeq + chunk.count) as Buffer[]) {
        bytes.set(group, filled);
        filled += group.byteLength;
      }
      if (filled !== bytes.byteLength)
        throw new CoreError('INTERNAL', 'A chunk of the downloaded dataset is missing numbers.');
      for (let c = 0; c < at.length; c += 1) {
        const column = out[c] as Float64Array;
        const f = at[c] as number;
        for (let k = 0; k < chunk.count; k += 1) {
          const i = chunk.reversed ? chunk.count - 1 - k : k;
          column[chunk.start + k] = numbers[i * COLUMN_COUNT + f] as number;
        }
      }
    }
    return out;
  }

  /** Every record's id or account, in order. */
  texts(name: 'ids' | 'accounts'): string[] {
    const layout = this.layout();
    const out = new Array<string>(layout.size);
    const read = prepareCached(
      this.db,
      `SELECT ${name} FROM chunks WHERE dataset_id = ? AND gen = ? AND chunk_no = ?`,
      'pluck',
    );
    for (const chunk of layout.chunks) {
      const values = JSON.parse(read.get(this.datasetId, this.gen, chunk.chunkNo) as string) as string[];
      for (let k = 0; k < chunk.count; k += 1)
        out[chunk.start + k] = values[chunk.reversed ? chunk.count - 1 - k : k] as string;
    }
    return out;
  }

  /** Every record's seq (its key in the records table), in order. */
  seqs(): Float64Array {
    const layout = this.layout();
    const out = new Float64Array(layout.size);
    for (const chunk of layout.chunks) {
      for (let k = 0; k < chunk.count; k += 1)
        out[chunk.start + k] = chunk.firstSeq + (chunk.reversed ? chunk.count - 1 - k : k);
    }
    return out;
  }

  private layout(): {
    size: number;
    chunks: { chunkNo: number; count: number; firstSeq: number; reversed: boolean; start: number }[];
  } {
    const rows = prepareCached(
      this.db,
      'SELECT chunk_no, stream, count, first_seq FROM chunks WHERE dataset_id = ? AND gen = ? ORDER BY chunk_no',
    ).all(this.datasetId, this.gen) as {
      chunk_no: number;
      stream: StreamName;
      count: number;
      first_seq: number;
    }[];
    const ordered = [
      ...rows.filter((r) => r.stream === 'asc'),
      ...rows.filter((r) => r.stream === 'desc').reverse(),
    ];
    let start = 0;
    const chunks = ordered.map((r) => {
      const chunk = {
        chunkNo: r.chunk_no,
        count: r.count,
        firstSeq: r.first_seq,
        reversed: r.stream === 'desc',
        start,
      };
      start += r.count;
      return chunk;
    });
    return { size: start, chunks };
  }
}

/** A chunk's kept numbers (field after field) into the columns, in the layout's order. */
function copyKnown(
  kept: Float64Array,
  chunk: { count: number; reversed: boolean; start: number },
  out: Float64Array[],
): void {
  out.forEach((column, c) => {
    for (let k = 0; k < chunk.count; k += 1)
      column[chunk.start + k] = kept[c * chunk.count + (chunk.reversed ? chunk.count - 1 - k : k)] as number;
  });
}
