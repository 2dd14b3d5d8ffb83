// The second core of a large sweep: one worker thread, started when first needed and kept for the
// next sweep (starting one costs more than a small sweep). It never keeps the process alive idle.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SweepItem } from '../../shared/api/backtest';
import type { SweepTask } from './sweep-runs';

/**
 * The built `sweep-worker.js` beside this module when there is one, else the TypeScript source
 * through tsx's loader (the service runs under tsx; as in main/core/datasets).
 */
function startWorker(): Worker {
  const here = dirname(fileURLToPath(import.meta.url));
  const built = join(here, 'sweep-worker.js');
  if (existsSync(built)) return new Worker(built);
  const source = pathToFileURL(join(here, 'sweep-worker.ts')).href;
  // A worker does not inherit a loader registered with module.register, so it registers tsx itself.
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(boot, { eval: true });
}

interface Pending {
  resolve: (items: SweepItem[]) => void;
  reject: (error: Error) => void;
}

/** One worker thread that runs sweep tasks, one message id per task. */
export class SweepPool {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  /** Runs `task` in the worker; rejects when the worker fails (the caller then runs it itself). */
  run(task: SweepTask): Promise<SweepItem[]> {
    const worker = this.ensure();
    const id = this.nextId++;
    worker.ref();
    return new Promise<SweepItem[]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, task });
    });
  }

  /** Stops the worker (the service's close). */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker();
    worker.on('message', (m: { id: number; items?: SweepItem[]; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (this.pending.size === 0) worker.unref();
      if (m.items) p.resolve(m.items);
      else p.reject(new Error(m.error ?? 'the sweep worker failed'));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const p of this.pending.values()) p.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the sweep worker exited with code ${code}`)));
    worker.unref();
    this.worker = worker;
    return worker;
  }
}
