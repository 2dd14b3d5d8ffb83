// The local service's data preparation after it listens (issue #20 item 1; docs/service.md,
// Listening while preparing): run in a worker thread, so that the event loop keeps answering what
// needs no prepared data (tokens, login, health) and a clear 503 for the rest.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PreparingProgress } from '../../shared/api/preparing';
import type { ServiceConfig } from '../config';
import { prepareTaskOf, type PrepareMessage } from './prepare-task';

/**
 * The built `prepare-worker.js` beside this bundle when there is one, else the TypeScript source
 * through tsx's loader (as the backtest's sweep worker: src/service/backtest/sweep-pool.ts).
 */
function startWorker(config: ServiceConfig): Worker {
  const here = dirname(fileURLToPath(import.meta.url));
  const workerData = prepareTaskOf(config);
  const built = join(here, 'prepare-worker.js');
  if (existsSync(built)) return new Worker(built, { workerData });
  const source = pathToFileURL(join(here, 'prepare-worker.ts')).href;
  // A worker does not inherit a loader registered with module.register, so it registers tsx itself.
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(boot, { eval: true, workerData });
}

/** Where a service's preparation is: under way (with its progress), finished, or failed. */
export class Preparation {
  private progress: PreparingProgress | null;
  private worker: Worker | null = null;
  /** Resolves when the data is prepared; rejects when preparing it failed. */
  readonly finished: Promise<void>;
  private settle: { resolve: () => void; reject: (error: Error) => void } | null = null;

  /** `needed` false: nothing to prepare (a second start), finished from the start. */
  constructor(needed: boolean) {
    this.progress = needed ? { step: 'starting', done: 0, total: 1 } : null;
    this.finished = needed
      ? new Promise<void>((resolve, reject) => (this.settle = { resolve, reject }))
      : Promise.resolve();
    // A failure is reported by whoever waits on it; none must crash the process unobserved.
    this.finished.catch(() => undefined);
  }

  /** The progress while preparing, null once prepared (or when there was nothing to prepare). */
  current(): PreparingProgress | null {
    return this.progress;
  }

  /** Starts the worker (once); `onProgress` hears every step it reports. */
  start(config: ServiceConfig, onProgress: (progress: PreparingProgress) => void): void {
    if (this.progress === null || this.worker !== null) return;
    const worker = startWorker(config);
    this.worker = worker;
    worker.on('message', (message: PrepareMessage) => {
      if (message.kind === 'progress') {
        this.progress = message.progress;
        onProgress(message.progress);
      } else if (message.kind === 'done') this.end(null);
      else this.end(new Error(message.message));
    });
    worker.on('error', (error) => this.end(error));
    worker.on('exit', (code) => this.end(new Error(`the preparing worker exited with code ${code}`)));
  }

  /** Stops a preparation under way (the service closes); the next start undoes and redoes it. */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.end(new Error('the service closed while it prepared its data'));
    await worker?.terminate();
  }

  private end(error: Error | null): void {
    const settle = this.settle;
    if (!settle) return;
    this.settle = null;
    this.worker = null;
    if (error) settle.reject(error);
    else {
      this.progress = null;
      settle.resolve();
    }
  }
}
