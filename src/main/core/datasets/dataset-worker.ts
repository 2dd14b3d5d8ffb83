// The dataset worker's entry (docs/core-cache.md, The worker): it owns the datasets' SQLite file
// and answers StatisticsDatasets' messages one at a time, off the thread that serves the UI. The
// same entry, started without a file, is the batch reader that parses downloaded batches.
import { parentPort, workerData } from 'node:worker_threads';
import { CoreError } from '../errors';
import { BatchReaderHost } from './batch-bytes';
import { DatasetHost } from './dataset-host';
import type { WorkerData, WorkerError, WorkerHost, WorkerRequest, WorkerResponse } from './worker-messages';
import { ServiceRequestError } from '../client/http';

const port = parentPort;
if (!port) throw new Error('dataset-worker.ts runs as a worker thread, started by StatisticsDatasets');

// A batch reader has no file: it only reads search-after answers (BatchReaderHost).
const { path } = workerData as WorkerData;
const host: WorkerHost = path === null ? new BatchReaderHost() : new DatasetHost(path);

port.on('message', (message: WorkerRequest) => {
  type Handled = Awaited<ReturnType<WorkerHost['handle']>>;
  const success = ({ value, usage }: Handled): WorkerResponse => ({ id: message.id, ok: true, value, usage });
  const failure = (error: unknown): WorkerResponse => ({
    id: message.id,
    ok: false,
    error: workerError(error),
    usage: null,
  });
  let handled: Handled | Promise<Handled>;
  try {
    handled = host.handle(message.op, message.args);
  } catch (error) {
    answer(message, failure(error));
    return;
  }
  // The dataset worker answers at once, in order; the batch reader's fetches answer when they end.
  if (handled instanceof Promise)
    handled.then(
      (h) => answer(message, success(h)),
      (e) => answer(message, failure(e)),
    );
  else answer(message, success(handled));
});

function answer(message: WorkerRequest, response: WorkerResponse): void {
  port!.postMessage(response, response.ok ? transferables(response.value) : []);
  if (message.op === 'close') {
    host.close();
    port!.close();
  }
}

function workerError(error: unknown): WorkerError {
  if (error instanceof ServiceRequestError)
    return {
      code: error.code,
      message: error.message,
      service: { status: error.status, retryAfterMs: error.retryAfterMs },
    };
  if (error instanceof CoreError) return { code: error.code, message: error.message };
  return { code: 'INTERNAL', message: `The dataset store failed: ${(error as Error).message}` };
}

/** The buffers of the typed arrays at the top of an answer (a page's, a read batch's): moved, not copied. */
function transferables(value: unknown): ArrayBuffer[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value)
    .filter((v): v is Float64Array | Uint32Array => v instanceof Float64Array || v instanceof Uint32Array)
    .map((v) => v.buffer as ArrayBuffer);
}
