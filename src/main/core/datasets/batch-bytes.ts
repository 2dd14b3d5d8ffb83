// A search-after batch fetched by the batch reader (a worker thread of its own) with the request
// the core's service client built, and its answer decoded, parsed, checked against the API
// contract and packed for the store. The core's thread only builds requests and hands keys on,
// and the dataset worker only writes (docs/core-cache.md, The worker).
import {
  SEARCH_AFTER_PATH,
  searchAfterResponseSchema,
  type SearchAfterResponse,
} from '../../../shared/api/statistics';
import { checkAnswer, fetchBytes } from '../client/http';
import { CoreError } from '../errors';
import { packRecords } from './fields';
import { recordsFit } from './record-check';
import { BatchSender } from './batch-channel';
import type { BatchMeta, PackedRecords, ReadBatch, WorkerHost, WorkerOp, WorkerOps } from './worker-messages';

const decoder = new TextDecoder();

/** The records and the cursor of one answer; `batchSize` is what was asked (a shorter batch is the last). */
export function readBatchBytes(bytes: ArrayBuffer, batchSize: number): PackedRecords & { meta: BatchMeta } {
  let json: unknown;
  try {
    json = JSON.parse(decoder.decode(bytes));
  } catch (error) {
    throw new CoreError(
      'INTERNAL',
      `The service answered POST ${SEARCH_AFTER_PATH} with text that is not JSON (${(error as Error).message}).`,
    );
  }
  const answer = checkedAnswer(json);
  const { meta } = answer;
  return {
    ...packRecords(answer.data),
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

const ANSWER = { method: 'POST', path: SEARCH_AFTER_PATH } as const;
const metaSchema = searchAfterResponseSchema.shape.meta;

/**
 * The answer checked against the contract: the records by the fast check (record-check.ts), and
 * by the whole schema, which words what is wrong, when that check refuses them.
 */
function checkedAnswer(json: unknown): {
  data: Record<string, unknown>[];
  meta: SearchAfterResponse['meta'];
} {
  if (typeof json === 'object' && json !== null) {
    const { data, meta } = json as { data?: unknown; meta?: unknown };
    const checkedMeta = metaSchema.safeParse(meta);
    if (checkedMeta.success && recordsFit(data)) return { data, meta: checkedMeta.data };
  }
  const answer = checkAnswer(searchAfterResponseSchema, json, ANSWER, 200);
  return { data: answer.data as unknown as Record<string, unknown>[], meta: answer.meta };
}

/**
 * A batch reader's side of the worker's messages: `fetchRead`, `connect` and `close`, with no file.
 * Once connected, a read batch goes to the dataset worker and the core gets its key.
 */
export class BatchReaderHost implements WorkerHost {
  private readonly sender = new BatchSender();

  handle<O extends WorkerOp>(
    op: O,
    args: WorkerOps[O]['args'],
  ):
    { value: WorkerOps[O]['result']; usage: null } | Promise<{ value: WorkerOps[O]['result']; usage: null }> {
    type Result = WorkerOps[O]['result'];
    if (op === 'close') return { value: null as Result, usage: null };
    if (op === 'connect') {
      this.sender.connect((args as WorkerOps['connect']['args']).port);
      return { value: null as Result, usage: null };
    }
    if (op !== 'fetchRead')
      throw new CoreError('INTERNAL', `The batch reader does not know the operation ${String(op)}.`);
    return this.fetchRead(args as WorkerOps['fetchRead']['args']).then((batch) => ({
      value: batch as Result,
      usage: null,
    }));
  }

  private async fetchRead({ request, batchSize, key }: WorkerOps['fetchRead']['args']): Promise<ReadBatch> {
    const { meta, ...records } = readBatchBytes(await fetchBytes(request), batchSize);
    return { ...this.sender.send(key, records), meta };
  }

  close(): void {
    this.sender.close();
  }
}
