// A search-after answer as the service sent it (bytes), read on the dataset worker: decoded,
// parsed, checked against the API contract and packed for the store. The core's thread only
// moves the bytes (docs/core-cache.md, Download speed).
import { SEARCH_AFTER_PATH, searchAfterResponseSchema } from '../../../../shared/api/statistics';
import { checkAnswer } from '../../client/http';
import { CoreError } from '../../errors';
import { packRecords } from './fields';
import type { BatchMeta, PackedRecords } from './protocol';

const decoder = new TextDecoder();

/** The records and the cursor of one answer; `batchSize` is what was asked (a shorter batch is the last). */
export function readBatchBytes(
  bytes: ArrayBuffer,
  batchSize: number,
): { meta: BatchMeta; records: PackedRecords } {
  let json: unknown;
  try {
    json = JSON.parse(decoder.decode(bytes));
  } catch (error) {
    throw new CoreError(
      'INTERNAL',
      `The service answered POST ${SEARCH_AFTER_PATH} with text that is not JSON (${(error as Error).message}).`,
    );
  }
  const answer = checkAnswer(
    searchAfterResponseSchema,
    json,
    { method: 'POST', path: SEARCH_AFTER_PATH },
    200,
  );
  const { meta } = answer;
  return {
    meta: {
      pitId: meta.pitId,
      after: meta.searchAfter,
      total: meta.total,
      count: answer.data.length,
      // The end of the data: a batch shorter than asked, or one with no cursor to go on from
      // (some deployments answer `searchAfter: null` at the end; going on without one would
      // start over).
      last: answer.data.length < batchSize || meta.searchAfter === null,
    },
    records: packRecords(answer.data as unknown as Record<string, unknown>[]),
  };
}
