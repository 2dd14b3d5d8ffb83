// A search-after answer as the service sent it (bytes), read by the batch reader (a worker thread
// of its own): decoded, parsed, checked against the API contract and packed for the store. The
// core's thread only moves bytes, and the dataset worker only writes (docs/core-cache.md, The
// worker).
import { SEARCH_AFTER_PATH, searchAfterResponseSchema } from '../../../../shared/api/statistics';
import { checkAnswer } from '../../client/http';
import { CoreError } from '../../errors';
import { packRecords } from './fields';
import type { ReadBatch, WorkerHost, WorkerOp, WorkerOps } from './protocol';

const decoder = new TextDecoder();

/** The records and the cursor of one answer; `batchSize` is what was asked (a shorter batch is the last). */
export function readBatchBytes(bytes: ArrayBuffer, batchSize: number): ReadBatch {
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
    ...packRecords(answer.data as unknown as Record<string, unknown>[]),
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
  };
}

/** The batch reader's side of the worker protocol: `read` (and `close`), with no file. */
export class BatchReaderHost implements WorkerHost {
  handle<O extends WorkerOp>(
    op: O,
    args: WorkerOps[O]['args'],
  ): { value: WorkerOps[O]['result']; usage: null } {
    if (op === 'close') return { value: null as WorkerOps[O]['result'], usage: null };
    if (op !== 'read')
      throw new CoreError('INTERNAL', `The batch reader does not know the operation ${String(op)}.`);
    const { bytes, batchSize } = args as WorkerOps['read']['args'];
    return { value: readBatchBytes(bytes, batchSize) as WorkerOps[O]['result'], usage: null };
  }

  close(): void {}
}
