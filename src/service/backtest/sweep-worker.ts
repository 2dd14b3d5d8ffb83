// The sweep's worker thread: runs its share of a sweep's jobs and posts the items back.
import { parentPort } from 'node:worker_threads';
import { preparedOf, runJobs, type SweepTask } from './sweep-runs';

parentPort?.on('message', (message: { id: number; task: SweepTask }) => {
  const { id, task } = message;
  try {
    const traders = task.traders.map(preparedOf);
    const items = runJobs(
      traders,
      task.body,
      task.filters,
      task.window,
      task.configs,
      task.rankBy,
      task.jobs,
    );
    parentPort?.postMessage({ id, items });
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
