// The worker thread that prepares the local service's data (docs/service.md, Listening while
// preparing): it opens the same SQLite file (WAL: the service's own connection keeps reading and
// writing meanwhile) and seeds in short transactions, so that a login waits at most one of them.
import { parentPort, workerData } from 'node:worker_threads';
import { defaultConfig } from '../config';
import { openServiceDatabase } from '../store/database';
import { prepareData } from './demo-world';
import type { PrepareMessage, PrepareTask } from './prepare-task';

const port = parentPort;
if (!port) throw new Error('prepare-worker.ts runs only as a worker thread');
const task = workerData as PrepareTask;
const post = (message: PrepareMessage) => port.postMessage(message);

try {
  const db = openServiceDatabase(task.config.dbPath);
  try {
    const config = defaultConfig({
      ...task.config,
      onProgress: (p) =>
        post({ kind: 'progress', progress: { step: p.phase, done: p.done, total: p.total } }),
    });
    prepareData(db, config, { chunked: true });
  } finally {
    db.close();
  }
  post({ kind: 'done' });
} catch (error) {
  post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
}
