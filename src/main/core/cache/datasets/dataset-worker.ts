// The dataset worker's entry (docs/core-cache.md, The worker): it owns the datasets' SQLite file
// and answers StatisticsDatasets' messages one at a time, off the thread that serves the UI. The
// same entry, started without a file, is the batch reader that parses downloaded batches.
import { parentPort, workerData } from 'node:worker_threads';
import { CoreError } from '../../errors';
import { BatchReaderHost } from './batch-bytes';
import { DatasetHost } from './dataset-host';
import type { WorkerData, WorkerHost, WorkerRequest, WorkerResponse } from './protocol';

const port = parentPort;
if (!port) throw new Error('dataset-worker.ts runs as a worker thread, started by StatisticsDatasets');

// A batch reader has no file: it only reads search-after answers (BatchReaderHost).
const { path } = workerData as WorkerData;
const host: WorkerHost = path === null ? new BatchReaderHost() : new DatasetHost(path);

port.on('message', (message: WorkerRequest) => {
  let response: WorkerResponse;
  try {
    const { value, usage } = host.handle(message.op, message.args);
    response = { id: message.id, ok: true, value, usage };
  } catch (error) {
    response = {
      id: message.id,
      ok: false,
      error:
        error instanceof CoreError
          ? { code: error.code, message: error.message }
          : { code: 'INTERNAL', message: `The dataset store failed: ${(error as Error).message}` },
      usage: null,
    };
  }
  port.postMessage(response, response.ok ? transferables(response.value) : []);
  if (message.op === 'close') {
    host.close();
    port.close();
  }
});

/** The buffers of the typed arrays at the top of an answer (a page's, a read batch's): moved, not copied. */
function transferables(value: unknown): ArrayBuffer[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value)
    .filter(
      (v): v is Float64Array | Uint32Array | Uint8Array =>
        v instanceof Float64Array || v instanceof Uint32Array || v instanceof Uint8Array,
    )
    .map((v) => v.buffer as ArrayBuffer);
}
