import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type TransferListItem } from 'node:worker_threads';
import { CoreError } from '../errors';
import { ServiceRequestError } from '../client/http';
import type {
  Usage,
  WorkerData,
  WorkerError,
  WorkerOp,
  WorkerOps,
  WorkerRequest,
  WorkerResponse,
} from './worker-messages';

/**
 * How to start the worker: the built `dataset-worker.js` beside this bundle when there is one
 * (electron-vite builds it as its own input of main, electron.vite.config.ts), else the TypeScript
 * source through tsx's loader (development and tests).
 */
function startWorker(data: WorkerData): Worker {
  const here = dirname(fileURLToPath(import.meta.url));
  // The bundler may put this code in out/main or in a chunk folder below it.
  const built = [join(here, 'dataset-worker.js'), join(here, '..', 'dataset-worker.js')].find((file) =>
    existsSync(file),
  );
  if (built) return new Worker(built, { workerData: data });
  const source = pathToFileURL(join(here, 'dataset-worker.ts')).href;
  // A worker does not inherit a loader registered with module.register, so it registers tsx itself.
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(boot, { eval: true, workerData: data });
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * The core's side of the dataset worker: one request at a time per message id, answers matched
 * by id. A worker that dies fails its pending calls with a CoreError and is started again on the
 * next call (everything it owns is in SQLite). It never keeps the process alive while idle.
 */
export class DatasetWorkerClient {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;
  private starts = 0;

  /** `path` null: a batch reader, which opens no file (WorkerData). */
  constructor(
    private readonly path: string | null,
    private readonly onUsage: (usage: Usage) => void = () => undefined,
  ) {}

  /** Runs `op` in the worker; `transfer` lists buffers moved to it rather than copied. */
  call<O extends WorkerOp>(
    op: O,
    args: WorkerOps[O]['args'],
    transfer: TransferListItem[] = [],
  ): Promise<WorkerOps[O]['result']> {
    if (this.closed)
      return Promise.reject(
        new CoreError('INTERNAL', 'The downloaded datasets are closed (Copydesk is stopping).'),
      );
    return this.send(this.worker ?? this.start(), op, args, transfer);
  }

  /**
   * Starts the worker if it is not running, and says which start of it is running: a number that
   * changes when a worker that died was started again.
   */
  instance(): number {
    if (!this.worker && !this.closed) this.start();
    return this.starts;
  }

  /** Closes the database and ends the worker; pending calls fail. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const worker = this.worker;
    if (worker) {
      // Held open until it has ended, so that a script's last await really closes the file.
      worker.ref();
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      const closing = this.send(worker, 'close', {}).catch(() => undefined);
      await Promise.race([closing, delay(5_000)]);
      // The worker closes its port after answering; terminate in case it could not.
      await Promise.race([exited, delay(1_000)]);
      await worker.terminate();
    }
    this.failAll('The downloaded datasets were closed before the answer came.');
  }

  private send<O extends WorkerOp>(
    worker: Worker,
    op: O,
    args: WorkerOps[O]['args'],
    transfer: TransferListItem[] = [],
  ): Promise<WorkerOps[O]['result']> {
    const id = this.nextId++;
    const request: WorkerRequest<O> = { id, op, args };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.ref();
      worker.postMessage(request, transfer);
    });
  }

  private start(): Worker {
    const worker = startWorker({ path: this.path });
    this.worker = worker;
    this.starts += 1;
    worker.unref();
    worker.on('message', (response: WorkerResponse) => {
      const waiting = this.pending.get(response.id);
      if (!waiting) return;
      this.pending.delete(response.id);
      if (this.pending.size === 0 && !this.closed) worker.unref();
      if (response.usage) this.onUsage(response.usage);
      if (response.ok) waiting.resolve(response.value);
      else waiting.reject(errorOf(response.error));
    });
    worker.on('error', (error) => this.lost(worker, `The dataset worker failed: ${error.message}`));
    worker.on('exit', (code) =>
      this.lost(worker, `The dataset worker stopped unexpectedly (exit code ${code}).`),
    );
    return worker;
  }

  private lost(worker: Worker, message: string): void {
    if (this.worker !== worker) return;
    this.worker = null;
    if (!this.closed) console.error(`[copydesk core] ${message}`);
    this.failAll(message);
  }

  private failAll(message: string): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const w of waiting) w.reject(new CoreError('INTERNAL', message));
  }
}

/** A worker's failure as the error it was there: a service's answer stays a ServiceRequestError. */
function errorOf({ code, message, service }: WorkerError): CoreError {
  return service
    ? new ServiceRequestError(code, message, service.status, service.retryAfterMs)
    : new CoreError(code, message);
}

// Unref'd: the worker, held open while closing, keeps the process alive; a timer must not.
const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
