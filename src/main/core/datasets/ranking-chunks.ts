import { RANKING_KEYS } from '../../../shared/api/statistics';
import { COLUMN_COUNT, COLUMN_INDEX } from './fields';

/** Where each ranking key's number sits in a record's numbers. */
const RANKING_COLUMN_AT = RANKING_KEYS.map((key) => COLUMN_INDEX.get(key) as number);

const generationKey = (datasetId: number, gen: number) => `${datasetId}/${gen}`;

/**
 * The ranking keys' numbers of each chunk a running generation has written, by chunk number
 * (RANKING_KEYS.length × count, key after key): its completion ranks them without reading every
 * chunk back. Kept in memory only: after a restart the chunks written before are read back instead
 * (ChunkScan), so losing them costs time, never correctness.
 */
export class RankingChunks {
  private readonly byGeneration = new Map<string, Map<number, Float64Array>>();

  /** Keeps the ranking numbers of the first `count` records of a chunk being written. */
  keep(datasetId: number, gen: number, chunkNo: number, numbers: Float64Array, count: number): void {
    const key = generationKey(datasetId, gen);
    let chunks = this.byGeneration.get(key);
    if (!chunks) this.byGeneration.set(key, (chunks = new Map()));
    const kept = new Float64Array(RANKING_COLUMN_AT.length * count);
    RANKING_COLUMN_AT.forEach((at, k) => {
      for (let i = 0; i < count; i += 1) kept[k * count + i] = numbers[i * COLUMN_COUNT + at] as number;
    });
    chunks.set(chunkNo, kept);
  }

  /** Hands over a generation's kept chunks (its completion needs them once) and forgets them. */
  take(datasetId: number, gen: number): ReadonlyMap<number, Float64Array> | undefined {
    const chunks = this.byGeneration.get(generationKey(datasetId, gen));
    this.forgetGeneration(datasetId, gen);
    return chunks;
  }

  forgetGeneration(datasetId: number, gen: number): void {
    this.byGeneration.delete(generationKey(datasetId, gen));
  }

  /** Forgets every generation of a deleted dataset. */
  forgetDataset(datasetId: number): void {
    for (const key of this.byGeneration.keys())
      if (key.startsWith(`${datasetId}/`)) this.byGeneration.delete(key);
  }
}
