import { CoreError } from '../errors';
import type { StreamName } from './worker-messages';

// A download walks from both ends of the id order at once (docs/core-cache.md): each batch must
// neither repeat an id nor cross the other end, or the dataset would hold a record twice.

/** The error for a record stored twice: the dataset cannot be trusted, so it is downloaded again. */
export const repeatedRecord = (id: string) =>
  new CoreError('INTERNAL', `The download holds record ${id} twice; delete it and download again.`);

/**
 * No id of the first `count` of a batch equals the one before it on its end (the last id the end
 * stored, then each other): ids come sorted, so a repeat is always next to itself. Checked batch by
 * batch rather than over the whole dataset at its completion.
 */
export function checkNoRepeat(ids: readonly string[], count: number, lastId: string | null): void {
  let previous = lastId;
  for (let i = 0; i < count; i += 1) {
    if (ids[i] === previous) throw repeatedRecord(previous);
    previous = ids[i] as string;
  }
}

/**
 * How many leading records of a batch lie before the other end's last id: the `asc` end keeps ids
 * below it, the `desc` end ids above it (each batch is sorted by id in its own direction).
 */
export function keepUntil(ids: readonly string[], stream: StreamName, otherLastId: string | null): number {
  if (otherLastId === null) return ids.length;
  let kept = 0;
  for (const id of ids) {
    if (stream === 'asc' ? id >= otherLastId : id <= otherLastId) break;
    kept += 1;
  }
  return kept;
}
